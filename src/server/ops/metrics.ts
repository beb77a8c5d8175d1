/**
 * `/metrics` in Prometheus text format (prom-client), one registry per app. Counted as requests
 * finish: requests and latency per route family, 409 conflicts, 401/403 refusals, bulk operations
 * applied and deduplicated (read from the bulk answer before it is serialised), failed sign-ins
 * (the sign-in routes call `opsMetrics.loginFailed`). Read at scrape time: attachment count and
 * stored bytes from the database, and the database connections (PostgreSQL: the pool's open, busy
 * and waiting clients; SQLite: its one connection, busy while a transaction is open).
 *
 * Not public: readable with `Authorization: Bearer <METRICS_TOKEN>` or from an address in
 * METRICS_ALLOW; otherwise 401 when a token is configured (404 when only an allowlist is), and
 * 404 when neither is set.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MetricsSettings } from '../env';
import { notFound, unauthenticated } from '../domain-errors';
import { routeFamily } from './request-labels';

interface OpsMetrics {
  /** A sign-in refused for a wrong login or password. */
  loginFailed(): void;
  /** A bulk call's operations once it committed: applied by it, or deduplicated. */
  bulkAnswered(results: ReadonlyArray<{ status: string }>): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counters other modules feed (set by the ops registration; absent in apps built without it). */
    opsMetrics?: OpsMetrics;
  }
}

interface PoolStats {
  total: number;
  idle: number;
  waiting?: number;
}

const PREFIX = 'moj_travnik_';

function allowList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function registerMetrics(app: FastifyInstance, settings: MetricsSettings): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });

  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests by route family, method and status',
    labelNames: ['family', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP request latency by route family',
    labelNames: ['family', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const conflicts = new Counter({
    name: `${PREFIX}conflicts_total`,
    help: '409 answers (stale version, idempotency key reuse) by route family',
    labelNames: ['family'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: `${PREFIX}auth_refusals_total`,
    help: '401 and 403 answers by route family',
    labelNames: ['family', 'status'] as const,
    registers: [registry],
  });
  const bulk = new Counter({
    name: `${PREFIX}bulk_operations_total`,
    help: 'Bulk operations: applied by the call, or deduplicated (applied before under the same opId)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const loginFailures = new Counter({ name: `${PREFIX}login_failures_total`, help: 'Sign-ins refused for a wrong login or password', registers: [registry] });
  // Known label values start at zero, so rates work from the first scrape.
  bulk.inc({ result: 'applied' }, 0);
  bulk.inc({ result: 'deduplicated' }, 0);

  new Gauge({
    name: `${PREFIX}attachments_stored`,
    help: 'Live attachments (not deleted)',
    registers: [registry],
    async collect() {
      const row = await app.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow();
      this.set(Number(row.n));
    },
  });
  new Gauge({
    name: `${PREFIX}attachment_bytes_stored`,
    help: 'Bytes of live attachments (originals)',
    registers: [registry],
    async collect() {
      const row = await app.db
        .selectFrom('attachments')
        .select((eb) => eb.fn.sum<number>('size').as('bytes'))
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow();
      this.set(Number(row.bytes ?? 0));
    },
  });
  new Gauge({
    name: `${PREFIX}db_connections`,
    help: 'Database connections: open, busy (in use) and waiting (requests queued for one; PostgreSQL)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = (app.dialect as unknown as { poolStats?: PoolStats }).poolStats;
      if (!stats) return;
      this.set({ state: 'open' }, stats.total);
      this.set({ state: 'busy' }, stats.total - stats.idle);
      if (stats.waiting !== undefined) this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  new Gauge({
    name: `${PREFIX}limit_counters_shared`,
    help: 'Request limits and sign-in throttle: 1 while counted in Redis (shared by every node), 0 while in this process (no REDIS_URL, or Redis unreachable)',
    registers: [registry],
    collect() {
      this.set(app.limitCounters?.shared ? 1 : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}limit_counters_redis_configured`,
    help: 'Whether REDIS_URL is set: with limit_counters_shared 0, Redis is unreachable and each node counts on its own',
    registers: [registry],
    collect() {
      this.set(app.limitCounters?.configured ? 1 : 0);
    },
  });

  app.decorate('opsMetrics', {
    loginFailed: () => loginFailures.inc(),
    bulkAnswered: (results) => {
      let duplicates = 0;
      for (const result of results) if (result.status === 'duplicate') duplicates += 1;
      bulk.inc({ result: 'applied' }, results.length - duplicates);
      bulk.inc({ result: 'deduplicated' }, duplicates);
    },
  } satisfies OpsMetrics);

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const family = routeFamily(request);
    const status = reply.statusCode;
    requests.inc({ family, method: request.method, status: String(status) });
    latency.observe({ family, method: request.method }, reply.elapsedTime / 1000);
    if (status === 409) conflicts.inc({ family });
    if (status === 401 || status === 403) refusals.inc({ family, status: String(status) });
  });

  const allowed = settings.allow.length > 0 ? allowList(settings.allow) : null;
  const token = settings.token ? digest(settings.token) : null;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const tokenOk = token !== null && bearer !== undefined && timingSafeEqual(digest(bearer), token);
    const address = request.socket.remoteAddress ?? '';
    const addressOk = allowed !== null && allowed.check(address.replace(/^::ffff:/, ''), isIP(address.replace(/^::ffff:/, '')) === 6 ? 'ipv6' : 'ipv4');
    if (!tokenOk && !addressOk) {
      if (token) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthenticated('metrics need a bearer token');
      }
      throw notFound('not found');
    }
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
}
