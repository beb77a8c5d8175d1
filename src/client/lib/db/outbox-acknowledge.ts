/**
 * The acknowledgement: the server confirmed a batch of queued items (one bulk answer of up to
 * MODIFY_CHUNK_SIZE operations, or one attachment upload). In ONE transaction, in phases:
 *
 * 1. `readAffected`: the acknowledged items leave the queue (a run of consecutive items by one
 *    key-range delete); then the queued items the answer touches (naming a delivered offline id,
 *    or an acknowledged row; looked up once the acknowledged ones are gone, so the look-ups do not
 *    walk them) and the files involved are read together; then, in one call, the device rows that
 *    are needed, by their current ids: the queued children's, the acknowledged rows the answer does
 *    not replace, and the others by their new ids (for the key of a row delivered earlier, and any
 *    other copy of an inserted row a read of the server stored meanwhile).
 * 2. `settleRows`: acknowledged rows take the server's version; inserted rows take their server
 *    ids (under the key they have, their offline id: a row is never moved to a new key), and every
 *    reference column of an acknowledged row that names an offline id delivered in the same answer
 *    is rewritten (its queued item is gone after this call, so now or never). A row with nothing
 *    left in the queue whose items the server answered with its copy of the row (inserts and
 *    updates) is that copy: it is written without being read (phase 1 reads only its key).
 * 3. `settleAttachments`: uploaded files move to their server ids, deleted ones go, files of
 *    renamed rows follow.
 * 4. `followQueue`: queued items still naming a delivered offline id (as their row, their parent
 *    or their file's record) and their device rows follow; later queued updates of a row move on
 *    to the version just acknowledged.
 * 5. `clearSettledFlags`: rows with nothing left in the queue lose their isInsert/isEdit flags.
 * 6. `writeAll`: every write, sent together: rewritten items and rows are put (each once), and the
 *    new mappings are stored (identity.ts). The writes (and phase 1's deletes) go straight to the
 *    IndexedDB transaction under Dexie's (`sendWrites`).
 *
 * Phases 2–5 work in memory on what phase 1 read. IndexedDB's cost is per request and per wait
 * for an answer: every store is read and written with one bulk request per kind (never a request
 * per row), and the transaction waits for answers three or four times, not once per phase
 * (phases 4 and 5 read late only a row the queue did not lead to, normally none).
 */
import { Dexie } from 'dexie';
import { guardWrite, type AttachmentRow, type FeatureRow, type OfflineDb, type OutboxItem, type StoredRecord } from './database';
import { deliveryOf, followDelivery, isAttachmentOp, remapRefs, storeMappings, type Ack, type Delivery, type IdMapping } from './identity';
import { deviceRows, toStoredRecord, type RowId } from './local-data';
import { notifyOutboxChanged } from './outbox-notify';

export interface AckResult {
  mappings: IdMapping[];
  /** Queued items that were rewritten (remapped ids, propagated versions), as stored now. */
  updated: OutboxItem[];
}

/**
 * Rows are known here by their table and current id (`RowId`, as the string `keyOf`): an inserted
 * row by its offline id until this acknowledgement, by the server's id after it. The key a row is
 * stored under on the device (FeatureRow.featureId) travels inside the row.
 */
const keyOf = (tableId: number, id: number) => `${tableId}:${id}`;

/** What one acknowledgement learnt, handed from phase to phase. */
interface AckState extends Delivery {
  /** Rows whose queued items were acknowledged: their flags clear when nothing else is queued. */
  touched: Map<string, RowId>;
  /** Queued items rewritten by a phase, by seq. */
  updated: Map<number, OutboxItem>;
}

