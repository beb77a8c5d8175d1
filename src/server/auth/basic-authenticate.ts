/**
 * AUTH=basic (seed §6: "basic credentials if configured"): `Authorization: Basic` checked against
 * the users table (scrypt). A successful check is remembered for a minute (keyed by a hash of the
 * header) so every API call does not pay for scrypt; failures are throttled per login.
 */
import { createHash } from 'node:crypto';
import { unauthorized } from '../http/errors';
import { LoginThrottle } from '../idp/login-throttle';
import { normaliseLogin, type UserStore } from '../idp/store';
import { credentialsOf } from './credentials';
import type { Authenticate, Principal } from './principal';

const CACHE_MS = 60_000;
const CACHE_MAX = 1_000;

export function createBasicAuthenticate(users: UserStore): Authenticate {
  const cache = new Map<string, { principal: Principal; until: number }>();
  const throttle = new LoginThrottle();
  return async (request) => {
    const credentials = credentialsOf(request);
    if (!credentials) return null;
    if (credentials.kind !== 'basic') throw unauthorized('basic credentials are required');
    const key = createHash('sha256').update(request.headers.authorization!).digest('base64url');
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.principal;
    const login = normaliseLogin(credentials.user);
    if (throttle.blocked(login)) throw unauthorized('too many failed attempts');
    const account = await users.verify(credentials.user, credentials.password);
    if (!account) {
      throttle.failed(login);
      request.server.opsMetrics?.loginFailed();
      throw unauthorized('wrong user name or password');
    }
    throttle.succeeded(login);
    const principal: Principal = { subject: account.id, email: account.email, name: account.name, via: 'basic' };
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, { principal, until: Date.now() + CACHE_MS });
    return principal;
  };
}
