/**
 * What the request log and /metrics say about a request: its route family (a small, fixed set of
 * labels taken from the matched route's pattern, never from the raw URL, so label values stay few)
 * and the caller's role, and the URL with its secrets taken out.
 */
import type { FastifyRequest } from 'fastify';
import '../http/fastify-types';
import { ACTIVATION_PATH, AUTH_SERVER_PATH } from '../idp/constants';

/**
 * features, records, attachments, full, accounts, import, roles, … (the /api/<Name> segment in
 * lower case), auth (sign-in, tokens, activation pages), metrics, site (client, config, docs,
 * base map), unmatched (404s of unknown paths).
 */
export function routeFamily(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (!pattern) return 'unmatched';
  if (pattern.startsWith(`${AUTH_SERVER_PATH}/`) || pattern === AUTH_SERVER_PATH) return 'auth';
  if (pattern === '/metrics') return 'metrics';
  const api = /^\/api\/([A-Za-z]+)(\/|$)/.exec(pattern);
  if (!api || api[1] === 'Test' || api[1] === 'docs' || pattern.startsWith('/api/openapi')) return 'site';
  if (/\/attachment(info)?(\/|$)/.test(pattern)) return 'attachments';
  if (/\/full$/.test(pattern)) return 'full';
  if (api[1] === 'PublicApp') return 'roles';
  return api[1]!.toLowerCase();
}

/** editor, reader or farmer in the project of the route; else user (signed in) or anonymous. */
export function callerRole(request: FastifyRequest): string {
  if (request.access) return request.access.role;
  return request.principal ? 'user' : 'anonymous';
}

/** Query parameters whose values are credentials or one-time codes (OAuth/OIDC and our own). */
const SECRET_PARAMS = /^(code|token|access_token|refresh_token|id_token|id_token_hint|password|client_secret|code_verifier|ticket|key)$/i;

/**
 * The URL as it may be logged: the token of an activation link replaced, and the values of
 * credential-carrying query parameters replaced.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  let pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt + 1);
  const activation = pathPart.indexOf(`${ACTIVATION_PATH}/`);
  if (activation !== -1) pathPart = `${pathPart.slice(0, activation + ACTIVATION_PATH.length)}/[redacted]`;
  if (!query) return pathPart;
  const params = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed name stays as sent.
    }
    return eq !== -1 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
  });
  return `${pathPart}?${params.join('&')}`;
}
