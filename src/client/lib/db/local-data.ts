/**
 * Reads and refreshes of the offline copy of project tables (online reads refresh the
 * local copy, offline reads come from it). Rows with pending local changes are never overwritten
 * by a refresh: the local edit wins until the outbox delivered it.
 */
import { Dexie } from 'dexie';
import { LOCAL_ID_BOUND, MODIFY_CHUNK_SIZE, TOMBSTONE_KEEP_MS } from '../../../common/constants';
import { searchableText, textMatcher } from '../../../common/text-search';
import type { WireFeature, WireRecord } from '../../../common/schemas/wire';
import { guardWrite, type FeatureRow, type OfflineDb, type StoredRecord } from './database';
import { deliveredAmong } from './identity';

/** Splits a list into chunks of MODIFY_CHUNK_SIZE for bulk writes. */
function chunks<T>(items: readonly T[], size: number = MODIFY_CHUNK_SIZE): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export function toStoredRecord(row: WireRecord | WireFeature): StoredRecord {
  return {
    id: row.id,
    tableId: row.tableId,
    properties: row.properties,
    geometry: row.geometry ?? null,
    deleted: row.deleted,
    archived: row.archived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: row.version,
  };
}

function isPending(row: FeatureRow): boolean {
  return row.isInsert === 1 || row.isEdit === 1 || row.isDelete === 1;
}

/** A row's table and current id (`feature.id`), as the index `[tableId+feature.id]` holds it. */
export type RowId = [tableId: number, id: number];

/** The device rows of a table: the range of their keys (`[tableId+featureId]`). */
export function tableRows(db: OfflineDb, tableId: number) {
  return db.features.where('[tableId+featureId]').between([tableId, Dexie.minKey], [tableId, Dexie.maxKey], true, true);
}

/**
 * The device copy of the row whose id is now `id`. A row made offline keeps its offline id as its
 * key after delivery (FeatureRow.featureId), so a row is never looked up by its key from an id.
 */
export function deviceRow(db: OfflineDb, tableId: number, id: number): Promise<FeatureRow | undefined> {
  return db.features.where('[tableId+feature.id]').equals([tableId, id]).first();
}

/** The device copies of the rows whose ids are now `ids` (one cursor over the index; missing ones are left out). */
export function deviceRows(db: OfflineDb, ids: readonly RowId[]): PromiseLike<FeatureRow[]> {
  return ids.length
    ? db.features
        .where('[tableId+feature.id]')
        .anyOf(ids as RowId[])
        .toArray()
    : Dexie.Promise.resolve([]);
}

/**
 * `count` random ids below LOCAL_ID_BOUND (docs/architecture.md, Sync rules), distinct and unused by
 * any local row or file of any table, nor delivered before: all looked up together (a save's new
 * rows get theirs in one wait).
 */
export async function newLocalIds(db: OfflineDb, count: number, random: () => number = Math.random): Promise<number[]> {
  const ids: number[] = [];
  while (ids.length < count) {
    const candidates = new Set<number>();
    while (candidates.size < count - ids.length) {
      const id = 1 + Math.floor(random() * (LOCAL_ID_BOUND - 1));
      if (!ids.includes(id)) candidates.add(id);
    }
    const list = [...candidates];
    // A delivered offline id is never reused: an edit still naming it is sent with the server's id.
    const [features, attachments, queued, delivered] = await Promise.all([
      db.features.where('featureId').anyOf(list).keys(),
      db.attachments.bulkGet(list),
      db.outbox.where('id').anyOf(list).keys(),
      deliveredAmong(db, list),
    ]);
    const taken = new Set<unknown>([...features, ...queued, ...delivered]);
    attachments.forEach((file, index) => file && taken.add(list[index]));
    ids.push(...list.filter((id) => !taken.has(id)));
  }
  return ids;
}

interface RefreshTarget {
  projectId: number;
  tableId: number;
  isRecord?: boolean;
}

/**
 * Where a server answer goes, and what it covers. An answer that removes rows (`inScope`) must say
 * when it was asked: the outbox delivers while reads are under way, and an answer asked before a
 * row reached the server does not list it, which without its age would read as "gone".
 */
export type RefreshOptions = RefreshTarget &
  (
    | { inScope?: undefined; requestedAt?: number }
    | {
        /**
         * Which local rows the server answer covers (the same condition as the query). Local rows
         * in scope that the server did not return are gone on the server and are removed — unless
         * they have pending local changes or are newer than the answer.
         */
        inScope: (record: StoredRecord) => boolean;
        /** When the server read was sent (epoch ms): rows acknowledged after that are newer than the answer. */
        requestedAt: number;
      }
  );