/** Everything an acknowledgement reads, sent together (`readAffected`). */
interface AckReads {
  /**
   * Rows (by final key) written from the server's answer alone: every acknowledged item of the row
   * is an insert or update answered with the row, and nothing of the row is left in the queue.
   * Such a row on the device is what was sent, so the answer's copy replaces it without a read.
   */
  answered: Set<string>;
  /** Rows (by final key) with queued record items left after this acknowledgement. */
  left: Set<string>;
  /**
   * Device rows of the acknowledged items, by current id (inserts by their offline id): those the
   * answer does not replace, and the others whose key is not known without reading (their rows were
   * delivered in an earlier call, so they are stored under their offline ids).
   */
  rows: Map<string, FeatureRow>;
  /** Device rows of queued children whose reference columns change, not read in `rows`, by current id. */
  childRows: Map<string, FeatureRow>;
  /**
   * Other device copies of rows inserted here, found under their new ids (a read of the server that
   * stored the row before its insert was acknowledged): the acknowledged row replaces them.
   */
  strays: RowId[];
  /** Queued items (not acknowledged here) naming a delivered id or an acknowledged row, by seq. */
  queued: Map<number, OutboxItem>;
  /** Uploaded files' rows, by their offline id. */
  uploads: Map<number, AttachmentRow>;
  /** Attachments of rows renamed here. */
  attachmentsOfRenamed: AttachmentRow[];
  /** Current ids of the device rows read (found or not). */
  readKeys: Set<string>;
}

/** An insert or update the server answered with its copy of the row. */
const answeredWithRow = ({ item, record }: Ack) => (item.kind === 'insert' || item.kind === 'update') && record !== undefined;

/** The id a row has once the acknowledgement of `ack` is written (inserts: the server id). */
const finalKeyOf = ({ item, id }: Ack): RowId => [item.tableId, id];
/** The id the row of `ack` has before it (inserts: the offline id). */
const currentKeyOf = ({ item, id }: Ack): RowId => [item.tableId, item.kind === 'insert' ? item.id : id];

/**
 * Phase 1: the acknowledged items leave the queue; then the reads go out together (one wait
 * instead of one per phase): the queued items the answer touches — naming a delivered offline id
 * (as their row, their file's record or a reference) or naming an acknowledged row (later updates
 * follow its version, and its flags clear only when none is left), looked up once the
 * acknowledged items are gone (so the look-ups do not walk them); the uploaded files and the files
 * of renamed rows. Once those items are known, one read of the device rows by the index of
 * current ids: the queued children's, the acknowledged rows' that the answer does not replace
 * (`answered`: normally all of them are replaced), and every acknowledged row by its new id: an
 * inserted row is found there only as a stray copy (`strays`), a row delivered in an earlier call
 * for its key.
 */
