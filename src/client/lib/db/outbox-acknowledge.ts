/**
 * The acknowledgement: the server confirmed a batch of queued items (one bulk answer of up to
 * MODIFY_CHUNK_SIZE operations, or one attachment upload). In ONE transaction:
 *
 * 1. `settleRows`: acknowledged rows take the server's version; inserted rows move to their server
 *    ids, and every reference column of an acknowledged row that names an offline id delivered in
 *    the same answer is rewritten (its queued item is gone after this call, so now or never).
 * 2. `settleAttachments`: uploaded files move to their server ids; deleted ones go.
 * 3. `removeItems`: the acknowledged items leave the queue (a run of consecutive items by one
 *    key-range delete); the new mappings are stored, one meta row per acknowledgement (identity.ts).
 * 4. `remapQueue`: queued items still naming a delivered offline id (as their row, their parent or
 *    their file's record), their device rows, and attachments of renamed rows follow.
 * 5. `followVersions`: later queued updates of a row move on to the version just acknowledged.
 * 6. `clearSettledFlags`: rows with nothing left in the queue lose their isInsert/isEdit flags.
 *
 * Every phase reads and writes with one bulk request per store (never a request per row): a bulk
 * answer covers hundreds of rows, and IndexedDB's cost is per request. Rows written by an earlier
 * phase are handed on in memory (`written`) instead of being read again.
 */
import type { WireRecord } from '../../../common/schemas/wire';
import { guardWrite, type AttachmentRow, type FeatureRow, type OfflineDb, type OutboxItem, type StoredRecord } from './database';
import { localRefIds, remapRefs, storeMappings, type IdMapping } from './identity';
import { toStoredRecord } from './local-data';
import { notifyOutboxChanged } from './outbox-notify';

/** The server's acknowledgement of one item. */
export interface Ack {
  item: OutboxItem;
  /** Server id of the row (for inserts: the new id) or of the attachment. */
  id: number;
  record?: WireRecord;
}

export interface AckResult {
  mappings: IdMapping[];
  /** Queued items that were rewritten (remapped ids, propagated versions), as stored now. */
  updated: OutboxItem[];
}

type RowKey = [number, number];
const keyOf = (tableId: number, id: number) => `${tableId}:${id}`;

/**
 * What an answer tells about the queue, before anything is written: offline ids that became
 * server ids, and server versions acknowledged updates moved rows to. Pure (`deliveryOf`), so the
 * drain can follow it in memory while the acknowledgement is still being written.
 */
export interface Delivery {
  recordMap: Map<number, number>;
  attachmentMap: Map<number, number>;
  mappings: IdMapping[];
  versionBumps: Array<{ tableId: number; id: number; from: number | undefined; to: number }>;
}

/** What one acknowledgement learnt and did, handed from phase to phase. */
interface AckState extends Delivery {
  /** Device rows as this transaction left them (read again only when not written here). */
  written: Map<string, FeatureRow>;
  /** Rows whose queued items were acknowledged: their flags clear when nothing else is queued. */
  touched: Map<string, RowKey>;
  /** Queued items rewritten by a phase, by seq. */
  updated: Map<number, OutboxItem>;
}

const isAttachmentOp = (item: OutboxItem) => item.kind === 'attachment' || item.kind === 'attachmentDelete';

/** The ids and versions an answer delivers (see Delivery). */
export function deliveryOf(acks: readonly Ack[]): Delivery {
  const delivery: Delivery = { recordMap: new Map(), attachmentMap: new Map(), mappings: [], versionBumps: [] };
  for (const { item, id, record } of acks) {
    if (item.kind === 'insert' && item.id !== id) {
      delivery.recordMap.set(item.id, id);
      delivery.mappings.push({ tableId: item.tableId, localId: item.id, id, of: 'record' });
    } else if (item.kind === 'attachment' && item.id !== id) {
      delivery.attachmentMap.set(item.id, id);
      delivery.mappings.push({ tableId: item.tableId, localId: item.id, id, of: 'attachment' });
    } else if (item.kind === 'update' && record) {
      delivery.versionBumps.push({ tableId: item.tableId, id, from: item.version, to: record.version });
    }
  }
  return delivery;
}

