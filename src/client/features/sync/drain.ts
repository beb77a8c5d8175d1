/**
 * One drain pass over the outbox (docs/architecture.md, "Sync"). Pure logic over lib/db and a transport, so the same
 * code runs in the app (transport = RTK Query endpoints), in tests against the real server and in
 * the bench.
 *
 * - In order: items are taken by `seq`; consecutive compatible record operations (same project,
 *   same API, insert/update/delete/archive) go into one bulk call of at most MODIFY_CHUNK_SIZE.
 *   Children of rows inserted earlier in the same call are fine (the server resolves the local
 *   ids within a call); a batch only stops before a versioned update of a row already in the
 *   batch (its version is the one the earlier operation produces).
 * - Attachments go one by one through multipart with the operation id as Idempotency-Key.
 * - Failed and conflicting items wait for the user; anything depending on them (same row, rows
 *   referring to it, its attachments) waits too; unrelated later edits still go.
 * - Network/5xx/429: stop, the caller backs off (for as long as a `Retry-After` asks). 401: one refresh and retry, else stop until sign-in.
 *   409 / other 4xx: the server rejects the whole call and names the operation (`opId`); that one
 *   becomes a conflict / failed item with the server's message and the rest is sent again — except
 *   an insert answered 409 with `duplicateOf` (the row already lives on the server, e.g. a form's
 *   indicator of that key), which becomes an update of that row and goes again. When the answer
 *   names no operation, the batch is split until the offending operation is found.
 * - An item is removed only by `acknowledge`, after the server answered for it.
 */
import { MODIFY_CHUNK_SIZE } from '../../../common/constants';
import { GENERIC_ERROR } from '../../../common/errors';
import type { AttachmentInfo, BulkOperation, BulkResult, WireRecord } from '../../../common/schemas/wire';
import { isTransientError, type ApiError } from '../../lib/api/base-query';
import { deliveryOf, followDelivery, type Ack } from '../../lib/db/identity';
import { acknowledge, insertBecameUpdate, markItems, readOutbox } from '../../lib/db/outbox';
import { isLocalId } from '../../../common/record-id';
import type { OfflineDb, OutboxError, OutboxItem } from '../../lib/db/database';

export type TransportResult<T> = { data: T } | { error: ApiError };

export interface DrainTransport {
  bulk(api: 'Records' | 'Features', projectId: number, operations: BulkOperation[]): Promise<TransportResult<BulkResult>>;
  uploadAttachment(item: OutboxItem, file: { data: ArrayBuffer; name: string; mimeType: string }): Promise<TransportResult<AttachmentInfo>>;
  deleteAttachment(item: OutboxItem): Promise<TransportResult<unknown>>;
}

export interface DrainOptions {
  db: OfflineDb;
  transport: DrainTransport;
  /** Renews the session after a 401; true = retry. */
  refreshAuth?: () => Promise<boolean>;
  /** Largest bulk call (MODIFY_CHUNK_SIZE); 1 sends one request per edit (bench baseline). */
  maxBatch?: number;
  /** Stops the pass between calls (tab hidden, store torn down). */
  signal?: AbortSignal;
}

export type DrainOutcome =
  /** Nothing sendable is left (items waiting for the user may remain). */
  | { kind: 'done'; sent: number; requests: number }
  /** Network or 5xx: try again after a back-off. */
  | { kind: 'transient'; sent: number; requests: number; error: ApiError }
  /** 401 and the session could not be renewed: hold everything until sign-in. */
  | { kind: 'auth'; sent: number; requests: number; error: ApiError }
  | { kind: 'aborted'; sent: number; requests: number };

const BULK_KINDS = new Set(['insert', 'update', 'delete', 'archive']);

function isWireRecord(value: unknown): value is WireRecord {
  const record = value as Partial<WireRecord> | null;
  return typeof record?.id === 'number' && typeof record.version === 'number' && typeof record.tableId === 'number';
}

function isAttachmentOp(item: OutboxItem): boolean {
  return item.kind === 'attachment' || item.kind === 'attachmentDelete';
}

/** Keys an item's own row is known by (blocking and same-row checks). */
function ownKeys(item: OutboxItem): string[] {
  if (isAttachmentOp(item)) return [`a:${item.id}`];
  const keys = [`r:${item.tableId}:${item.id}`];
  if (isLocalId(item.id)) keys.push(`l:${item.id}`);
  return keys;
}

