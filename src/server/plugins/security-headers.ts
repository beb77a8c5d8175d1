/**
 * Security headers on every answer, set on the raw response before any route runs, so the
 * identity provider's own answers (oidc-provider writes to the raw response) carry them too; a
 * route that sets its own (attachments, the login page, Swagger UI) overrides them.
 *
 * Three policies by path:
 * - the app (index.html, scripts, sw.js, config.json, the base map): scripts, styles, fonts and
 *   data only from this origin — no inline script or style, nothing from a third party. MapLibre
 *   runs its workers from blob: URLs and draws blob:/data: images; photos are previewed from
 *   blob: URLs. With AUTH=keycloak the configured Keycloak is the one other origin the app may
 *   call (token refresh) and frame.
 * - the identity provider under /auth (login, logout, activation, errors): the policies of
 *   idp/pages.ts — the one inline style by its hash, no script but the logout forms' own.
 * - the API (/api/*): JSON and files, never a page: nothing may load.
 * - the built scripts and styles (/static/js/, /static/css/: what a page loads, never a document
 *   or a worker; the service worker is /sw.js): only nosniff (and HSTS). A page's policies apply
 *   to documents and workers alone, and on each of a first visit's dozen scripts they were
 *   ≈ 0.6 kB of headers a phone downloads for nothing.
 * All others: no framing (frame-ancestors 'none', X-Frame-Options), no referrer, no MIME sniffing, a
 * browsing context of its own (COOP). Geolocation and the camera only for the app's own pages.
 * HSTS only when PUBLIC_URL is https (over plain http it would be ignored or, worse, pin a
 * development host).
 */
import type { FastifyInstance } from 'fastify';
import type { AuthSetting } from '../env';
import { REALM_PATH } from '../idp/constants';
import { PROVIDER_POLICY } from '../idp/pages';
import { servedFile } from './static';

export interface SecurityHeaderOptions {
  auth?: AuthSetting;
  /** The external Keycloak (AUTH=keycloak). */
  keycloak?: { url: string };
  /** The public origin; https turns HSTS on. */
  publicUrl?: string;
}

const HSTS = 'max-age=31536000';
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const APP_PERMISSIONS = 'camera=(self), geolocation=(self), microphone=(), payment=(), usb=()';
const NO_PERMISSIONS = 'camera=(), geolocation=(), microphone=(), payment=(), usb=()';

/** The app's Content-Security-Policy; `keycloakOrigin` is the external identity server, if any. */
function appPolicy(keycloakOrigin?: string): string {
  const identity = keycloakOrigin ? ` ${keycloakOrigin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${identity}`,
    // MapLibre's workers come from blob: URLs; the service worker is /sw.js. child-src for
    // browsers that do not know worker-src yet.
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    `frame-src 'self'${identity}`,
    "manifest-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function keycloakOriginOf(options: SecurityHeaderOptions): string | undefined {
  if (options.auth !== 'keycloak' || !options.keycloak?.url) return undefined;
  return new URL(options.keycloak.url).origin;
}

/**
 * A built script or stylesheet, judged by the file the static plugin serves for the request:
 * `/static/js/%2e%2e/%2e%2e/index.html` is the page and keeps the page's policies.
 */
function isBuiltSubresource(url: string): boolean {
  const file = servedFile(url);
  return file !== null && /^static\/(js|css)\/[^/]+$/.test(file);
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  /** What every answer carries. */
  const everyAnswer: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    ...(options.publicUrl?.startsWith('https://') ? { 'strict-transport-security': HSTS } : {}),
  };
  const common: Record<string, string> = {
    ...everyAnswer,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
  const byKind = {
    app: { ...common, 'content-security-policy': appPolicy(keycloakOriginOf(options)), 'permissions-policy': APP_PERMISSIONS },
    identity: { ...common, 'content-security-policy': PROVIDER_POLICY, 'permissions-policy': NO_PERMISSIONS },
    api: { ...common, 'content-security-policy': API_POLICY, 'permissions-policy': NO_PERMISSIONS },
    subresource: everyAnswer,
  };

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const kind = path.startsWith(`${REALM_PATH}/`)
      ? 'identity'
      : path.startsWith('/api/') && !path.startsWith('/api/docs')
        ? 'api'
        : isBuiltSubresource(request.url)
          ? 'subresource'
          : 'app';
    for (const [name, value] of Object.entries(byKind[kind])) reply.raw.setHeader(name, value);
  });
}