/** A queued item as it is once a delivery's offline ids are replaced by server ids; the same object when it names none. */
function remapItem(item: OutboxItem, { recordMap, attachmentMap }: Delivery): OutboxItem {
  // What remapQueue finds by index: the item's own id, its file's record, its refIds.
  const named = isAttachmentOp(item)
    ? attachmentMap.has(item.id) || (item.recordId !== undefined && recordMap.has(item.recordId))
    : item.kind !== 'insert' && recordMap.has(item.id);
  if (!named && !item.refIds?.some((id) => recordMap.has(id))) return item;
  const next: OutboxItem = { ...item };
  if (isAttachmentOp(item)) {
    if (attachmentMap.has(item.id)) next.id = attachmentMap.get(item.id)!;
    if (item.recordId !== undefined && recordMap.has(item.recordId)) next.recordId = recordMap.get(item.recordId)!;
  } else if (recordMap.has(item.id) && item.kind !== 'insert') {
    next.id = recordMap.get(item.id)!;
  }
  next.properties = remapRefs(item.properties, item.refs, recordMap);
  if (next.id === item.id && next.recordId === item.recordId && next.properties === item.properties) return item;
  next.refIds = localRefIds(next.properties, next.refs);
  if (next.refIds === undefined) delete next.refIds;
  return next;
}

/**
 * A later queued update of a row an acknowledged update moved on: it was based on the edit just
 * delivered, not on someone else's, so it follows to the new version. The same object otherwise.
 */
function followVersion(item: OutboxItem, versionBumps: Delivery['versionBumps']): OutboxItem {
  if (item.kind !== 'update' || item.version === undefined) return item;
  let current = item;
  for (const bump of versionBumps) {
    if (current.tableId !== bump.tableId || current.id !== bump.id) continue;
    if (current.kind === 'update' && current.version !== undefined && current.version === bump.from) current = { ...current, version: bump.to };
  }
  return current;
}

/** A queued item as the acknowledgement of `delivery` leaves it in the queue (phases 4 and 5); the same object when untouched. */
export function followDelivery(item: OutboxItem, delivery: Delivery): OutboxItem {
  return followVersion(remapItem(item, delivery), delivery.versionBumps);
}

/** Reads the rows of `keys` that no phase has written yet, into `state.written`. */
async function readUnwritten(db: OfflineDb, state: AckState, keys: RowKey[]): Promise<void> {
  const unread = keys.filter(([tableId, id]) => !state.written.has(keyOf(tableId, id)));
  if (!unread.length) return;
  const rows = await db.features.bulkGet(unread);
  rows.forEach((row, index) => {
    if (row) state.written.set(keyOf(unread[index]![0], unread[index]![1]), row);
  });
}

/** Phase 1: the acknowledged rows themselves. */
async function settleRows(db: OfflineDb, acks: readonly Ack[], state: AckState): Promise<void> {
  const recordAcks = acks.filter(({ item }) => !isAttachmentOp(item));
  if (!recordAcks.length) return;
  const rowsByKey = new Map<string, FeatureRow>();
  const rowKeys = recordAcks.map(({ item, id }): RowKey => [item.tableId, item.kind === 'insert' ? item.id : id]);
  (await db.features.bulkGet(rowKeys)).forEach((row, index) => {
    if (row) rowsByKey.set(keyOf(rowKeys[index]![0], rowKeys[index]![1]), row);
  });
  const withServerRefs = (row: FeatureRow, refs: string[] | undefined): StoredRecord => {
    const properties = remapRefs(row.feature.properties, refs, state.recordMap) ?? row.feature.properties;
    return properties === row.feature.properties ? row.feature : { ...row.feature, properties };
  };
  const deletes: RowKey[] = [];
  const puts = new Map<string, FeatureRow>();
  const syncedAt = Date.now();
  for (const { item, id, record } of recordAcks) {
    // Non-inserts are keyed by the server's id: an operation on a row inserted earlier in the
    // same call still names the local id, whose row has just been renamed.
    const key = item.kind === 'insert' ? keyOf(item.tableId, item.id) : keyOf(item.tableId, id);
    const row = puts.get(key) ?? rowsByKey.get(key);
    switch (item.kind) {
      case 'insert': {
        if (row) {
          if (item.id !== id) {
            deletes.push([item.tableId, item.id]);
            puts.delete(key);
          }
          const feature: StoredRecord = {
            ...withServerRefs(row, item.refs),
            id,
            version: record?.version ?? row.feature.version,
            createdAt: record?.createdAt ?? row.feature.createdAt,
            updatedAt: record?.updatedAt ?? row.feature.updatedAt,
          };
          const next: FeatureRow = { ...row, featureId: id, feature, isInsert: 0, syncedAt };
          puts.set(keyOf(item.tableId, id), next);
          rowsByKey.set(keyOf(item.tableId, id), next);
        }
        state.touched.set(keyOf(item.tableId, id), [item.tableId, id]);
        break;
      }
      case 'update': {
        if (row) {
          const feature = withServerRefs(row, item.refs);
          puts.set(key, { ...row, syncedAt, feature: record ? { ...feature, version: record.version, updatedAt: record.updatedAt } : feature });
        }
        state.touched.set(keyOf(item.tableId, id), [item.tableId, id]);
        break;
      }
      case 'archive': {
        if (row) puts.set(key, { ...row, syncedAt, feature: record ? toStoredRecord(record) : { ...row.feature, archived: true } });
        state.touched.set(keyOf(item.tableId, id), [item.tableId, id]);
        break;
      }
      case 'delete':
        // Kept as a tombstone: a read sent before this acknowledgement may still list the row
        // and must not bring it back (refreshRows honours syncedAt). A later read removes it only
        // once it is no longer pending, so its isInsert/isEdit flags (left by an insert or update
        // acknowledged in an earlier call) clear with the others in clearSettledFlags.
        if (row) puts.set(key, { ...row, isDelete: 0, syncedAt, feature: { ...row.feature, deleted: true } });
        state.touched.set(keyOf(item.tableId, id), [item.tableId, id]);
        break;
    }
  }
  if (deletes.length) await db.features.bulkDelete(deletes);
  if (puts.size) await db.features.bulkPut([...puts.values()]);
  for (const [key, row] of puts) state.written.set(key, row);
}

