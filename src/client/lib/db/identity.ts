/**
 * Record identity: the one owner of "which server id did this offline id become", and of how a
 * delivery renames what still names an offline id (queued items: `deliveryOf`, `followDelivery`;
 * rows: `followIds`).
 *
 * Rows made offline get a random id below LOCAL_ID_BOUND (the rule: common/record-id.ts); the
 * server gives them an id above it when it applies the insert. The acknowledgement of that insert
 * (outbox-acknowledge) writes the mapping here in the same transaction that renames the row and
 * rewrites every reference to it, and tells this tab's listeners once it committed: one
 * announcement per delivery (`onIdentityChange`), which the router (the address) and the season
 * slice (the loaded rows) follow in the same render. Everything else that may hold an offline id
 * after that moment (a loader's earlier read, an edit saved by a screen that has not re-rendered
 * yet) resolves it through this module instead of guessing.
 *
 * The mapping is kept on the device (one meta row per acknowledgement, below), so it holds across
 * reloads and tabs, and in memory for synchronous reads by screens (`knownId`). An offline id is
 * never reused once delivered (local-data.newLocalIds asks `deliveredAmong`). See
 * docs/architecture.md, "Sync".
 */
import { isLocalId } from '../../../common/record-id';
import type { Properties, WireRecord } from '../../../common/schemas/wire';
import type { MetaRow, OfflineDb, OutboxItem, StoredRecord } from './database';

export type IdKind = 'record' | 'attachment';

/** An offline id and the server id it became. */
export interface IdChange {
  localId: number;
  id: number;
  /** 'record' for rows, 'attachment' for attachment ids. */
  of: IdKind;
}

/** An IdChange as the acknowledgement knows it, with the row's (or file's) table. */
export interface IdMapping extends IdChange {
  tableId: number;
}

/**
 * Meta rows of delivered ids start with this. One row per acknowledgement,
 * `delivered:batch:<of>:<first offline id>`, holds that acknowledgement's mappings as
 * `[of, localId, id]` triples: one write per acknowledgement instead of one per delivered row
 * (IndexedDB's cost is per request). Rows written one per id before (`delivered:<of>:<localId>`,
 * value the server id) are still read.
 */
const DELIVERED = 'delivered:';

/** In-memory key of a mapping. */
const mappingKey = (of: IdKind, localId: number) => `${of}:${localId}`;

function changeOf(key: string, id: number): IdChange {
  const [of, localId] = key.split(':');
  return { of: of as IdKind, localId: Number(localId), id };
}

const known = new WeakMap<OfflineDb, Map<string, number>>();
/** Meta rows of delivered ids this tab has read or written. */
const readRows = new WeakMap<OfflineDb, Set<string>>();
const listeners = new WeakMap<OfflineDb, Set<(learned: IdChange[]) => void>>();

function cacheOf(db: OfflineDb): Map<string, number> {
  let cache = known.get(db);
  if (!cache) {
    cache = new Map();
    known.set(db, cache);
  }
  return cache;
}

function readRowsOf(db: OfflineDb): Set<string> {
  let set = readRows.get(db);
  if (!set) {
    set = new Set();
    readRows.set(db, set);
  }
  return set;
}

/** The server id this device knows for an offline id (in memory; `resolveIds` reads the device). */
export function knownId(db: OfflineDb, of: IdKind, id: number): number | undefined {
  return isLocalId(id) ? known.get(db)?.get(mappingKey(of, id)) : undefined;
}

/**
 * Calls `listener` with the mappings this tab just learnt, whenever it learns new ones: an
 * acknowledgement committed in this tab, or a read of the device found another tab's (or an
 * earlier visit's) deliveries.
 */
