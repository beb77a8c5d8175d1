/**
 * Record identity: the one owner of "which server id did this offline id become".
 *
 * Rows made offline get a random id below LOCAL_ID_BOUND (10,000,000); the server gives them an
 * id above it when it applies the insert. The acknowledgement of that insert (outbox-acknowledge)
 * writes the mapping here in the same transaction that renames the row and rewrites every
 * reference to it, and tells this tab's listeners once it committed. Everything else that may hold
 * an offline id after that moment (a screen's address, a loader's earlier read, an edit saved by a
 * screen that has not re-rendered yet) resolves it through this module instead of guessing.
 *
 * The mapping is kept on the device (meta rows `delivered:<of>:<localId>`), so it holds across
 * reloads and tabs, and in memory for synchronous reads by screens (`knownId`). An offline id is
 * never reused once delivered (local-data.newLocalId checks the meta rows). See
 * docs/architecture.md, "Sync".
 */
import { LOCAL_ID_BOUND } from '../../../common/constants';
import type { Properties } from '../../../common/schemas/wire';
import type { OfflineDb, StoredRecord } from './database';

/** An id this device made offline (random, below LOCAL_ID_BOUND); server ids are above it. */
export function isLocalId(id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id < LOCAL_ID_BOUND;
}

export type IdKind = 'record' | 'attachment';

export interface IdMapping {
  tableId: number;
  localId: number;
  id: number;
  /** 'record' for rows, 'attachment' for attachment ids. */
  of: IdKind;
}

/** Meta key remembering the server id an offline id was given. */
export function deliveredKey(of: IdKind, localId: number): string {
  return `delivered:${of}:${localId}`;
}

const known = new WeakMap<OfflineDb, Map<string, number>>();
const listeners = new WeakMap<OfflineDb, Set<() => void>>();

function cacheOf(db: OfflineDb): Map<string, number> {
  let cache = known.get(db);
  if (!cache) {
    cache = new Map();
    known.set(db, cache);
  }
  return cache;
}

/** The server id this device knows for an offline id (in memory; `resolveIds` reads the device). */
export function knownId(db: OfflineDb, of: IdKind, id: number): number | undefined {
  return isLocalId(id) ? known.get(db)?.get(deliveredKey(of, id)) : undefined;
}

/** Calls `listener` whenever this tab learns new mappings (an acknowledgement, a read of the device). */
export function onIdentityChange(db: OfflineDb, listener: () => void): () => void {
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
  let changed = false;
  for (const [key, id] of entries) {
    if (cache.get(key) === id) continue;
    cache.set(key, id);
    changed = true;
  }
  if (changed) for (const listener of listeners.get(db) ?? []) listener();
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
  const unknown = local.filter((id) => {
    const hit = cache.get(deliveredKey(of, id));
    if (hit !== undefined) map.set(id, hit);
    return hit === undefined;
  });
  if (!unknown.length) return map;
  const rows = await db.meta.bulkGet(unknown.map((id) => deliveredKey(of, id)));
  const found: Array<[string, number]> = [];
  rows.forEach((row, index) => {
    if (row && typeof row.value === 'number') {
      map.set(unknown[index]!, row.value);
      found.push([row.key, row.value]);
    }
  });
  if (found.length) learn(db, found);
  return map;
}

/**
 * Writes mappings inside the caller's transaction (which must include `meta`): one bulk request.
 * Returns what to call once the transaction committed, so this tab's screens follow only a
 * mapping that is really stored.
 */
export async function storeMappings(db: OfflineDb, mappings: readonly IdMapping[]): Promise<() => void> {
  if (!mappings.length) return () => undefined;
  const rows = mappings.map((m) => ({ key: deliveredKey(m.of, m.localId), value: m.id }));
  await db.meta.bulkPut(rows);
  return () => learn(db, rows.map((row): [string, number] => [row.key, row.value]));
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