/** Phase 2: uploaded files take their server ids, deleted files go. */
async function settleAttachments(db: OfflineDb, acks: readonly Ack[]): Promise<void> {
  const uploads = acks.filter(({ item }) => item.kind === 'attachment');
  const removed = acks.filter(({ item }) => item.kind === 'attachmentDelete').map(({ item }) => item.id);
  const rows = uploads.length ? await db.attachments.bulkGet(uploads.map(({ item }) => item.id)) : [];
  const deletes = [...removed];
  const puts: AttachmentRow[] = [];
  uploads.forEach(({ item, id }, index) => {
    const row = rows[index];
    if (item.id !== id && row) deletes.push(item.id);
    if (row) puts.push({ ...row, id, isInsert: 0 });
  });
  if (deletes.length) await db.attachments.bulkDelete(deletes);
  if (puts.length) await db.attachments.bulkPut(puts);
}

/**
 * Phase 3: the acknowledged items leave the queue. A bulk answer covers consecutive items, so
 * their seqs are mostly runs of consecutive numbers: each run goes by one key-range delete (no
 * other item can lie inside it), not one request per item.
 */
async function removeItems(db: OfflineDb, seqs: number[]): Promise<void> {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  const singles: number[] = [];
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    // A range delete is two requests (Dexie counts first): worth it from three items on.
    if (j - i >= 2) ranges.push([sorted[i]!, sorted[j]!]);
    else singles.push(...sorted.slice(i, j + 1));
    i = j + 1;
  }
  await Promise.all([
    ...ranges.map(([from, to]) => db.outbox.where(':id').between(from, to, true, true).delete()),
    singles.length ? db.outbox.bulkDelete(singles) : undefined,
  ]);
}