/** The later of two moments, either of which may be unknown. */
function newer(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** Stores a server answer in the local copy, in chunks, without clobbering pending edits. */
export async function refreshRows(db: OfflineDb, rows: ReadonlyArray<WireRecord | WireFeature>, options: RefreshOptions): Promise<void> {
  const { projectId, tableId, requestedAt } = options;
  // Pending rows, and rows the outbox delivered while this read was under way, know better.
  const keep = (row: FeatureRow) => isPending(row) || (requestedAt !== undefined && row.syncedAt !== undefined && row.syncedAt >= requestedAt);
  const isRecord = options.isRecord === false ? 0 : 1;
  await guardWrite(db, () =>
    db.transaction('rw', db.features, async () => {
      const existing = await tableRows(db, tableId).toArray();
      // By current id: a row made offline and delivered since keeps its offline key.
      const byId = new Map(existing.map((row) => [row.feature.id, row]));
      const returned = new Set(rows.map((row) => row.id));
      const toPut: FeatureRow[] = [];
      for (const row of rows) {
        const local = byId.get(row.id);
        if (local && keep(local)) continue;
        toPut.push({
          tableId,
          featureId: local?.featureId ?? row.id,
          projectId,
          feature: toStoredRecord(row),
          isInsert: 0,
          isEdit: 0,
          isDelete: 0,
          isRecord,
          // The row is now as new as this read: an answer asked before it, still on its way, must
          // not undo it (remove a row delivered since, or bring back its older copy).
          syncedAt: newer(local?.syncedAt, requestedAt),
          profileId: db.searchProfileId,
        });
      }
      const toDelete: Array<[number, number]> = [];
      if (options.inScope) {
        const { inScope, requestedAt: askedAt } = options;
        for (const row of existing) {
          if (returned.has(row.feature.id) || keep(row) || !inScope(row.feature)) continue;
          // Gone from the server (or from this read's scope). A read sent before this one may
          // still list the row: it stays as a hidden tombstone, as new as this read, until a
          // read sent TOMBSTONE_KEEP_MS after that drops it.
          const buried = row.feature.deleted;
          if (buried && (row.syncedAt ?? -Infinity) <= askedAt - TOMBSTONE_KEEP_MS) {
            toDelete.push([tableId, row.featureId]);
          } else if (!buried) {
            toPut.push({ ...row, feature: { ...row.feature, deleted: true }, syncedAt: Math.max(row.syncedAt ?? -Infinity, askedAt) });
          }
        }
      }
      for (const part of chunks(toPut)) await db.features.bulkPut(part);
      for (const part of chunks(toDelete)) await db.features.bulkDelete(part);
    }),
  );
}

/** Rows of a table as the user should see them: server copy plus local edits, minus local deletes. */
export async function readRows(db: OfflineDb, tableId: number, predicate?: (record: StoredRecord) => boolean): Promise<StoredRecord[]> {
  const rows = await tableRows(db, tableId).toArray();
  return rows
    .filter((row) => row.isDelete !== 1 && !row.feature.deleted && (!predicate || predicate(row.feature)))
    .map((row) => row.feature)
    .sort((a, b) => a.id - b.id);
}

/** A text search as GET …/search/{profileId}/{limit}/{page}/{query}?tableIds= asks it. */
export interface TextSearchRequest {
  projectId: number;
  profileId: number;
  limit: number;
  page: number;
  query: string;
  /** Only these tables; every table when absent or empty. */
  tableIds?: readonly number[];
}

/**
 * The device's answer to a text search, in the server's shape (`{records, totalCount}`): the rows
 * stored under the profile that the server would find (common/text-search.ts), deleted ones and
 * local deletes left out, the device's edits included, by id, one page of `limit` rows. What it
 * cannot do as the server does: it does not rank (the server puts the best match first, then by
 * id), it searches every string value of a row (it does not know which columns are text columns),
 * and it knows neither the profile's own table list nor a profile's existence (an unknown profile
 * finds nothing instead of 404).
 */
export async function searchDeviceRows(db: OfflineDb, request: TextSearchRequest): Promise<{ records: StoredRecord[]; totalCount: number }> {
  const matches = textMatcher(request.query);
  if (!matches) return { records: [], totalCount: 0 };
  const tableIds = request.tableIds?.length ? [...new Set(request.tableIds)] : null;
  const rows = tableIds ? (await Promise.all(tableIds.map((tableId) => tableRows(db, tableId).toArray()))).flat() : await db.features.toArray();
  const found = rows
    .filter((row) => row.profileId === request.profileId && row.projectId === request.projectId && row.isDelete !== 1 && !row.feature.deleted)
    .map((row) => row.feature)
    .filter((record) => matches(searchableText(Object.values(record.properties))))
    .sort((a, b) => a.id - b.id);
  const offset = (request.page - 1) * request.limit;
  return { records: found.slice(offset, offset + request.limit), totalCount: found.length };
}

export async function getMeta<T>(db: OfflineDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function setMeta(db: OfflineDb, key: string, value: unknown): Promise<void> {
  await guardWrite(db, () => db.meta.put({ key, value }));
}