/** Keys of the rows an item needs to exist (or be unblocked) first. */
function dependencyKeys(item: OutboxItem): string[] {
  const keys: string[] = [];
  if (isAttachmentOp(item)) {
    keys.push(`a:${item.id}`);
    if (item.recordId !== undefined) {
      keys.push(`r:${item.tableId}:${item.recordId}`);
      if (isLocalId(item.recordId)) keys.push(`l:${item.recordId}`);
    }
  } else {
    if (item.kind !== 'insert') keys.push(...ownKeys(item));
    for (const id of item.refIds ?? []) keys.push(`l:${id}`);
  }
  return keys;
}

function toBulkOperation(item: OutboxItem): BulkOperation {
  switch (item.kind) {
    case 'insert': {
      const op: BulkOperation = { opId: item.opId, kind: 'insert', tableId: item.tableId, properties: item.properties ?? {}, localId: item.id };
      if (item.geometry) op.geometry = item.geometry;
      return op;
    }
    case 'update': {
      const op: BulkOperation = { opId: item.opId, kind: 'update', tableId: item.tableId, id: item.id, properties: item.properties ?? {} };
      if (item.geometry !== undefined) op.geometry = item.geometry;
      if (item.version !== undefined) op.version = item.version;
      return op;
    }
    case 'delete':
    case 'archive':
      return { opId: item.opId, kind: item.kind, tableId: item.tableId, id: item.id };
    default:
      throw new Error(`not a bulk operation: ${item.kind}`);
  }
}

function failureOf(error: ApiError) {
  const result: OutboxError = { status: error.status, message: error.message };
  if (error.detail) result.detail = error.detail;
  if (error.reviewState) result.reviewState = error.reviewState;
  return result;
}