/** Phase 4: queued items naming a delivered offline id, their device rows, attachments of renamed rows. */
async function remapQueue(db: OfflineDb, state: AckState): Promise<void> {
  const { recordMap, attachmentMap } = state;
  if (!recordMap.size && !attachmentMap.size) return;
  const localIds = [...recordMap.keys()];
  const affected = new Map<number, OutboxItem>();
  // The look-ups are independent: sent together, they cost one wait instead of four.
  const found = await Promise.all([
    ...(localIds.length ? [db.outbox.where('id').anyOf(localIds).toArray(), db.outbox.where('recordId').anyOf(localIds).toArray(), db.outbox.where('refIds').anyOf(localIds).toArray()] : []),
    ...(attachmentMap.size ? [db.outbox.where('id').anyOf([...attachmentMap.keys()]).toArray()] : []),
  ]);
  for (const item of found.flat()) affected.set(item.seq!, item);
  const children: OutboxItem[] = [];
  const changed: OutboxItem[] = [];
  for (const item of affected.values()) {
    const next = remapItem(item, state);
    if (next === item) continue;
    state.updated.set(next.seq!, next);
    changed.push(next);
    // The device row of a child mirrors what will be sent.
    if (!isAttachmentOp(item) && next.properties !== item.properties) children.push(next);
  }
  if (changed.length) await db.outbox.bulkPut(changed);
  if (children.length) {
    await readUnwritten(db, state, children.map((child): RowKey => [child.tableId, child.id]));
    const childRows = new Map<string, FeatureRow>();
    for (const child of children) {
      const key = keyOf(child.tableId, child.id);
      const row = state.written.get(key);
      if (!row) continue;
      const properties = remapRefs(row.feature.properties, child.refs, recordMap) ?? row.feature.properties;
      const next = { ...row, feature: { ...row.feature, properties } };
      state.written.set(key, next);
      childRows.set(key, next);
    }
    if (childRows.size) await db.features.bulkPut([...childRows.values()]);
  }
  if (localIds.length) {
    const attachmentRows = await db.attachments.where('featureId').anyOf(localIds).toArray();
    const moved = attachmentRows.flatMap((row) => {
      const mapped = recordMap.get(row.featureId);
      return mapped === undefined ? [] : [{ ...row, featureId: mapped }];
    });
    if (moved.length) await db.attachments.bulkPut(moved);
  }
}

/**
 * Phase 5: an acknowledged update moves the server version on; later queued updates of the same
 * record were based on the edit just delivered, not on someone else's, so they follow.
 */
async function followVersions(db: OfflineDb, state: AckState): Promise<void> {
  if (!state.versionBumps.length) return;
  const later = await db.outbox.where('[tableId+id]').anyOf(state.versionBumps.map((b) => [b.tableId, b.id])).toArray();
  const bumped = new Map<number, OutboxItem>();
  for (const item of later) {
    const current = state.updated.get(item.seq!) ?? item;
    const next = followVersion(current, state.versionBumps);
    if (next === current) continue;
    state.updated.set(next.seq!, next);
    bumped.set(next.seq!, next);
  }
  if (bumped.size) await db.outbox.bulkPut([...bumped.values()]);
}

/** Phase 6: rows with nothing left in the queue are settled. */
async function clearSettledFlags(db: OfflineDb, state: AckState): Promise<void> {
  if (!state.touched.size) return;
  const keys = [...state.touched.values()];
  const left = new Set((await db.outbox.where('[tableId+id]').anyOf(keys).toArray()).map((item) => keyOf(item.tableId, item.id)));
  const clear = keys.filter(([tableId, id]) => !left.has(keyOf(tableId, id)));
  await readUnwritten(db, state, clear);
  const flagged = clear
    .map(([tableId, id]) => state.written.get(keyOf(tableId, id)))
    .filter((row): row is FeatureRow => !!row && (row.isEdit === 1 || row.isInsert === 1));
  if (flagged.length) await db.features.bulkPut(flagged.map((row) => ({ ...row, isInsert: 0 as const, isEdit: 0 as const })));
}

/**
 * The phases of an acknowledgement inside the caller's transaction (which must include features,
 * attachments, outbox and meta). Returns what to call after it committed, for this tab's screens.
 */
export async function acknowledgeInTransaction(db: OfflineDb, acks: readonly Ack[]): Promise<{ result: AckResult; announce: () => void }> {
  const state: AckState = { ...deliveryOf(acks), written: new Map(), touched: new Map(), updated: new Map() };
  await settleRows(db, acks, state);
  await settleAttachments(db, acks);
  await removeItems(db, acks.map((ack) => ack.item.seq!));
  const announce = await storeMappings(db, state.mappings);
  await remapQueue(db, state);
  await followVersions(db, state);
  await clearSettledFlags(db, state);
  return { result: { mappings: state.mappings, updated: [...state.updated.values()] }, announce };
}

/**
 * Applies acknowledgements: removes the items, updates the device rows, and rewrites offline ids
 * to server ids everywhere, in one transaction (phases above). This tab's screens learn the new
 * ids (identity.ts) only after it committed.
 */
export async function acknowledge(db: OfflineDb, acks: Ack[]): Promise<AckResult> {
  if (!acks.length) return { mappings: [], updated: [] };
  // An async scope function: Dexie keeps the transaction open across native awaits only then.
  const { result, announce } = await guardWrite(db, () =>
    db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], async () => acknowledgeInTransaction(db, acks)),
  );
  announce();
  notifyOutboxChanged(db);
  return result;
}
