/**
 * The public site, registered by app.ts after the API: /config.json, /keycloak.json, the own base
 * map (/basemap/…) and the built client with /sw.js. None of these needs a token; the static
 * catch-all answers only what no other route matches, whenever those are registered.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AuthMode } from '../../../common/schemas/config';
import type { AuthSetting } from '../../env';
import { registerStatic } from '../../plugins/static';
import { basemapRoutes } from '../basemap';
import { registerConfigJson } from './config-json';
import { registerKeycloakJson } from './keycloak-json';

export interface SiteOptions {
  clientDir?: string;
  /** Authentication mode (AUTH): embedded and keycloak both mean keycloak-js for the client. */
  auth?: AuthSetting;
  keycloak?: { url: string; realm?: string; clientId?: string };
  publicUrl?: string;
  version: string;
  /** The project config.json describes (default 1, the demo project). */
  projectId?: number;
}

function clientAuthMode(auth: AuthSetting | undefined): AuthMode {
  if (auth === 'basic' || auth === 'none') return auth;
  return 'keycloak';
}

export async function registerSite(app: FastifyInstance, options: SiteOptions): Promise<void> {
  registerConfigJson(app, { db: app.db, projectId: options.projectId ?? 1, version: options.version, authMode: clientAuthMode(options.auth) });
  registerKeycloakJson(app, {
    ...(options.keycloak && options.auth === 'keycloak'
      ? { url: options.keycloak.url, realm: options.keycloak.realm, clientId: options.keycloak.clientId }
      : {}),
    publicUrl: options.publicUrl,
  });
  // The own offline base map config.json names first (public like the client).
  await app.register(basemapRoutes);
  await registerStatic(app, { clientDir: path.resolve(options.clientDir ?? 'dist') });
}