async function readAffected(db: OfflineDb, acks: readonly Ack[], delivery: Delivery): Promise<AckReads> {
  const acked = new Set(acks.map(({ item }) => item.seq!));
  const recordAcks = acks.filter(({ item }) => !isAttachmentOp(item));
  const rowKeys = [...new Map(recordAcks.map((ack) => [keyOf(...currentKeyOf(ack)), currentKeyOf(ack)])).values()];
  /** The final id of each current id (an insert's offline id → its server id; others the same). */
  const finalOf = new Map(recordAcks.map((ack) => [keyOf(...currentKeyOf(ack)), keyOf(...finalKeyOf(ack))]));
  const finalKeys = new Set(finalOf.values());
  const localIds = [...delivery.recordMap.keys()];
  const uploadIds = acks.filter(({ item }) => item.kind === 'attachment').map(({ item }) => item.id);
  const queued = new Map<number, OutboxItem>();
  const rows = new Map<string, FeatureRow>();
  const childRows = new Map<string, FeatureRow>();
  const readKeys = new Set<string>();
  const answered = new Set<string>();
  const left = new Set<string>();
  const strays: RowId[] = [];
  /** The server id of each row inserted here → the key its device row has (its offline id). */
  const insertedKeys = new Map(
    recordAcks.filter(({ item, id }) => item.kind === 'insert' && item.id !== id).map((ack) => [keyOf(...finalKeyOf(ack)), ack.item.id]),
  );

  // Composed with Dexie's promises only: Dexie follows its transaction across native promises for
  // a few steps only, and a write after that would run outside it.
  const readQueue = () =>
    removeItems(db, [...acked])
      .then(() =>
        Dexie.Promise.all([
          ...(localIds.length
            ? [
                db.outbox.where('id').anyOf(localIds).toArray(),
                db.outbox.where('recordId').anyOf(localIds).toArray(),
                db.outbox.where('refIds').anyOf(localIds).toArray(),
              ]
            : []),
          ...(delivery.attachmentMap.size
            ? [
                db.outbox
                  .where('id')
                  .anyOf([...delivery.attachmentMap.keys()])
                  .toArray(),
              ]
            : []),
          ...(rowKeys.length ? [db.outbox.where('[tableId+id]').anyOf(recordAcks.map(finalKeyOf)).toArray()] : []),
        ]),
      )
      .then((found) => {
        for (const item of found.flat()) queued.set(item.seq!, item);
        // Rows with queued items left (by the id they have once this acknowledgement is written),
        // and children whose device rows are not read for the acknowledged items already.
        const childKeys = new Map<string, RowId>();
        for (const item of queued.values()) {
          if (isAttachmentOp(item)) continue;
          const id = item.kind === 'insert' ? item.id : (delivery.recordMap.get(item.id) ?? item.id);
          const key = keyOf(item.tableId, id);
          left.add(key);
          if (item.refIds?.some((ref) => delivery.recordMap.has(ref)) && !finalKeys.has(key)) childKeys.set(key, [item.tableId, id]);
        }
        // A row is replaced by the answer only when each of its acknowledged items allows it.
        const notAnswered = new Set(recordAcks.filter((ack) => !answeredWithRow(ack)).map((ack) => keyOf(...finalKeyOf(ack))));
        for (const key of finalKeys) if (!left.has(key) && !notAnswered.has(key)) answered.add(key);
        // Rows the answer replaces are read only for their keys, which their new ids do not tell
        // (a row delivered in an earlier call keeps its offline id as its key), and to find strays.
        const rowReads = rowKeys.filter((key) => !answered.has(finalOf.get(keyOf(...key))!));
        const ids = new Map([...rowReads, ...recordAcks.map(finalKeyOf), ...childKeys.values()].map((id) => [keyOf(...id), id]));
        return readInto(
          db,
          [...ids.values()],
          readKeys,
          (key) => (childKeys.has(key) ? childRows : rows),
          (row) => {
            const own = insertedKeys.get(keyOf(row.tableId, row.feature.id));
            if (own === undefined || own === row.featureId) return false;
            strays.push([row.tableId, row.featureId]);
            return true;
          },
        );
      });

  const [, uploadRows, attachmentsOfRenamed] = await Dexie.Promise.all([
    readQueue(),
    uploadIds.length ? db.attachments.bulkGet(uploadIds) : [],
    localIds.length ? db.attachments.where('featureId').anyOf(localIds).toArray() : [],
  ]);
  const uploads = new Map<number, AttachmentRow>();
  uploadRows.forEach((row, index) => {
    if (row) uploads.set(uploadIds[index]!, row);
  });
  return { answered, left, rows, childRows, strays, queued, uploads, attachmentsOfRenamed, readKeys };
}

/** The writes of one acknowledgement, gathered by the phases and sent together (`writeAll`). */
interface AckWrites {
  /** Device rows as the acknowledgement leaves them, by current id (each row written once). */
  features: Map<string, FeatureRow>;
  attachmentDeletes: number[];
  attachments: Map<number, AttachmentRow>;
  /** Queued items rewritten (remapped ids, followed versions), by seq. */
  queued: Map<number, OutboxItem>;
}

