/**
 * Request limits of the identity provider (IDP_LIMIT_*, env.ts IdentityLimits): its authorization
 * and token endpoints, the login page and the activation links count every request, successful or
 * not, per client address and per account where the request names one. The sign-in throttle
 * (login-throttle.ts) counts wrong passwords only; this also slows a script that replays a stolen
 * refresh token, or walks the authorization endpoint, which never types a wrong password.
 *
 * Counted in the app's limit counters (plugins/limit-counters.ts): with REDIS_URL one count for
 * every node, so a script spreading its requests over N nodes is slowed as on one.
 */
import type { IdentityLimits } from '../env';
import type { LimitCounters } from '../plugins/limit-counters';

/** Who a request comes from: the client address, and the account it names when it names one. */
export interface EndpointRequest {
  address?: string;
  account?: string;
}

export interface EndpointLimiter {
  /** Counts the request; whole seconds to wait (the Retry-After) when it is over a limit, else 0. */
  count(request: EndpointRequest): Promise<number>;
}

/** Without limits (tests and benches drive many sign-ins from one address) nothing is counted. */
export function createEndpointLimiter(counters: LimitCounters, limits: IdentityLimits | undefined): EndpointLimiter {
  if (!limits || (limits.perAddress === 0 && limits.perAccount === 0)) return { count: async () => 0 };
  const addresses = counters.kind('idp-address');
  const accounts = counters.kind('idp-account');
  const over = async (kind: typeof addresses, key: string | undefined, max: number) => {
    if (key === undefined || max === 0) return 0;
    const { count, ttlMs } = await kind.hit(key, limits.windowMs);
    return count > max ? ttlMs : 0;
  };
  return {
    async count(request) {
      const waits = await Promise.all([over(addresses, request.address, limits.perAddress), over(accounts, request.account, limits.perAccount)]);
      // At least one second: a Retry-After of 0 would invite an immediate retry.
      const wait = Math.max(...waits);
      return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : 0;
    },
  };
}
