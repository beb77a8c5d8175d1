/**
 * One drain pass over the outbox (docs/architecture.md, "Sync"). Pure logic over lib/db and a transport, so the same
 * code runs in the app (transport = RTK Query endpoints), in tests against the real server and in
 * the bench.
 *
 * - In order: items are taken by `seq`; consecutive compatible record operations (same project,
 *   same API, insert/update/delete/archive) go into one bulk call of at most MODIFY_CHUNK_SIZE
 *   (drain-queue.ts). The queue is read a page at a time, the next page while calls go.
 * - Attachments go one by one through multipart with the operation id as Idempotency-Key.
 * - Failed and conflicting items wait for the user; anything depending on them (same row, rows
 *   referring to it, its attachments) waits too; unrelated later edits still go (drain-queue.ts).
 * - Errors (drain-errors.ts): network/5xx/429 stop the pass, the caller backs off; 401 renews the
 *   session once; a refused operation is set aside and the rest goes again.
 * - An item is removed only by `acknowledge`, after the server answered for it (drain-acks.ts).
 */
import { MODIFY_CHUNK_SIZE } from '../../../common/constants';
import { GENERIC_ERROR } from '../../../common/errors';
import { acknowledge, markItems, readOutboxPage } from '../../lib/db/outbox';
import type { OutboxItem } from '../../lib/db/database';
import { acksOf, AckWriter } from './drain-acks';
import { handleError } from './drain-errors';
import { outcome, type DrainOptions, type DrainOutcome, type DrainPass, type TransportResult } from './drain-pass';
import { isAttachmentOp } from '../../lib/db/identity';
import { isBulkOp, PassQueue, toBulkOperation } from './drain-queue';

/** Fewest queued items read at a time (a page is two bulk calls' worth). */
const OUTBOX_PAGE_MIN = 100;

/** How far a step moves the pass on (0: the same item again), or the outcome it ends with. */
type Step = number | DrainOutcome;

/** Uploads or deletes one attachment. */
async function sendAttachment(pass: DrainPass, first: OutboxItem): Promise<Step> {
  const { db, transport, queue, counts } = pass;
  let result: TransportResult<{ id: number }>;
  if (first.kind === 'attachment') {
    const row = await db.attachments.get(first.id);
    if (!row?.data) {
      await markItems(db, [first.seq!], {
        status: 'failed',
        error: { status: 'LOCAL', message: GENERIC_ERROR, detail: 'attachment file missing on this device' },
      });
      queue.block(first);
      return 1;
    }
    counts.requests++;
    result = await transport.uploadAttachment(first, { data: row.data, name: row.name, mimeType: row.mimeType });
  } else {
    counts.requests++;
    const answer = await transport.deleteAttachment(first);
    // Already gone is what a delete wants: a retried delete whose first answer was lost.
    result = 'error' in answer && answer.error.status !== 404 ? answer : { data: { id: first.id } };
  }
  if ('error' in result) {
    const next = await handleError(pass, [first], result.error);
    if (next === 'retry') return 0;
    if (next && next !== 'isolate' && next !== 'resend') return next;
    return 1;
  }
  const ack = await acknowledge(db, [{ item: first, id: result.data.id }]);
  queue.applyUpdates(ack.updated);
  counts.sent++;
  return 1;
}

/** Sends the batch of record operations from `index` on; its acknowledgement is left being written. */
async function sendBatch(pass: DrainPass, index: number): Promise<Step> {
  const { queue, acks } = pass;
  const first = queue.items[index]!;
  const batch = queue.batchFrom(index, first.seq! <= pass.isolateUntilSeq ? 1 : pass.maxBatch);
  pass.counts.requests++;
  const result = await pass.transport.bulk(first.api, first.projectId, batch.map(toBulkOperation));
  await acks.settle();
  if ('error' in result) {
    const next = await handleError(pass, batch, result.error);
    if (next === 'retry' || next === 'resend') return 0;
    if (next === 'isolate') {
      pass.isolateUntilSeq = batch[batch.length - 1]!.seq!;
      return 0;
    }
    return next ?? 1;
  }
  const answered = acksOf(batch, result.data);
  acks.start(answered);
  if (answered.length < batch.length) {
    await acks.settle();
    return outcome(pass, 'transient', { status: 'PARSE_ERROR', message: GENERIC_ERROR, detail: 'bulk answer is missing operations' });
  }
  // The items still to send, as the acknowledgement being written leaves them in the queue.
  queue.follow(index + batch.length, answered);
  return batch.length;
}

async function drainItems(pass: DrainPass): Promise<DrainOutcome> {
  const { queue, acks } = pass;
  const { signal } = pass.options;
  let index = 0;
  while (await queue.has(index, pass.maxBatch)) {
    const first = queue.items[index]!;
    const bulkNext = first.status === 'pending' && isBulkOp(first) && !queue.isBlocked(first) && !signal?.aborted;
    if (!bulkNext) await acks.settle();
    if (signal?.aborted) return outcome(pass, 'aborted');
    if (first.status !== 'pending' || queue.isBlocked(first)) {
      queue.block(first);
      index++;
      continue;
    }
    const step = isAttachmentOp(first) ? await sendAttachment(pass, first) : await sendBatch(pass, index);
    if (typeof step !== 'number') return step;
    index += step;
  }
  await acks.settle();
  return outcome(pass, 'done');
}

export async function drainOnce(options: DrainOptions): Promise<DrainOutcome> {
  const { db, transport } = options;
  const maxBatch = Math.max(1, Math.min(options.maxBatch ?? MODIFY_CHUNK_SIZE, MODIFY_CHUNK_SIZE));
  const queue = new PassQueue((afterSeq, limit) => readOutboxPage(db, afterSeq, limit), Math.max(OUTBOX_PAGE_MIN, 2 * maxBatch));
  const counts = { sent: 0, requests: 0 };
  const acks = new AckWriter(db, (updated, count) => {
    queue.applyUpdates(updated);
    counts.sent += count;
  });
  const pass: DrainPass = { db, transport, options, maxBatch, queue, counts, refreshed: false, isolateUntilSeq: -1, acks };
  try {
    return await drainItems(pass);
  } finally {
    // A failure elsewhere still leaves the device as the answers so far made it.
    await acks.finish();
  }
}
