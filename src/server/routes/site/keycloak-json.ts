/**
 * GET /keycloak.json: where keycloak-js finds the identity provider. By default that is
 * the embedded provider on our own origin (`${origin}/auth`, realm moj-travnik, client
 * moj-travnik-app — the names of src/server/idp/constants.ts); with AUTH=keycloak it is the
 * external Keycloak named by KEYCLOAK_URL/KEYCLOAK_REALM/KEYCLOAK_CLIENT_ID, and the client needs no
 * change. Public: the app reads it before anyone has signed in.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KeycloakJson } from '../../../common/schemas/wire';
import { AUTH_SERVER_PATH, CLIENT_ID, REALM } from '../../idp/constants';

export interface KeycloakSettings {
  /** auth-server-url of an external Keycloak; absent = the embedded provider on this origin. */
  url?: string;
  realm?: string;
  clientId?: string;
  /** Public origin when behind a proxy that rewrites Host (e.g. https://travnik.example.si). */
  publicUrl?: string;
}

/** The origin the browser used: PUBLIC_URL when configured, else the request's protocol and Host. */
function requestOrigin(request: FastifyRequest, publicUrl?: string): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

function keycloakJsonFor(request: FastifyRequest, settings: KeycloakSettings): KeycloakJson {
  const external = Boolean(settings.url);
  return {
    'auth-server-url': external ? settings.url!.replace(/\/+$/, '') : `${requestOrigin(request, settings.publicUrl)}${AUTH_SERVER_PATH}`,
    realm: settings.realm ?? REALM,
    resource: settings.clientId ?? CLIENT_ID,
    'public-client': true,
    // The embedded provider runs wherever the app runs (often plain http on a LAN in demos).
    'ssl-required': external ? 'external' : 'none',
  };
}

export function registerKeycloakJson(app: FastifyInstance, settings: KeycloakSettings): void {
  app.get(
    '/keycloak.json',
    {
      schema: {
        tags: ['Site'],
        summary: 'Identity provider settings for keycloak-js',
        security: [],
        response: { 200: KeycloakJson },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return keycloakJsonFor(request, settings);
    },
  );
}
