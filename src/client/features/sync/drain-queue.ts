/**
 * The outbox as one drain pass goes through it (drain.ts): which items wait (failed and
 * conflicting items, and anything depending on them: the same row, rows referring to it, its
 * attachments; unrelated later edits still go), which consecutive record operations go together
 * in one bulk call, and the items still to send following what was acknowledged.
 */
import type { BulkOperation } from '../../../common/schemas/wire';
import { isLocalId } from '../../../common/record-id';
import type { OutboxItem } from '../../lib/db/database';
import { deliveryOf, followDelivery, type Ack } from '../../lib/db/identity';

const BULK_KINDS = new Set(['insert', 'update', 'delete', 'archive']);

export function isBulkOp(item: OutboxItem): boolean {
  return BULK_KINDS.has(item.kind);
}

export function isAttachmentOp(item: OutboxItem): boolean {
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

export function toBulkOperation(item: OutboxItem): BulkOperation {
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

/** The pass's copy of the outbox, in `seq` order, and the rows that wait. */
export class PassQueue {
  private readonly bySeq: Map<number, number>;
  private readonly blocked = new Set<string>();

  constructor(readonly items: OutboxItem[]) {
    this.bySeq = new Map(items.map((item, index) => [item.seq!, index]));
  }

  /** The item waits for the user: so does anything depending on its row. */
  block(item: OutboxItem): void {
    ownKeys(item).forEach((key) => this.blocked.add(key));
  }

  isBlocked(item: OutboxItem): boolean {
    return dependencyKeys(item).some((key) => this.blocked.has(key));
  }

  /** Items as the device now holds them (rewritten by an acknowledgement or a conversion). */
  applyUpdates(updated: OutboxItem[]): void {
    for (const item of updated) {
      const index = this.bySeq.get(item.seq!);
      if (index !== undefined) this.items[index] = item;
    }
  }

  /** The item now waits for the user with this status. */
  setStatus(item: OutboxItem, status: 'conflict' | 'failed'): void {
    const index = this.bySeq.get(item.seq!);
    if (index !== undefined) this.items[index] = { ...this.items[index]!, status };
  }

  /**
   * Consecutive compatible operations from `index` on (same project, same API, pending, not
   * waiting), at most `limit`. Children of rows inserted earlier in the same call are fine (the
   * server resolves the local ids within a call); a batch only stops before a versioned update of
   * a row already in it (its version is the one the earlier operation produces).
   */
  batchFrom(index: number, limit: number): OutboxItem[] {
    const first = this.items[index]!;
    const batch: OutboxItem[] = [];
    const inBatch = new Set<string>();
    for (let j = index; j < this.items.length && batch.length < limit; j++) {
      const item = this.items[j]!;
      if (item.status !== 'pending' || !isBulkOp(item) || item.api !== first.api || item.projectId !== first.projectId) break;
      if (this.isBlocked(item)) break;
      if (item.kind === 'update' && item.version !== undefined && ownKeys(item).some((key) => inBatch.has(key))) break;
      batch.push(item);
      ownKeys(item).forEach((key) => inBatch.add(key));
    }
    return batch;
  }

  /** The items from `index` on, as the acknowledgement of `acks` being written leaves them in the queue. */
  follow(index: number, acks: Ack[]): void {
    const delivery = deliveryOf(acks);
    if (delivery.recordMap.size || delivery.versionBumps.length) {
      for (let j = index; j < this.items.length; j++) this.items[j] = followDelivery(this.items[j]!, delivery);
    }
  }
}