/** Phase 2: the acknowledged rows themselves take the server's id and version. */
function settleRows(acks: readonly Ack[], reads: AckReads, state: AckState, writes: AckWrites): void {
  const recordAcks = acks.filter(({ item }) => !isAttachmentOp(item));
  const rowsByKey = new Map(reads.rows);
  const withServerRefs = (row: FeatureRow, refs: string[] | undefined): StoredRecord => {
    const properties = remapRefs(row.feature.properties, refs, state.recordMap) ?? row.feature.properties;
    return properties === row.feature.properties ? row.feature : { ...row.feature, properties };
  };
  const puts = writes.features;
  const syncedAt = Date.now();
  for (const { item, id, record } of recordAcks) {
    if (record && reads.answered.has(keyOf(item.tableId, id))) {
      // The device row is what was sent (nothing of it is left in the queue): the server's copy
      // replaces it, settled, under the row's key (an inserted row's is its offline id).
      const key = keyOf(item.tableId, id);
      const before = puts.get(key) ?? rowsByKey.get(key);
      const featureId = item.kind === 'insert' ? item.id : (before?.featureId ?? id);
      // An inserted row is not read here: its queued item tells the profile it is stored under.
      const next: FeatureRow = {
        tableId: item.tableId,
        featureId,
        projectId: item.projectId,
        feature: toStoredRecord(record),
        isInsert: 0,
        isEdit: 0,
        isDelete: 0,
        isRecord: item.api === 'Features' ? 0 : 1,
        syncedAt,
        profileId: before?.profileId ?? item.profileId,
      };
      puts.set(key, next);
      state.touched.set(key, [item.tableId, id]);
      continue;
    }
    // Non-inserts are keyed by the server's id: an operation on a row inserted earlier in the
    // same call still names the local id, whose row has just been renamed.
    const key = item.kind === 'insert' ? keyOf(item.tableId, item.id) : keyOf(item.tableId, id);
    const row = puts.get(key) ?? rowsByKey.get(key);
    switch (item.kind) {
      case 'insert': {
        if (row) {
          // Known by its server id from now on; stored under the same key.
          if (item.id !== id) puts.delete(key);
          const feature: StoredRecord = {
            ...withServerRefs(row, item.refs),
            id,
            version: record?.version ?? row.feature.version,
            createdAt: record?.createdAt ?? row.feature.createdAt,
            updatedAt: record?.updatedAt ?? row.feature.updatedAt,
          };
          const next: FeatureRow = { ...row, feature, isInsert: 0, syncedAt };
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
        // and must not bring it back (refreshRows honours syncedAt). A read sent TOMBSTONE_KEEP_MS
        // later removes it, once it is no longer pending, so its isInsert/isEdit flags (left by an
        // insert or update acknowledged in an earlier call) clear with the others in clearSettledFlags.
        if (row) puts.set(key, { ...row, isDelete: 0, syncedAt, feature: { ...row.feature, deleted: true } });
        state.touched.set(keyOf(item.tableId, id), [item.tableId, id]);
        break;
    }
  }
}

/** Phase 3: uploaded files take their server ids, deleted files go, files of renamed rows follow. */
function settleAttachments(acks: readonly Ack[], reads: AckReads, state: AckState, writes: AckWrites): void {
  const removed = new Set(acks.filter(({ item }) => item.kind === 'attachmentDelete').map(({ item }) => item.id));
  writes.attachmentDeletes.push(...removed);
  for (const { item, id } of acks) {
    const row = item.kind === 'attachment' ? reads.uploads.get(item.id) : undefined;
    if (!row) continue;
    if (item.id !== id) writes.attachmentDeletes.push(item.id);
    writes.attachments.set(id, { ...row, id, isInsert: 0 });
  }
  for (const row of reads.attachmentsOfRenamed) {
    const featureId = state.recordMap.get(row.featureId);
    if (featureId === undefined || removed.has(row.id)) continue;
    const id = state.attachmentMap.get(row.id) ?? row.id;
    writes.attachments.set(id, { ...(writes.attachments.get(id) ?? row), featureId });
  }
}

/**
 * Reads the device rows whose current ids are `ids` (one cursor over the index, one call) into the
 * map `into` picks for each, noting each id as read (found or not). A row `skip` claims is left out.
 */
function readInto(
  db: OfflineDb,
  ids: RowId[],
  readKeys: Set<string>,
  into: (key: string) => Map<string, FeatureRow>,
  skip?: (row: FeatureRow) => boolean,
): PromiseLike<void> {
  if (!ids.length) return Dexie.Promise.resolve();
  return deviceRows(db, ids).then((rows) => {
    for (const id of ids) readKeys.add(keyOf(...id));
    for (const row of rows) {
      if (skip?.(row)) continue;
      const key = keyOf(row.tableId, row.feature.id);
      into(key).set(key, row);
    }
  });
}

/**
 * Phase 4: queued items naming a delivered offline id take the server id (as their row, their
 * file's record, their references), and later queued updates of a row an acknowledged update
 * moved on follow to its version (`followDelivery`, the rule the drain follows in memory).
 * Returns the children whose references changed: their device rows follow (`followChildRows`).
 */
function followQueue(reads: AckReads, state: AckState, writes: AckWrites): OutboxItem[] {
  const children: OutboxItem[] = [];
  for (const item of reads.queued.values()) {
    const next = followDelivery(item, state);
    reads.queued.set(item.seq!, next);
    if (next === item) continue;
    state.updated.set(next.seq!, next);
    writes.queued.set(next.seq!, next);
    if (!isAttachmentOp(item) && next.properties !== item.properties) children.push(next);
  }
  return children;
}

/** The device rows of queued children mirror what will be sent. */
function followChildRows(children: readonly OutboxItem[], reads: AckReads, state: AckState, writes: AckWrites): void {
  for (const child of children) {
    const key = keyOf(child.tableId, child.id);
    const row = writes.features.get(key) ?? reads.childRows.get(key);
    if (!row) continue;
    const properties = remapRefs(row.feature.properties, child.refs, state.recordMap) ?? row.feature.properties;
    if (properties !== row.feature.properties) writes.features.set(key, { ...row, feature: { ...row.feature, properties } });
  }
}

/** Acknowledged rows with nothing left in the queue (their flags clear in phase 5). */
function settledKeys(reads: AckReads, state: AckState): RowId[] {
  return [...state.touched].filter(([key]) => !reads.left.has(key)).map(([, rowKey]) => rowKey);
}

/** Phase 5: acknowledged rows with nothing left in the queue lose their isInsert/isEdit flags. */
function clearSettledFlags(settled: readonly RowId[], reads: AckReads, writes: AckWrites): void {
  for (const [tableId, id] of settled) {
    const key = keyOf(tableId, id);
    const row = writes.features.get(key) ?? reads.childRows.get(key);
    if (row && (row.isEdit === 1 || row.isInsert === 1)) writes.features.set(key, { ...row, isInsert: 0, isEdit: 0 });
  }
}

/**
 * The IndexedDB transaction under the caller's Dexie transaction. The acknowledgement's writes go
 * to it straight (`sendWrites`): Dexie's bulk writes set an error handler on every request and
 * collect every result, which costs about as much time on the page as the writes themselves, and
 * nothing here needs them. A failed write still aborts the whole transaction (no handler catches
 * its error), so Dexie's transaction fails and nothing of the acknowledgement is kept.
 */
function rawTransaction(): IDBTransaction | undefined {
  return (Dexie.currentTransaction as unknown as { idbtrans?: IDBTransaction } | null)?.idbtrans ?? undefined;
}

/** Writes of one store, sent straight to IndexedDB: puts of whole rows, deletes by key or by key range. */
interface StoreWrites {
  puts?: readonly unknown[];
  deletes?: ReadonlyArray<IDBValidKey | IDBKeyRange>;
}

/**
 * Sends the writes on `trans` without waiting for them: the transaction commits only once every
 * one succeeded, and aborts on the first failure.
 */
function sendWrites(trans: IDBTransaction, writes: Record<string, StoreWrites>): void {
  for (const [name, { puts, deletes }] of Object.entries(writes)) {
    if (!puts?.length && !deletes?.length) continue;
    const store = trans.objectStore(name);
    for (const key of deletes ?? []) store.delete(key);
    for (const value of puts ?? []) store.put(value);
  }
}

/**
 * Phase 6: every write, sent together: the rows (each put once; strays deleted), the files, the
 * rewritten queued items and the mappings (identity.ts). Deletes and puts of a store never share a
 * key, so their order does not matter.
 */
function writeAll(db: OfflineDb, reads: AckReads, state: AckState, writes: AckWrites): PromiseLike<() => void> {
  const trans = rawTransaction();
  if (trans) {
    sendWrites(trans, {
      outbox: { puts: [...writes.queued.values()] },
      features: { puts: [...writes.features.values()], deletes: reads.strays },
      attachments: { puts: [...writes.attachments.values()], deletes: writes.attachmentDeletes },
    });
    return storeMappings(db, state.mappings);
  }
  // Dexie's Promise.all: the caller's awaits after it stay in the transaction.
  return Dexie.Promise.all([
    storeMappings(db, state.mappings),
    writes.queued.size ? db.outbox.bulkPut([...writes.queued.values()]) : undefined,
    reads.strays.length ? db.features.bulkDelete(reads.strays) : undefined,
    writes.features.size ? db.features.bulkPut([...writes.features.values()]) : undefined,
    writes.attachmentDeletes.length ? db.attachments.bulkDelete(writes.attachmentDeletes) : undefined,
    writes.attachments.size ? db.attachments.bulkPut([...writes.attachments.values()]) : undefined,
  ]).then(([announce]) => announce);
}

/**
 * The acknowledged items leave the queue. A bulk answer covers consecutive items, so their seqs
 * are mostly runs of consecutive numbers: each run goes by one key-range delete (no other item can
 * lie inside it), not one request per item.
 */
function removeItems(db: OfflineDb, seqs: number[]): PromiseLike<unknown> {
  const sorted = [...new Set(seqs)].sort((a, b) => a - b);
  const singles: number[] = [];
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j > i) ranges.push([sorted[i]!, sorted[j]!]);
    else singles.push(sorted[i]!);
    i = j + 1;
  }
  const trans = rawTransaction();
  if (trans) {
    // One request per run (Dexie's range delete counts the run first: two). The reads that follow
    // in the same transaction see the items gone, as IndexedDB runs a transaction's requests in order.
    sendWrites(trans, { outbox: { deletes: [...ranges.map(([from, to]) => db.idbKeyRange.bound(from, to)), ...singles] } });
    return Dexie.Promise.resolve();
  }
  const deletes: Array<PromiseLike<unknown>> = ranges.map(([from, to]) => db.outbox.where(':id').between(from, to, true, true).delete());
  if (singles.length) deletes.push(db.outbox.bulkDelete(singles));
  return Dexie.Promise.all(deletes);
}

