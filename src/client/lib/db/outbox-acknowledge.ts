/**
 * The acknowledgement: the server confirmed a batch of queued items (one bulk answer of up to
 * MODIFY_CHUNK_SIZE operations, or one attachment upload). In ONE transaction:
 *
 * 1. `settleRows`: acknowledged rows take the server's version; inserted rows move to their server
 *    ids, and every reference column of an acknowledged row that names an offline id delivered in
 *    the same answer is rewritten (its queued item is gone after this call, so now or never).
 * 2. `settleAttachments`: uploaded files move to their server ids; deleted ones go.
 * 3. The acknowledged items leave the queue; the new mappings are stored (identity.ts).
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

/** What one acknowledgement learnt and did, handed from phase to phase. */
interface AckState {
  recordMap: Map<number, number>;
  attachmentMap: Map<number, number>;
  mappings: IdMapping[];
  /** Device rows as this transaction left them (read again only when not written here). */
  written: Map<string, FeatureRow>;
  /** Rows whose queued items were acknowledged: their flags clear when nothing else is queued. */
  touched: Map<string, RowKey>;
  versionBumps: Array<{ tableId: number; id: number; from: number | undefined; to: number }>;
  /** Queued items rewritten by a phase, by seq. */
  updated: Map<number, OutboxItem>;
}

const isAttachmentOp = (item: OutboxItem) => item.kind === 'attachment' || item.kind === 'attachmentDelete';

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
  for (const { item, id } of recordAcks) {
    if (item.kind !== 'insert' || item.id === id) continue;
    state.recordMap.set(item.id, id);
    state.mappings.push({ tableId: item.tableId, localId: item.id, id, of: 'record' });
  }
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
        if (record) state.versionBumps.push({ tableId: item.tableId, id, from: item.version, to: record.version });
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
async function settleAttachments(db: OfflineDb, acks: readonly Ack[], state: AckState): Promise<void> {
  const uploads = acks.filter(({ item }) => item.kind === 'attachment');
  const removed = acks.filter(({ item }) => item.kind === 'attachmentDelete').map(({ item }) => item.id);
  const rows = uploads.length ? await db.attachments.bulkGet(uploads.map(({ item }) => item.id)) : [];
  const deletes = [...removed];
  const puts: AttachmentRow[] = [];
  uploads.forEach(({ item, id }, index) => {
    const row = rows[index];
    if (item.id !== id) {
      state.attachmentMap.set(item.id, id);
      state.mappings.push({ tableId: item.tableId, localId: item.id, id, of: 'attachment' });
      if (row) deletes.push(item.id);
    }
    if (row) puts.push({ ...row, id, isInsert: 0 });
  });
  if (deletes.length) await db.attachments.bulkDelete(deletes);
  if (puts.length) await db.attachments.bulkPut(puts);
}

/** Phase 4: queued items naming a delivered offline id, their device rows, attachments of renamed rows. */
async function remapQueue(db: OfflineDb, state: AckState): Promise<void> {
  const { recordMap, attachmentMap } = state;
  if (!recordMap.size && !attachmentMap.size) return;
  const localIds = [...recordMap.keys()];
  const affected = new Map<number, OutboxItem>();
  const collect = (items: OutboxItem[]) => items.forEach((item) => affected.set(item.seq!, item));
  if (localIds.length) {
    collect(await db.outbox.where('id').anyOf(localIds).toArray());
    collect(await db.outbox.where('recordId').anyOf(localIds).toArray());
    collect(await db.outbox.where('refIds').anyOf(localIds).toArray());
  }
  if (attachmentMap.size) collect(await db.outbox.where('id').anyOf([...attachmentMap.keys()]).toArray());
  const children: OutboxItem[] = [];
  for (const item of affected.values()) {
    const next: OutboxItem = { ...item };
    if (isAttachmentOp(item)) {
      if (attachmentMap.has(item.id)) next.id = attachmentMap.get(item.id)!;
      if (item.recordId !== undefined && recordMap.has(item.recordId)) next.recordId = recordMap.get(item.recordId)!;
    } else if (recordMap.has(item.id) && item.kind !== 'insert') {
      next.id = recordMap.get(item.id)!;
    }
    next.properties = remapRefs(item.properties, item.refs, recordMap);
    next.refIds = localRefIds(next.properties, next.refs);
    if (next.refIds === undefined) delete next.refIds;
    state.updated.set(next.seq!, next);
    // The device row of a child mirrors what will be sent.
    if (!isAttachmentOp(item) && next.properties !== item.properties) children.push(next);
  }
  if (affected.size) await db.outbox.bulkPut([...affected.keys()].map((seq) => state.updated.get(seq)!));
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
  for (const bump of state.versionBumps) {
    for (const item of later) {
      if (item.tableId !== bump.tableId || item.id !== bump.id) continue;
      const current = state.updated.get(item.seq!) ?? item;
      if (current.kind === 'update' && current.version !== undefined && current.version === bump.from) {
        const next = { ...current, version: bump.to };
        state.updated.set(next.seq!, next);
        bumped.set(next.seq!, next);
      }
    }
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
  const state: AckState = { recordMap: new Map(), attachmentMap: new Map(), mappings: [], written: new Map(), touched: new Map(), versionBumps: [], updated: new Map() };
  await settleRows(db, acks, state);
  await settleAttachments(db, acks, state);
  await db.outbox.bulkDelete(acks.map((ack) => ack.item.seq!));
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
