/**
 * Farmers' sign-in accounts for editors (embedded identity provider): the status of a farmer's
 * account and a one-time activation link the editor hands over (no e-mail server is assumed).
 *
 * - `GET /api/Accounts/{farmerId}` → `{exists, activated, activationPending, expiresAt?, mode}`
 * - `POST /api/Accounts/{farmerId}/activation` → 201 `{url, expiresAt}`: valid ACTIVATION_TTL_S
 *   (7 days), single use; a new call replaces an unused link (the old one stops working). Creates
 *   the pending account first if the farmer has none yet (a farmer written before accounts existed).
 *   409 when the account is already activated, or with AUTH=keycloak, where accounts live in Keycloak.
 *
 * The project is the farmer record's own (the path names no project); editors of that project
 * only: readers 403, farmers 403 for their own id and 404 for anyone else's (as record routes do).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fillText, slSeasonServer } from '../../../../common/i18n/sl';
import { resolveAccess } from '../../../access/access';
import type { AuthMode } from '../../../auth';
import type { IdentityLimits } from '../../../env';
import { errorResponses, writeErrorResponses } from '../../../http/schemas';
import { HttpError } from '../../../http/errors';
import { forbidden, invalid, notFound, unauthenticated } from '../../../domain-errors';
import '../../../http/fastify-types';
import { accountStatus, issueFarmerActivation } from '../../../idp/activations';
import { ACTIVATION_ROUTE, registerActivationPage } from '../../../idp/activation-routes';
import { originOf } from '../../../idp';
import { parseProperties } from '../../../repositories/record-mapper';
import { locateLiveRecord } from '../../../repositories/record-repository';

export interface AccountRouteOptions {
  mode: AuthMode;
  publicUrl?: string;
  /** Requests to the activation links per address and account (IDP_LIMIT_*; default none). */
  identityLimits?: IdentityLimits;
}

/** What the client is told: accounts in our users table, or in an external Keycloak. */
type AccountMode = 'embedded' | 'keycloak';

const t = slSeasonServer.accounts;
const tags = ['Accounts'];
const params = { type: 'object', properties: { farmerId: { type: 'integer', minimum: 1 } }, required: ['farmerId'] } as const;
const statusSchema = {
  type: 'object',
  properties: {
    exists: { type: 'boolean' },
    activated: { type: 'boolean' },
    activationPending: { type: 'boolean' },
    expiresAt: { type: 'string', format: 'date-time' },
    mode: { type: 'string', enum: ['embedded', 'keycloak'] },
  },
  required: ['exists', 'activated', 'activationPending', 'mode'],
} as const;
const linkSchema = {
  type: 'object',
  properties: { url: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } },
  required: ['url', 'expiresAt'],
} as const;

export default async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const mode: AccountMode = options.mode === 'keycloak' ? 'keycloak' : 'embedded';
  const appOrigin = (request: FastifyRequest) => originOf(request, options.publicUrl);
  if (mode === 'embedded') await registerActivationPage(app, { db: app.db, appOrigin, limits: options.identityLimits });

  /** The farmer record (any project) if the caller is an editor of its project; else 404/403. */
  async function farmerForEditor(request: FastifyRequest, farmerId: number): Promise<{ email: string | undefined; name: string }> {
    if (!request.principal) throw unauthenticated('authentication required');
    const row = await locateLiveRecord(app.db, farmerId);
    const schema = row ? await app.projects.get(row.project_id) : null;
    const farmers = schema?.tablesByKey.get('farmers');
    if (!row || !schema || !farmers || row.table_id !== farmers.id) throw notFound(fillText(t.notAFarmer, { id: farmerId }));
    const access = await resolveAccess(app.db, app.dialect, schema, request.principal);
    if (access.role === 'farmer' && access.farmerId !== farmerId) throw notFound(fillText(t.notAFarmer, { id: farmerId }));
    if (!access.editor) throw forbidden('only editors manage sign-in accounts');
    const props = parseProperties(row.properties);
    const value = (name: string) => {
      const column = farmers.columnsByName.get(name);
      const v = column ? props[String(column.id)] : undefined;
      return typeof v === 'string' && v.trim() ? v.trim() : undefined;
    };
    const email = value('email');
    return { email, name: value('name') ?? email ?? String(farmerId) };
  }

  app.get<{ Params: { farmerId: number } }>(
    '/api/Accounts/:farmerId',
    { schema: { tags, summary: "A farmer's sign-in account (editors)", params, response: { 200: statusSchema, ...errorResponses } } },
    async (request) => {
      const farmer = await farmerForEditor(request, request.params.farmerId);
      if (mode === 'keycloak' || !farmer.email) return { exists: false, activated: false, activationPending: false, mode };
      return { ...(await accountStatus(app.db, farmer.email)), mode };
    },
  );

  app.post<{ Params: { farmerId: number } }>(
    '/api/Accounts/:farmerId/activation',
    {
      schema: {
        tags,
        summary: 'A one-time activation link for the farmer (editors; 7 days, single use, replaces an unused one)',
        params,
        response: { 201: linkSchema, ...writeErrorResponses },
      },
    },
    async (request, reply) => {
      const farmer = await farmerForEditor(request, request.params.farmerId);
      if (mode === 'keycloak') throw new HttpError(409, t.keycloak);
      if (!farmer.email) throw invalid(t.noEmail);
      const email = farmer.email;
      const issued = await issueFarmerActivation(app.db, { email, name: farmer.name }, request.principal!.email || request.principal!.subject);
      if (!issued.ok) throw new HttpError(409, fillText(t.alreadyActive, { email }));
      return reply.status(201).send({ url: `${appOrigin(request)}${ACTIVATION_ROUTE}/${issued.token}`, expiresAt: issued.expiresAt });
    },
  );
}
