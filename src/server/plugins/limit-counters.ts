/**
 * The counters behind every limit of the server: the API's request limit (plugins/rate-limit.ts),
 * the identity provider's endpoint limits (idp/endpoint-limits.ts) and the sign-in throttle
 * (idp/login-throttle.ts). Each counter is a fixed window: the first hit of a key starts it, and it
 * ends `windowMs` later, whatever came between.
 *
 * With REDIS_URL the counts live in Redis (ioredis, the client @fastify/rate-limit's own Redis store
 * is written for; one Lua script per hit, so the count and its expiry change together), shared by
 * every node behind the proxy, so N nodes allow the limit once, not N times. Without it they live in
 * this process's memory (the embedded default needs no Redis).
 *
 * Redis going away must not stop sign-in or the API: while the connection is not ready, or when a
 * command fails or takes longer than LIMIT_REDIS_COMMAND_TIMEOUT_MS, the node counts in its own
 * memory (commands are never queued while disconnected), says so once in its log and in /metrics
 * (`moj_travnik_limit_counters_shared` 0), and goes back to Redis as soon as ioredis reconnects
 * (tried again at most LIMIT_REDIS_RECONNECT_MAX_MS apart). Counts made in memory meanwhile are
 * not carried over: an outage forgives at most one window's worth per node.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { LIMIT_MEMORY_MAX_KEYS, LIMIT_REDIS_COMMAND_TIMEOUT_MS, LIMIT_REDIS_RECONNECT_MAX_MS } from '../../common/constants';

/** A key's count in its window and the milliseconds left of that window (0 = no window open). */
interface CountInWindow {
  count: number;
  ttlMs: number;
}

/** Counters of one kind (`api`, `login-account`…), kept apart from the other kinds' keys. */
export interface Counters {
  /** Counts one hit of `key`, starting a window of `windowMs` when none is open. */
  hit(key: string, windowMs: number): Promise<CountInWindow>;
  /** The count so far, without counting. */
  peek(key: string): Promise<CountInWindow>;
  forget(key: string): Promise<void>;
}

export interface RedisSettings {
  url: string;
  /** Put before every key (default `moj-travnik:`): several deployments, or test files, share one Redis. */
  keyPrefix?: string;
}

const DEFAULT_REDIS_PREFIX = 'moj-travnik:';

/** INCR with the window's expiry set by the hit that opened it (or left without one by a crash between two commands). */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const PEEK_SCRIPT = `
local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(count), ttl}
`;

type CounterRedis = Redis & {
  limitHit(key: string, windowMs: number): Promise<[number, number]>;
  limitPeek(key: string): Promise<[number, number]>;
};

/** One process's counts: what every node uses without Redis, and while Redis is away. */
class MemoryCounters implements Counters {
  private readonly windows = new Map<string, { count: number; until: number }>();

  constructor(private readonly now: () => number) {}