/**
 * Phase 0: the acknowledgements whose items are still queued. Another tab draining the same queue
 * may have acknowledged an item already, with a later answer (its call held the item again, and
 * the edits after it): the device row holds that answer, and this older one must not replace it.
 * One read of the keys between the lowest and the highest seq.
 */
function stillQueued(db: OfflineDb, acks: readonly Ack[]): PromiseLike<readonly Ack[]> {
  if (!acks.length) return Dexie.Promise.resolve(acks);
  const seqs = acks.map(({ item }) => item.seq!);
  return db.outbox
    .where(':id')
    .between(Math.min(...seqs), Math.max(...seqs), true, true)
    .primaryKeys()
    .then((keys) => {
      const queued = new Set(keys);
      return acks.filter(({ item }) => queued.has(item.seq!));
    });
}

/**
 * The phases of an acknowledgement inside the caller's transaction (which must include features,
 * attachments, outbox and meta). Returns what to call after it committed, for this tab's screens.
 */
export async function acknowledgeInTransaction(db: OfflineDb, received: readonly Ack[]): Promise<{ result: AckResult; announce: () => void }> {
  const acks = await stillQueued(db, received);
  if (!acks.length) return { result: { mappings: [], updated: [] }, announce: () => undefined };
  const state: AckState = { ...deliveryOf(acks), touched: new Map(), updated: new Map() };
  const reads = await readAffected(db, acks, state);
  const writes: AckWrites = { features: new Map(), attachmentDeletes: [], attachments: new Map(), queued: new Map() };
  settleRows(acks, reads, state, writes);
  settleAttachments(acks, reads, state, writes);
  const children = followQueue(reads, state, writes);
  const settled = settledKeys(reads, state);
  // Rows the queue did not lead phase 1 to (normally none): a child or a settled row not read or written yet.
  const late = [...children.map((child): RowId => [child.tableId, child.id]), ...settled].filter(
    ([tableId, id]) => !reads.readKeys.has(keyOf(tableId, id)) && !writes.features.has(keyOf(tableId, id)),
  );
  if (late.length) await readInto(db, late, reads.readKeys, () => reads.childRows);
  followChildRows(children, reads, state, writes);
  clearSettledFlags(settled, reads, writes);
  const announce = await writeAll(db, reads, state, writes);
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