export function onIdentityChange(db: OfflineDb, listener: (learned: IdChange[]) => void): () => void {
  let set = listeners.get(db);
  if (!set) {
    set = new Set();
    listeners.set(db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

function learn(db: OfflineDb, entries: Array<[string, number]>): void {
  const cache = cacheOf(db);
  const learned: IdChange[] = [];
  for (const [key, id] of entries) {
    if (cache.get(key) === id) continue;
    cache.set(key, id);
    learned.push(changeOf(key, id));
  }
  if (learned.length) for (const listener of listeners.get(db) ?? []) listener(learned);
}

const isIdKind = (value: unknown): value is IdKind => value === 'record' || value === 'attachment';

/** The mappings a meta row of delivered ids holds (either layout), as in-memory entries. */
function entriesOf(row: MetaRow): Array<[string, number]> {
  const parts = row.key.split(':');
  if (parts.length === 3 && isIdKind(parts[1]) && typeof row.value === 'number') return [[mappingKey(parts[1], Number(parts[2])), row.value]];
  if (!Array.isArray(row.value)) return [];
  return (row.value as unknown[]).flatMap((entry): Array<[string, number]> => {
    const [of, localId, id] = Array.isArray(entry) ? (entry as unknown[]) : [];
    return isIdKind(of) && isLocalId(localId) && typeof id === 'number' ? [[mappingKey(of, localId), id]] : [];
  });
}

/**
 * Learns the mappings of meta rows not read yet (another tab's acknowledgements, or all of them
 * after a reload): one request for the keys, one per new row. Inside a transaction that includes
 * `meta` it reads that transaction's view.
 */
async function readDeliveries(db: OfflineDb): Promise<void> {
  const seen = readRowsOf(db);
  const keys = ((await db.meta.where('key').startsWith(DELIVERED).primaryKeys()) as string[]).filter((key) => !seen.has(key));
  if (!keys.length) return;
  const rows = await db.meta.bulkGet(keys);
  const found: Array<[string, number]> = [];
  rows.forEach((row, index) => {
    seen.add(keys[index]!);
    if (row) found.push(...entriesOf(row));
  });
  if (found.length) learn(db, found);
}

/**
 * Server ids of the delivered offline ids among `ids` (others are left out). Inside a transaction
 * that includes `meta` it reads that transaction's view.
 */
export async function resolveIds(db: OfflineDb, of: IdKind, ids: ReadonlyArray<unknown>): Promise<Map<number, number>> {
  const local = [...new Set(ids.filter(isLocalId))];
  const map = new Map<number, number>();
  if (!local.length) return map;
  const cache = cacheOf(db);
  const lookUp = (id: number) => {
    const hit = cache.get(mappingKey(of, id));
    if (hit !== undefined) map.set(id, hit);
    return hit === undefined;
  };
  const unknown = local.filter(lookUp);
  if (!unknown.length) return map;
  await readDeliveries(db);
  unknown.forEach(lookUp);
  return map;
}

/** The offline ids among `ids` that were delivered as a row or a file (they are never handed out again). */
export async function deliveredAmong(db: OfflineDb, ids: readonly number[]): Promise<Set<number>> {
  const delivered = (id: number) => knownId(db, 'record', id) !== undefined || knownId(db, 'attachment', id) !== undefined;
  if (ids.some((id) => isLocalId(id) && !delivered(id))) await readDeliveries(db);
  return new Set(ids.filter(delivered));
}

/**
 * Writes the mappings of one acknowledgement inside the caller's transaction (which must include
 * `meta`): one row, one request. Returns what to call once the transaction committed, so this
 * tab's screens follow only a mapping that is really stored.
 */
export async function storeMappings(db: OfflineDb, mappings: readonly IdMapping[]): Promise<() => void> {
  const first = mappings[0];
  if (!first) return () => undefined;
  // Named after its first offline id, which is never handed out again: the key is never reused.
  const key = `${DELIVERED}batch:${first.of}:${first.localId}`;
  await db.meta.put({ key, value: mappings.map((m) => [m.of, m.localId, m.id]) });
  return () => {
    readRowsOf(db).add(key);
    learn(
      db,
      mappings.map((m): [string, number] => [mappingKey(m.of, m.localId), m.id]),
    );
  };
}

/** `properties` with the reference columns (`refs`) that name a mapped offline id rewritten; the same object when none does. */
export function remapRefs(properties: Properties | undefined, refs: readonly string[] | undefined, map: ReadonlyMap<number, number>): Properties | undefined {
  if (!properties || !refs?.length || !map.size) return properties;
  let changed = false;
  const next = { ...properties };
  for (const key of refs) {
    const value = next[key];
    if (isLocalId(value) && map.has(value)) {
      next[key] = map.get(value);
      changed = true;
    }
  }
  return changed ? next : properties;
}

/** The offline ids among the reference columns' values (the outbox's multi-entry index `refIds`). */
export function localRefIds(properties: Properties | undefined, refs: readonly string[] | undefined): number[] | undefined {
  if (!properties || !refs?.length) return undefined;
  const ids = refs.map((key) => properties[key]).filter(isLocalId);
  return ids.length ? ids : undefined;
}

/**
 * A row as it is after deliveries: its id and the reference columns (`refs`) that name a delivered
 * offline id replaced by the server's ids. The same object when nothing changed.
 */
export function followIds(record: StoredRecord, refs: readonly string[] | undefined, map: ReadonlyMap<number, number>): StoredRecord {
  const id = map.get(record.id) ?? record.id;
  const properties = remapRefs(record.properties, refs, map) ?? record.properties;
  return id === record.id && properties === record.properties ? record : { ...record, id, properties };
}

/** The server's acknowledgement of one item. */
export interface Ack {
  item: OutboxItem;
  /** Server id of the row (for inserts: the new id) or of the attachment. */
  id: number;
  record?: WireRecord;
}

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

/** A queued item of a file (upload or delete) rather than of a row. */
export const isAttachmentOp = (item: OutboxItem) => item.kind === 'attachment' || item.kind === 'attachmentDelete';

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

/** A queued item as the acknowledgement of `delivery` leaves it in the queue (phase 4); the same object when untouched. */
export function followDelivery(item: OutboxItem, delivery: Delivery): OutboxItem {
  return followVersion(remapItem(item, delivery), delivery.versionBumps);
}
