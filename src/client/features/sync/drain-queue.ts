/**
 * The outbox as one drain pass goes through it (drain.ts): which items wait (failed and
 * conflicting items, and anything depending on them: the same row, rows referring to it, its
 * attachments; unrelated later edits still go), which consecutive record operations go together
 * in one bulk call, and the items still to send following what was acknowledged.
 */
import type { BulkOperation } from '../../../common/schemas/wire';
import { isLocalId } from '../../../common/record-id';
import type { OutboxItem } from '../../lib/db/database';
import { deliveryOf, followDelivery, isAttachmentOp, type Ack, type Delivery } from '../../lib/db/identity';

const BULK_KINDS = new Set(['insert', 'update', 'delete', 'archive']);

export function isBulkOp(item: OutboxItem): boolean {
  return BULK_KINDS.has(item.kind);
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

/** Reads up to `limit` queued items after the one numbered `afterSeq` (from the first when undefined), in `seq` order. */
export type ReadPage = (afterSeq: number | undefined, limit: number) => PromiseLike<OutboxItem[]>;

/** What the pass's answers delivered so far: items read later follow it too. */
interface Delivered {
  recordMap: Map<number, number>;
  attachmentMap: Map<number, number>;
  /** Version bumps by row (`tableId:id`, its server id), in the order of the answers. */
  bumps: Map<string, Delivery['versionBumps']>;
}

/**
 * The pass's copy of the outbox, in `seq` order, and the rows that wait. The outbox is read a page
 * at a time (`has`): the first page before the first call, each next one while calls go, so a
 * long queue is not read whole before anything is sent. A page may have been read before or after
 * an acknowledgement of this pass rewrote its items on the device: it is brought up to what the
 * answers so far delivered (`followDelivery` changes an item that already follows nothing), and
 * items rewritten on the device before they were read take their rewritten form.
 */
export class PassQueue {
  readonly items: OutboxItem[] = [];
  private readonly bySeq = new Map<number, number>();
  private readonly blocked = new Set<string>();
  private readonly delivered: Delivered = { recordMap: new Map(), attachmentMap: new Map(), bumps: new Map() };
  /** Items not read yet that the device rewrote meanwhile (an acknowledgement, a conversion), as rewritten, by seq. */
  private readonly rewritten = new Map<number, OutboxItem>();
  /** The last item read (undefined: none yet). */
  private lastSeq: number | undefined;
  private exhausted = false;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly readPage: ReadPage,
    /** Items per page read (at least 1). */
    private readonly pageSize: number,
  ) {}

  /**
   * Whether there is an item at `index`. Reads on until `ahead` items from it are in memory (or the
   * outbox has no more), and starts reading the next page when less than a page is left past them.
   * Items queued after the outbox's end was reached go in the next pass.
   */
  async has(index: number, ahead: number): Promise<boolean> {
    while (!this.exhausted && this.items.length < index + ahead) await this.read();
    if (!this.exhausted && this.items.length < index + ahead + this.pageSize) {
      // Read ahead; a failure is thrown when the pass needs the page.
      this.read().then(undefined, () => undefined);
    }
    return index < this.items.length;
  }

  private read(): Promise<void> {
    this.reading ??= Promise.resolve(this.readPage(this.lastSeq, this.pageSize)).then(
      (page) => {
        this.reading = null;
        if (page.length < this.pageSize) this.exhausted = true;
        for (const item of page) this.append(item);
      },
      (error: unknown) => {
        this.reading = null;
        throw error;
      },
    );
    return this.reading;
  }

  private append(stored: OutboxItem): void {
    const seq = stored.seq!;
    if (this.lastSeq !== undefined && seq <= this.lastSeq) return;
    this.lastSeq = seq;
    const item = this.rewritten.get(seq) ?? stored;
    this.rewritten.delete(seq);
    const { recordMap, attachmentMap, bumps } = this.delivered;
    const rowId = item.kind === 'insert' || isAttachmentOp(item) ? item.id : (recordMap.get(item.id) ?? item.id);
    const delivery: Delivery = { recordMap, attachmentMap, mappings: [], versionBumps: bumps.get(`${item.tableId}:${rowId}`) ?? [] };
    this.bySeq.set(seq, this.items.length);
    this.items.push(followDelivery(item, delivery));
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
      else if (this.lastSeq === undefined || item.seq! > this.lastSeq) this.rewritten.set(item.seq!, item);
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
    const { recordMap, attachmentMap, bumps } = this.delivered;
    for (const [localId, id] of delivery.recordMap) recordMap.set(localId, id);
    for (const [localId, id] of delivery.attachmentMap) attachmentMap.set(localId, id);
    for (const bump of delivery.versionBumps) {
      const key = `${bump.tableId}:${bump.id}`;
      bumps.set(key, [...(bumps.get(key) ?? []), bump]);
    }
    if (delivery.recordMap.size || delivery.versionBumps.length) {
      for (let j = index; j < this.items.length; j++) this.items[j] = followDelivery(this.items[j]!, delivery);
    }
  }
}
