/**
 * The access hooks of /api/*: `onRequest` authenticates (no principal → 401) and, once the params
 * are parsed, `preHandler` resolves the caller's role in the project of `:projectId` into
 * `request.access` — for every route with that param, including the attachment and `full`
 * routes. A user who is neither editor nor reader and has no farmers record gets 403
 * ('No farmer record for this user'; the client shows sl.farmer.missing), except on routes
 * marked `config.allowNoFarmer` (the roles call).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticate } from '../auth/principal';
import '../http/fastify-types';
import { forbidden, notFound, unauthenticated } from '../domain-errors';
import { NO_FARMER_RECORD, resolveAccess } from './access';

/** API paths that need no authentication: the reachability probe and the API documentation. */
const PUBLIC_PATHS = ['/api/Test', '/api/openapi.json', '/api/docs'];

function isPublic(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.public === true) return true;
  const path = request.url.split('?')[0] ?? '';
  if (!path.startsWith('/api/') && path !== '/api') return true;
  return PUBLIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

export function registerAccessHooks(app: FastifyInstance, getAuthenticate: () => Authenticate | undefined): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('access', null);
  app.decorateRequest('projectSchema', null);

  app.addHook('onRequest', async (request) => {
    if (isPublic(request)) return;
    const authenticate = getAuthenticate();
    // With no authentication configured nobody gets in: fail closed.
    const principal = authenticate ? await authenticate(request) : null;
    if (!principal) throw unauthenticated('authentication required');
    request.principal = principal;
  });

  app.addHook('preHandler', async (request) => {
    const params = request.params as Record<string, unknown> | undefined;
    const projectId = params?.projectId;
    if (!request.principal || projectId === undefined) return;
    const id = typeof projectId === 'number' ? projectId : Number(projectId);
    const schema = Number.isSafeInteger(id) ? await app.projects.get(id) : null;
    if (!schema) throw notFound(`project ${String(projectId)} not found`);
    const access = await resolveAccess(app.db, app.dialect, schema, request.principal);
    if (access.role === 'farmer' && access.farmerId === null && request.routeOptions.config?.allowNoFarmer !== true) {
      throw forbidden(NO_FARMER_RECORD);
    }
    request.projectSchema = schema;
    request.access = access;
  });
}