export async function drainOnce(options: DrainOptions): Promise<DrainOutcome> {
  const { db, transport, signal } = options;
  const maxBatch = Math.max(1, Math.min(options.maxBatch ?? MODIFY_CHUNK_SIZE, MODIFY_CHUNK_SIZE));
  const items = await readOutbox(db);
  const bySeq = new Map(items.map((item, index) => [item.seq!, index]));
  const blocked = new Set<string>();
  let sent = 0;
  let requests = 0;
  let refreshed = false;
  /** After a 4xx on a batch, send one by one until past the items of that batch. */
  let isolateUntilSeq = -1;

  /**
   * The acknowledgement of the last answer while it is still being written: the next bulk call
   * goes meanwhile (its items already follow that answer in memory, as the acknowledgement
   * rewrites them on the device), and is handled only after it committed. Anything else waits
   * for it first (`settle`), so the device changes in the order of the answers.
   */
  let writing: Promise<{ error?: unknown }> | null = null;
  const settle = async () => {
    if (!writing) return;
    const { error } = await writing;
    writing = null;
    if (error !== undefined) throw error;
  };
  const acknowledgeBatch = (acks: Ack[]) =>
    acknowledge(db, acks).then(
      (ack) => {
        applyUpdates(ack.updated);
        sent += acks.length;
        return {};
      },
      (error: unknown) => ({ error }),
    );

  const block = (item: OutboxItem) => ownKeys(item).forEach((key) => blocked.add(key));
  const isBlocked = (item: OutboxItem) => dependencyKeys(item).some((key) => blocked.has(key));
  const applyUpdates = (updated: OutboxItem[]) => {
    for (const item of updated) {
      const index = bySeq.get(item.seq!);
      if (index !== undefined) items[index] = item;
    }
  };

  /** Handles an error answer for `batch`; returns an outcome to stop with, or null to go on. */
  const handleError = async (batch: OutboxItem[], error: ApiError): Promise<DrainOutcome | 'retry' | 'isolate' | 'resend' | null> => {
    if (error.status === 'ABORTED') return { kind: 'aborted', sent, requests };
    if (isTransientError(error)) {
      await markItems(
        db,
        batch.map((item) => item.seq!),
        { attemptsDelta: 1 },
      );
      return { kind: 'transient', sent, requests, error };
    }
    if (error.status === 401) {
      if (!refreshed && options.refreshAuth) {
        refreshed = true;
        if (await options.refreshAuth()) return 'retry';
      }
      return { kind: 'auth', sent, requests, error };
    }
    const named = error.opId !== undefined ? batch.find((candidate) => candidate.opId === error.opId) : undefined;
    if (!named && batch.length > 1) return 'isolate';
    const item = named ?? batch[0];
    if (error.status === 409 && error.duplicateOf !== undefined && item!.kind === 'insert' && isWireRecord(error.current)) {
      // The server already holds this row (one live indicator per key on a form): the insert
      // becomes an update of it, with the user's values, and goes again.
      const converted = await insertBecameUpdate(db, item!.seq!, error.current);
      if (converted) {
        applyUpdates(converted.updated);
        return 'resend';
      }
    }
    if (error.status === 409) {
      await markItems(db, [item!.seq!], { status: 'conflict', error: failureOf(error), current: error.current, attemptsDelta: 1 });
    } else {
      await markItems(db, [item!.seq!], { status: 'failed', error: failureOf(error), attemptsDelta: 1 });
    }
    const index = bySeq.get(item!.seq!);
    if (index !== undefined) items[index] = { ...items[index]!, status: error.status === 409 ? 'conflict' : 'failed' };
    block(item!);
    return named ? 'resend' : null;
  };

  try {
    return await drainItems();
  } finally {
    // A failure elsewhere still leaves the device as the answers so far made it.
    if (writing) await writing;
  }

  async function drainItems(): Promise<DrainOutcome> {
    let index = 0;
    while (index < items.length) {
      const first = items[index]!;
      const bulkNext = first.status === 'pending' && BULK_KINDS.has(first.kind) && !isBlocked(first) && !signal?.aborted;
      if (!bulkNext) await settle();
      if (signal?.aborted) return { kind: 'aborted', sent, requests };
      if (first.status !== 'pending' || isBlocked(first)) {
        block(first);
        index++;
        continue;
      }

      if (isAttachmentOp(first)) {
        let result: TransportResult<{ id: number }>;
        if (first.kind === 'attachment') {
          const row = await db.attachments.get(first.id);
          if (!row?.data) {
            await markItems(db, [first.seq!], {
              status: 'failed',
              error: { status: 'LOCAL', message: GENERIC_ERROR, detail: 'attachment file missing on this device' },
            });
            block(first);
            index++;
            continue;
          }
          requests++;
          result = await transport.uploadAttachment(first, { data: row.data, name: row.name, mimeType: row.mimeType });
        } else {
          requests++;
          const answer = await transport.deleteAttachment(first);
          // Already gone is what a delete wants: a retried delete whose first answer was lost.
          result = 'error' in answer && answer.error.status !== 404 ? answer : { data: { id: first.id } };
        }
        if ('error' in result) {
          const next = await handleError([first], result.error);
          if (next === 'retry') continue;
          if (next && next !== 'isolate' && next !== 'resend') return next;
          index++;
          continue;
        }
        const ack = await acknowledge(db, [{ item: first, id: result.data.id }]);
        applyUpdates(ack.updated);
        sent++;
        index++;
        continue;
      }

      // Compose a batch of consecutive compatible operations.
      const limit = first.seq! <= isolateUntilSeq ? 1 : maxBatch;
      const batch: OutboxItem[] = [];
      const inBatch = new Set<string>();
      for (let j = index; j < items.length && batch.length < limit; j++) {
        const item = items[j]!;
        if (item.status !== 'pending' || !BULK_KINDS.has(item.kind) || item.api !== first.api || item.projectId !== first.projectId) break;
        if (isBlocked(item)) break;
        if (item.kind === 'update' && item.version !== undefined && ownKeys(item).some((key) => inBatch.has(key))) break;
        batch.push(item);
        ownKeys(item).forEach((key) => inBatch.add(key));
      }

      requests++;
      const result = await transport.bulk(first.api, first.projectId, batch.map(toBulkOperation));
      await settle();
      if ('error' in result) {
        const next = await handleError(batch, result.error);
        if (next === 'retry' || next === 'resend') continue;
        if (next === 'isolate') {
          isolateUntilSeq = batch[batch.length - 1]!.seq!;
          continue;
        }
        if (next) return next;
        index++;
        continue;
      }
      const byOpId = new Map(result.data.results.map((entry) => [entry.opId, entry]));
      const acks: Ack[] = [];
      for (const item of batch) {
        const entry = byOpId.get(item.opId);
        if (!entry) break; // an answer without this operation: keep it and the rest for the next pass
        const ack: Ack = { item, id: entry.id };
        if (entry.record) ack.record = entry.record;
        acks.push(ack);
      }
      writing = acknowledgeBatch(acks);
      if (acks.length < batch.length) {
        await settle();
        return { kind: 'transient', sent, requests, error: { status: 'PARSE_ERROR', message: GENERIC_ERROR, detail: 'bulk answer is missing operations' } };
      }
      index += batch.length;
      // The items still to send, as the acknowledgement being written leaves them in the queue.
      const delivery = deliveryOf(acks);
      if (delivery.recordMap.size || delivery.versionBumps.length) {
        for (let j = index; j < items.length; j++) items[j] = followDelivery(items[j]!, delivery);
      }
    }
    await settle();
    return { kind: 'done', sent, requests };
  }
}