  private live(key: string) {
    const entry = this.windows.get(key);
    if (entry && entry.until <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return entry;
  }

  async hit(key: string, windowMs: number): Promise<CountInWindow> {
    let entry = this.live(key);
    if (!entry) {
      // Drop the oldest window first: Map keeps insertion order.
      if (this.windows.size >= LIMIT_MEMORY_MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
      entry = { count: 0, until: this.now() + windowMs };
      this.windows.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, ttlMs: entry.until - this.now() };
  }

  async peek(key: string): Promise<CountInWindow> {
    const entry = this.live(key);
    return entry ? { count: entry.count, ttlMs: entry.until - this.now() } : { count: 0, ttlMs: 0 };
  }

  async forget(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

/** Redis while it answers, this process's memory otherwise; every kind of counter made from one connection. */
export class LimitCounters {
  private readonly redis: CounterRedis | null;
  private readonly memory = new Map<string, MemoryCounters>();
  private sharedNow = false;
  /** Whether the log has said where the counts are yet: a Redis that never answered since start-up is reported too. */
  private announced = false;
  private closing = false;
  private commandsFailing = false;
  private readonly waiters: Array<{ shared: boolean; resolve: () => void }> = [];
  private readonly listeners: Array<(shared: boolean) => void> = [];

  constructor(
    settings: RedisSettings | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {
    if (!settings) {
      this.redis = null;
      return;
    }
    const redis = new Redis(settings.url, {
      keyPrefix: settings.keyPrefix ?? DEFAULT_REDIS_PREFIX,
      // Fail at once while disconnected (the node counts in memory) instead of queueing until Redis returns.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: LIMIT_REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: LIMIT_REDIS_COMMAND_TIMEOUT_MS * 4,
      // Reconnect for as long as the node runs.
      retryStrategy: (times) => Math.min(times * 100, LIMIT_REDIS_RECONNECT_MAX_MS),
    }) as CounterRedis;
    redis.defineCommand('limitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    redis.defineCommand('limitPeek', { numberOfKeys: 1, lua: PEEK_SCRIPT });
    redis.on('ready', () => this.setShared(true));
    redis.on('close', () => this.setShared(false));
    // Connection errors come again on every reconnect attempt: the state change is logged once, in setShared.
    redis.on('error', (error: Error) => {
      this.log.debug({ err: error }, 'redis connection error');
      if (redis.status !== 'ready') this.setShared(false);
    });
    this.redis = redis;
  }

  /** True while the counts are in Redis (shared by every node); false when in this process's memory. */
  get shared(): boolean {
    return this.sharedNow;
  }

  /** Whether Redis is configured at all (REDIS_URL). */
  get configured(): boolean {
    return this.redis !== null;
  }

  /** Resolves once the counters are shared (`true`) or local (`false`): for tests and start-up, which wait for a state, not for time. */
  whenShared(shared = true): Promise<void> {
    // With Redis configured, a node still connecting has not settled on either yet.
    if (this.sharedNow === shared && (this.announced || !this.redis)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ shared, resolve }));
  }

  /** Called with the new state on every change (the /metrics gauge). */
  onChange(listener: (shared: boolean) => void): void {
    this.listeners.push(listener);
  }

  private setShared(shared: boolean): void {
    if ((shared === this.sharedNow && this.announced) || this.closing) return;
    const again = this.announced;
    this.announced = true;
    this.sharedNow = shared;
    if (shared) this.log.info(`request limits and sign-in throttle: counting in Redis${again ? ' again' : ''}, shared by every node`);
    else
      this.log.warn(
        'request limits and sign-in throttle: Redis is unreachable, counting in this process until it returns (each node allows the limits on its own meanwhile)',
      );
    for (const listener of this.listeners) listener(shared);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.shared === shared) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }

  /** The counters of one kind; keys of different kinds never meet. */
  kind(name: string): Counters {
    let memory = this.memory.get(name);
    if (!memory) {
      memory = new MemoryCounters(this.now);
      this.memory.set(name, memory);
    }
    const local = memory;
    const redis = this.redis;
    if (!redis) return local;
    const keyOf = (key: string) => `${name}:${key}`;
    /** Runs `command` on Redis while it is ready; on any failure the node falls back to its memory for this call. */
    const either = async <T>(command: () => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
      if (redis.status !== 'ready') return fallback();
      try {
        const result = await command();
        this.commandsFailing = false;
        return result;
      } catch (error) {
        // Once per run of failures: a hung Redis fails every request's command, the log says it once.
        if (!this.commandsFailing)
          this.log.warn({ err: error }, 'request limits and sign-in throttle: Redis commands fail, counting in this process until they answer');
        this.commandsFailing = true;
        return fallback();
      }
    };
    return {
      hit: (key, windowMs) =>
        either(
          async () => {
            const [count, ttlMs] = await redis.limitHit(keyOf(key), windowMs);
            return { count, ttlMs };
          },
          () => local.hit(key, windowMs),
        ),
      peek: (key) =>
        either(
          async () => {
            const [count, ttlMs] = await redis.limitPeek(keyOf(key));
            return { count, ttlMs };
          },
          () => local.peek(key),
        ),
      forget: (key) =>
        either(
          async () => {
            await redis.del(keyOf(key));
            // A failure forgiven in Redis is forgiven here too (it may have been counted here during an outage).
            await local.forget(key);
          },
          () => local.forget(key),
        ),
    };
  }

  close(): void {
    if (!this.redis) return;
    this.closing = true;
    // At once, and no reconnecting afterwards: a count lost at shutdown does not matter, a close
    // waiting on an unreachable Redis would.
    this.redis.disconnect();
  }
}

/** The app's counters (buildApp makes them); an app built without buildApp, as the sign-in layer's own tests are, counts in memory. */
export function limitCountersOf(app: FastifyInstance): LimitCounters {
  if (!app.hasDecorator('limitCounters')) app.decorate('limitCounters', new LimitCounters(undefined, app.log));
  return app.limitCounters;
}
