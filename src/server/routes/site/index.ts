/**
 * The server's edge, registered by app.ts with one call (`registerServerEdge`) placed after the
 * access hooks and BEFORE the JSON API routes:
 * - the OpenAPI document and docs (first, so @fastify/swagger sees every later route);
 * - attachment and `full` multipart routes (/api/Records/…/attachment…, …/full);
 * - the public site: /config.json, /keycloak.json, the own base map (/basemap/…) and the built
 *   client with /sw.js. None of these needs a token (docs/architecture.md, Roles, "no token");
 *   the static catch-all only answers what no other
 *   route matches, whenever those are registered.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AuthMode } from '../../../common/schemas/config';
import { createAttachmentService } from '../../attachments/service';
import type { AttachmentStorage } from '../../attachments/storage';
import { DEFAULT_LIMITS, type AuthSetting, type UploadLimits } from '../../env';
import { registerOpenApi } from '../../plugins/openapi';
import { registerStatic } from '../../plugins/static';
import attachmentRoutes from '../api/attachments';
import { basemapRoutes } from '../basemap';
import fullRoutes from '../api/full';
import { registerConfigJson } from './config-json';
import { registerKeycloakJson } from './keycloak-json';
import { packageVersion } from './version';

/** The settings of buildApp's options this module reads (BuildAppOptions passes them through). */
export interface EdgeOptions {
  dataDir?: string;
  clientDir?: string;
  /** Upload limits; missing members take DEFAULT_LIMITS (env.ts). */
  limits?: Partial<UploadLimits>;
  /** Authentication mode (AUTH): embedded and keycloak both mean keycloak-js for the client. */
  auth?: AuthSetting;
  keycloak?: { url: string; realm?: string; clientId?: string };
  publicUrl?: string;
  version?: string;
  /** The project config.json describes (default 1, the demo project). */
  projectId?: number;
  /** Attachment storage other than the local disk (e.g. S3). */
  attachmentStorage?: AttachmentStorage;
}

function clientAuthMode(auth: AuthSetting | undefined): AuthMode {
  if (auth === 'basic' || auth === 'none') return auth;
  return 'keycloak';
}

export async function registerServerEdge(app: FastifyInstance, options: EdgeOptions): Promise<void> {
  const version = options.version ?? packageVersion();
  await registerOpenApi(app, { version });

  const dataDir = path.resolve(options.dataDir ?? 'data');
  const limits: UploadLimits = { ...DEFAULT_LIMITS, ...(options.limits ?? {}) };
  const service = createAttachmentService(dataDir, limits, options.attachmentStorage);
  await app.register(attachmentRoutes, { service });
  await app.register(fullRoutes, { service });

  registerConfigJson(app, { db: app.db, projectId: options.projectId ?? 1, version, authMode: clientAuthMode(options.auth) });
  registerKeycloakJson(app, {
    ...(options.keycloak && options.auth === 'keycloak' ? { url: options.keycloak.url, realm: options.keycloak.realm, clientId: options.keycloak.clientId } : {}),
    publicUrl: options.publicUrl,
  });
  // The own offline base map config.json names first (routes/basemap: public like the client).
  await app.register(basemapRoutes);
  await registerStatic(app, { clientDir: path.resolve(options.clientDir ?? 'dist') });
}
