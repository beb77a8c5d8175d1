/**
 * What a drain pass does with an error answer (drain.ts):
 *
 * - Network/5xx/429: stop, the caller backs off (for as long as a `Retry-After` asks).
 * - 401: one refresh and retry, else stop until sign-in.
 * - 409 / other 4xx: the server rejects the whole call and names the operation (`opId`); that one
 *   becomes a conflict / failed item with the server's message and the rest is sent again — except
 *   an insert answered 409 with `duplicateOf` (the row already lives on the server, e.g. a form's
 *   indicator of that key), which becomes an update of that row and goes again. When the answer
 *   names no operation, the batch is split until the offending operation is found.
 */
import type { WireRecord } from '../../../common/schemas/wire';
import { isTransientError, type ApiError } from '../../lib/api/base-query';
import type { OutboxError, OutboxItem } from '../../lib/db/database';
import { insertBecameUpdate, markItems } from '../../lib/db/outbox';
import { outcome, type DrainOutcome, type DrainPass } from './drain-pass';

/**
 * What comes after an error answer: an outcome to stop with; 'retry' (the session was renewed:
 * the same again); 'isolate' (send the batch one by one); 'resend' (the named operation was set
 * aside or converted: the rest goes again); null (the item was set aside: go on past it).
 */
export type AfterError = DrainOutcome | 'retry' | 'isolate' | 'resend' | null;

function isWireRecord(value: unknown): value is WireRecord {
  const record = value as Partial<WireRecord> | null;
  return typeof record?.id === 'number' && typeof record.version === 'number' && typeof record.tableId === 'number';
}

function failureOf(error: ApiError) {
  const result: OutboxError = { status: error.status, message: error.message };
  if (error.detail) result.detail = error.detail;
  if (error.reviewState) result.reviewState = error.reviewState;
  return result;
}

/** A refusal of one operation: it becomes a conflict or failed item, or (an insert of a row the server holds) an update that goes again. */
async function setAside(pass: DrainPass, item: OutboxItem, named: boolean, error: ApiError): Promise<AfterError> {
  const { db, queue } = pass;
  if (error.status === 409 && error.duplicateOf !== undefined && item.kind === 'insert' && isWireRecord(error.current)) {
    // The server already holds this row (one live indicator per key on a form): the insert
    // becomes an update of it, with the user's values, and goes again.
    const converted = await insertBecameUpdate(db, item.seq!, error.current);
    if (converted) {
      queue.applyUpdates(converted.updated);
      return 'resend';
    }
  }
  if (error.status === 409) {
    await markItems(db, [item.seq!], { status: 'conflict', error: failureOf(error), current: error.current, attemptsDelta: 1 });
  } else {
    await markItems(db, [item.seq!], { status: 'failed', error: failureOf(error), attemptsDelta: 1 });
  }
  queue.setStatus(item, error.status === 409 ? 'conflict' : 'failed');
  queue.block(item);
  return named ? 'resend' : null;
}

/** Handles an error answer for `batch`; returns an outcome to stop with, or what to do next. */
export async function handleError(pass: DrainPass, batch: OutboxItem[], error: ApiError): Promise<AfterError> {
  if (error.status === 'ABORTED') return outcome(pass, 'aborted');
  if (isTransientError(error)) {
    await markItems(
      pass.db,
      batch.map((item) => item.seq!),
      { attemptsDelta: 1 },
    );
    return outcome(pass, 'transient', error);
  }
  if (error.status === 401) {
    if (!pass.refreshed && pass.options.refreshAuth) {
      pass.refreshed = true;
      if (await pass.options.refreshAuth()) return 'retry';
    }
    return outcome(pass, 'auth', error);
  }
  const named = error.opId !== undefined ? batch.find((candidate) => candidate.opId === error.opId) : undefined;
  if (!named && batch.length > 1) return 'isolate';
  return setAside(pass, (named ?? batch[0])!, named !== undefined, error);
}
