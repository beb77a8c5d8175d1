/**
 * AUTH=basic (basic credentials when configured; docs/architecture.md, Roles): `Authorization: Basic` checked against
 * the users table (scrypt). A successful check is remembered for a minute (keyed by a hash of the
 * header) so every API call does not pay for scrypt; failures are throttled per login and per
 * address (429 with Retry-After, like the login page).
 */
import { createHash } from 'node:crypto';
import type { LoginLimits } from '../env';
import type { LimitCounters } from '../plugins/limit-counters';
import { tooManyRequests } from '../http/errors';
import { unauthenticated } from '../domain-errors';
import { LoginThrottle } from '../idp/login-throttle';
import { normaliseLogin, type UserStore } from '../idp/store';
import { credentialsOf } from './credentials';
import type { Authenticate, Principal } from './principal';

const CACHE_MS = 60_000;
const CACHE_MAX = 1_000;

export function createBasicAuthenticate(users: UserStore, counters: LimitCounters, loginLimits?: Partial<LoginLimits>): Authenticate {
  const cache = new Map<string, { principal: Principal; until: number }>();
  const throttle = new LoginThrottle(counters, 'login', loginLimits);
  return async (request) => {
    const credentials = credentialsOf(request);
    if (!credentials) return null;
    if (credentials.kind !== 'basic') throw unauthenticated('basic credentials are required');
    const key = createHash('sha256').update(request.headers.authorization!).digest('base64url');
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.principal;
    const attempt = { account: normaliseLogin(credentials.user), address: request.ip };
    const wait = await throttle.retryAfter(attempt);
    if (wait > 0) throw tooManyRequests(wait);
    const account = await users.verify(credentials.user, credentials.password);
    if (!account) {
      await throttle.failed(attempt);
      request.server.opsMetrics?.loginFailed();
      throw unauthenticated('wrong user name or password');
    }
    await throttle.succeeded(attempt);
    const principal: Principal = { subject: account.id, email: account.email, name: account.name, via: 'basic' };
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, { principal, until: Date.now() + CACHE_MS });
    return principal;
  };
}
