/**
 * Request limits of the API (@fastify/rate-limit): `max` calls per `windowMs` for each signed-in
 * user (the token's subject), or for each client address when a call has no user (the API
 * documentation). Registered after the access hooks, so the caller is known when counting; a call
 * over the limit gets 429 with Retry-After and the catalogue's error body with a Slovenian detail
 * — the client's outbox waits that long and goes on. The reachability probe (/api/Test, polled by
 * every open app and by load balancers) is never counted.
 *
 * The counts are the app's limit counters (plugins/limit-counters.ts): in Redis with REDIS_URL,
 * shared by every node behind the proxy, else (or while Redis is away) in this process's memory.
 * The sign-in throttle is separate (idp/login-throttle.ts): it counts wrong passwords only.
 */
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimits } from '../env';
import '../http/fastify-types';
import { tooManyRequests } from '../http/errors';

const UNCOUNTED = new Set(['/api/Test']);

function isCounted(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  return path.startsWith('/api/') && !UNCOUNTED.has(path);
}

/** Nothing happens without limits (tests and benches drive thousands of calls as one user); server.ts always passes them. */
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits | undefined): Promise<void> {
  if (!limits || limits.max === 0) return;
  const counters = app.limitCounters.kind('api');
  /**
   * The plugin's store interface over the shared counters (one store: every limit here is the same
   * one). Not the plugin's own RedisStore: that one fails the request, or with skipOnError stops
   * limiting altogether, while Redis is away; these counters fall back to the process's memory.
   */
  class SharedStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.hit(key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  await app.register(rateLimit, {
    global: false,
    store: SharedStore,
    max: limits.max,
    timeWindow: limits.windowMs,
    keyGenerator: (request) => (request.principal ? `user:${request.principal.subject}` : `address:${request.ip}`),
    errorResponseBuilder: (_request, context) => tooManyRequests(Math.ceil(context.ttl / 1000)),
  });
  const limit = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (isCounted(request)) await limit.call(app, request, reply);
  });
}
