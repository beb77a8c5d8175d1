/**
 * One transaction per write request, with Idempotency-Key support (docs/architecture.md, Sync rules): the first request
 * with a key applies and its response is stored in the same transaction; a later request with the
 * same key from the same caller gets the stored response replayed (header `Idempotent-Replayed:
 * true`) and applies nothing. Reusing a key for a different request (method, URL or body differ)
 * is a 422. Rejected requests (4xx/5xx) store nothing, so a corrected retry may reuse the key.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Transaction } from '../db/dialect';
import { invalid } from '../domain-errors';
import { HttpError } from './errors';

const IDEMPOTENCY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';
/**
 * Stored responses are kept this long (a phone may stay offline for weeks before it retries).
 * Applied bulk opIds are small and kept for good: they are what guarantees exactly-once sync.
 */
const IDEMPOTENCY_TTL_MS = 90 * 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,200}$/;

function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !KEY_PATTERN.test(key)) throw invalid('Idempotency-Key header: 1 to 200 characters of A-Z a-z 0-9 . _ : -');
  return key;
}

/** Method, path and body: what makes two requests "the same request". */
function fingerprintOf(request: FastifyRequest, bodyOverride?: string): string {
  const body = bodyOverride ?? (request.body === undefined ? '' : JSON.stringify(request.body));
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

export interface WriteResult<T> {
  status: number;
  body: T;
}

/**
 * Runs `apply` in a transaction, honouring the Idempotency-Key header, and sends the result.
 * `caller` identifies whose keys these are (Access.caller).
 */
export async function runWrite<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: string,
  apply: (trx: Transaction) => Promise<WriteResult<T>>,
  options: {
    fingerprint?: string;
    /**
     * Bulk calls: a key reused for a recomposed batch is not an error — the per-operation opId
     * dedup already guarantees each operation applies once — so the batch is applied and its
     * answer replaces the stored one.
     */
    recomposable?: boolean;
  } = {},
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  const fingerprint = key ? (options.fingerprint ?? fingerprintOf(request)) : '';
  const outcome = await db.transaction().execute(async (trx) => {
    if (key) {
      // Several API nodes (docs/deploy.md): the lost-response retry may reach another node while the first
      // attempt still runs; the lock makes it wait and then find the stored answer.
      await request.server.dialect.lockWrites(trx, caller);
      const stored = await trx.selectFrom('idempotency_keys').selectAll().where('caller', '=', caller).where('key', '=', key).executeTakeFirst();
      if (stored && stored.fingerprint === fingerprint) {
        return { replayed: true, status: stored.status, body: JSON.parse(stored.response) as unknown };
      }
      if (stored && !options.recomposable) {
        throw new HttpError(422, 'Idempotency-Key was already used for a different request');
      }
      if (stored) await trx.deleteFrom('idempotency_keys').where('caller', '=', caller).where('key', '=', key).execute();
    }
    const result = await apply(trx);
    if (key) {
      await trx
        .insertInto('idempotency_keys')
        .values({ caller, key, fingerprint, status: result.status, response: JSON.stringify(result.body), created_at: new Date().toISOString() })
        .execute();
    }
    return { replayed: false, status: result.status, body: result.body as unknown };
  });
  if (outcome.replayed) reply.header(REPLAYED_HEADER, 'true');
  return reply.status(outcome.status).send(outcome.body);
}

/** Drops stored responses older than the TTL (called at start-up). */
export async function purgeIdempotencyKeys(db: Db, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - IDEMPOTENCY_TTL_MS).toISOString();
  await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).execute();
}
