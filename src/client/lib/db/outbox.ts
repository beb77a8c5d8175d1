/**
 * The outbox: edits made on this device, in the order they were made, until the server has
 * acknowledged each one (docs/architecture.md, "Sync"). One file per job:
 *
 * - outbox-save.ts: `saveEdits` — a save's rows and queued operations in one transaction.
 * - outbox-acknowledge.ts: `acknowledge` — the server confirmed items: they leave the queue and
 *   offline ids become server ids everywhere, in one transaction (identity.ts owns the mapping).
 * - outbox-resolve.ts: failed and conflicting items (`markItems`, `retryItem`, `discardItem`,
 *   `keepMine`, `takeTheirs`).
 * - outbox-notify.ts: change notifications to this tab and other tabs.
 *
 * Guarantee: an item leaves the outbox only when the server acknowledged it or the user removed
 * it; failures change its status, never delete it.
 */
import type { OfflineDb, OutboxItem } from './database';

export * from './outbox-notify';
export * from './outbox-save';
export * from './outbox-acknowledge';
export * from './outbox-resolve';

/** All queued items in the order they were made. */
export function readOutbox(db: OfflineDb): Promise<OutboxItem[]> {
  return db.outbox.orderBy('seq').toArray();
}

/**
 * Up to `limit` queued items after the one numbered `afterSeq` (from the first when undefined), in
 * the order they were made: a drain pass reads the queue a page at a time, the next page while it
 * sends the last.
 */
export function readOutboxPage(db: OfflineDb, afterSeq: number | undefined, limit: number): Promise<OutboxItem[]> {
  const items = afterSeq === undefined ? db.outbox.orderBy('seq') : db.outbox.where(':id').above(afterSeq);
  return items.limit(limit).toArray();
}

export interface OutboxSummary {
  pending: number;
  /** Items waiting for the user: failed (4xx) and conflicts (409). */
  attention: OutboxItem[];
}

export async function summarizeOutbox(db: OfflineDb): Promise<OutboxSummary> {
  const [pending, attention] = await Promise.all([
    db.outbox.where('status').equals('pending').count(),
    db.outbox.where('status').anyOf('failed', 'conflict').sortBy('seq'),
  ]);
  return { pending, attention };
}
