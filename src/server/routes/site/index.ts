/**
 * The public site: /config.json, /keycloak.json and the built client (with /sw.js). None of these
 * needs a token (DESIGN §6: "no token → /api/Test, /config.json, /keycloak.json, static files").
 * Registered by app.ts after the API routes; the static catch-all only answers what no other route
 * matched.
 */
import type { FastifyInstance } from 'fastify';
import { registerStatic } from '../../plugins/static';
import { registerConfigJson, type ConfigJsonOptions } from './config-json';
import { registerKeycloakJson, type KeycloakSettings } from './keycloak-json';

export interface SiteOptions extends ConfigJsonOptions {
  keycloak: KeycloakSettings;
  /** Absolute path of the built client (dist/). */
  clientDir: string;
}

export async function registerSiteRoutes(app: FastifyInstance, options: SiteOptions): Promise<void> {
  registerConfigJson(app, options);
  registerKeycloakJson(app, options.keycloak);
  await registerStatic(app, { clientDir: options.clientDir });
}
