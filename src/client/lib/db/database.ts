/**
 * The offline database "Moj_travnik_0.2" (docs/architecture.md, Data model), the only module that opens IndexedDB.
 *
 * What it guarantees:
 * - The offline stores with their indexes, plus `outbox` (queued edits, the source of truth for
 *   sync) and `meta` (small key/value facts such as the time of the last full refresh).
 * - Every transaction is opened with `durability: 'strict'` (Chrome's default is `relaxed`, which
 *   may lose a committed outbox write on power loss); an edit is reported saved only after its
 *   transaction committed.
 * - Write errors are never swallowed: quota errors (which Chrome reports as a transaction abort
 *   whose inner error is QuotaExceededError) are recognised, announced to `onStorageError`
 *   listeners so the UI can tell the user, and rethrown to the caller.
 * - A newer tab asking to upgrade the schema is not blocked: this connection closes and
 *   `onVersionChange` listeners are told (the app then asks for a reload).
 * - Nothing is created on import: `openOfflineDb()` makes a handle; tests make their own.
 *
 * - Every device row carries the search profile it was stored under (`profileId`, config.json's
 *   `searchProfileId`): the device answers the text search of that profile from its rows when the
 *   server cannot be reached (local-data.ts, `searchDeviceRows`). Which profile rows are stored
 *   under is this handle's `searchProfileId`, set from the config (`storeRowsUnder`); every writer
 *   of rows in lib/db takes it from there.
 *
 * Flags (isInsert/isEdit/isDelete/isRecord) are stored as 0/1, not booleans, because IndexedDB
 * cannot index booleans and "which rows are pending" must be an index lookup.
 */
import { Dexie, type Table } from 'dexie';
import type { Geometry } from 'geojson';
import { OFFLINE_DB_NAME } from '../../../common/constants';
import type { Properties } from '../../../common/schemas/wire';

type Flag = 0 | 1;

/** A row as the app keeps it offline: the server's record (or the local draft of one). */
export interface StoredRecord {
  id: number;
  tableId: number;
  properties: Properties;
  geometry?: Geometry | null;
  deleted: boolean;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface ExtentRow {
  id?: number;
  name: string;
  bounds?: { minX: number; minY: number; maxX: number; maxY: number };
  minZoom?: number;
  maxZoom?: number;
  createdAt?: string;
}

export interface VectorTileRow {
  id?: number;
  extentId: number;
  tableId?: number;
  data?: unknown;
}

export interface FeatureRow {
  tableId: number;
  /**
   * The row's key on this device, which never changes: the id it was first stored under (a row made
   * offline keeps its offline id here after the server gave it its own). Its current id is
   * `feature.id`; `deviceRow` finds a row by that (local-data.ts).
   */
  featureId: number;
  projectId: number;
  feature: StoredRecord;
  isInsert: Flag;
  isEdit: Flag;
  isDelete: Flag;
  /** 1 = a plain record (Records API), 0 = a feature (Features API). */
  isRecord: Flag;
  /** How new the row's server state is (epoch ms): when the server acknowledged its last edit,
   *  or when the read that stored it was sent. A read sent earlier may not know that state yet
   *  and must not overwrite or remove the row. */
  syncedAt?: number;
  /**
   * The search profile the row was stored under (config.json's `searchProfileId`): a text search of
   * that profile finds it on the device. Absent only on a row stored while the device knew no
   * config (none was ever loaded on it); such a row is found once a read stores it again.
   */
  profileId?: number;
}

export interface BaseMapTileRow {
  url: string;
  extentId: number;
  data?: ArrayBuffer;
  mimeType?: string;
}

export interface RasterRow {
  url: string;
  extentId: number;
  rasterId: number;
  data?: ArrayBuffer;
  mimeType?: string;
}

export interface AttachmentRow {
  /** recordAttachmentId from the server, or a local id below LOCAL_ID_BOUND until synced. */
  id: number;
  projectId: number;
  tableId: number;
  featureId: number;
  tableAttachmentInfoId: number;
  name: string;
  mimeType: string;
  size: number;
  /** File contents; ArrayBuffer rather than Blob because it clones reliably in every engine. */
  data?: ArrayBuffer;
  isInsert: Flag;
  isEdit: Flag;
  isDelete: Flag;
}

export interface LocalLayerRow {
  id?: number;
  name: string;
  data?: unknown;
}

type OutboxKind = 'insert' | 'update' | 'delete' | 'archive' | 'attachment' | 'attachmentDelete';
type OutboxStatus = 'pending' | 'failed' | 'conflict';

export interface OutboxError {
  status: number | string;
  message: string;
  detail?: string;
  /** 409: the review state of the form that keeps the edit out (a farmer's edit of a form under review). */
  reviewState?: string;
}

/** One queued edit. Order of `seq` is the order edits were made and are sent. */
export interface OutboxItem {
  seq?: number;
  /** Client-made UUID: Idempotency-Key of a single call, opId inside a bulk call (docs/architecture.md, Sync rules). */
  opId: string;
  projectId: number;
  /** Which bulk endpoint carries the operation. */
  api: 'Records' | 'Features';
  kind: OutboxKind;
  tableId: number;
  /** The record id (a local id for inserts), or the attachment id for attachment operations. */
  id: number;
  properties?: Properties;
  geometry?: Geometry | null;
  /** The version an update was based on (409 when the server has moved on). */
  version?: number;
  /** Property keys (column ids) whose values are record ids: remapped when a parent gets its server id. */
  refs?: string[];
  /** The local ids among the values of `refs` (multi-entry index: which items a remap touches). */
  refIds?: number[];
  /** Attachment operations: the record the file belongs to. */
  recordId?: number;
  tableAttachmentInfoId?: number;
  name?: string;
  mimeType?: string;
  status: OutboxStatus;
  attempts: number;
  error?: OutboxError;
  /** 409: the record as the server has it. */
  current?: unknown;
  createdAt: string;
  /** Inserts and updates: the search profile their row is stored under, kept when the server's copy replaces the row. */
  profileId?: number;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export class OfflineDb extends Dexie {
  extents!: Table<ExtentRow, number>;
  vectorTiles!: Table<VectorTileRow, number>;
  features!: Table<FeatureRow, [number, number]>;
  baseMapTiles!: Table<BaseMapTileRow, string>;
  rasters!: Table<RasterRow, string>;
  attachments!: Table<AttachmentRow, number>;
  localLayers!: Table<LocalLayerRow, number>;
  outbox!: Table<OutboxItem, number>;
  meta!: Table<MetaRow, string>;
  /** The search profile rows are stored under from now on (FeatureRow.profileId); undefined while no config is known. */
  searchProfileId: number | undefined;
  /** The key ranges of the IndexedDB this handle opens (the browser's, or the one given: tests), for requests sent straight to it. */
  readonly idbKeyRange: typeof IDBKeyRange;

  constructor(name: string, options: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange; searchProfileId?: number } = {}) {
    const { searchProfileId, ...dexieOptions } = options;
    super(name, { ...dexieOptions, chromeTransactionDurability: 'strict' });
    this.searchProfileId = searchProfileId;
    this.idbKeyRange = options.IDBKeyRange ?? globalThis.IDBKeyRange;
    // Schema history. Never edit a published version: add a new one with an upgrade function.
    this.version(1).stores({
      extents: '++id, name',
      vectorTiles: '++id, extentId, [extentId+tableId]',
      features: '[tableId+featureId], tableId, featureId, isInsert, isEdit, isDelete, isRecord, profileId',
      baseMapTiles: 'url, extentId',
      rasters: 'url, extentId, rasterId',
      attachments: 'id, [tableId+featureId], featureId, tableAttachmentInfoId, isInsert, isEdit, isDelete, projectId',
      localLayers: '++id, name',
    });
    // v2: the sync stores. The outbox lives here (not in redux-persist) so an edit and its queued
    // operation are written in one transaction.
    this.version(2).stores({
      outbox: '++seq, &opId, status, id, recordId, *refIds, [tableId+id]',
      meta: 'key',
    });
    // v3: a delivered row keeps its key and is found by its current id (`[tableId+feature.id]`):
    // an acknowledgement no longer deletes and re-puts each row it delivers. The flags are no longer
    // indexed: nothing looks rows up by them, and every index is written with each put of a row.
    this.version(3).stores({
      features: '[tableId+featureId], tableId, featureId, profileId, [tableId+feature.id]',
    });
    // v4: a table's rows are read by the range of their keys (`tableRows`), not by an index of
    // their tableId, and nothing sets profileId; nothing looks queued items up by their opId (a
    // random UUID: the server deduplicates by it). Each index is one more entry written with every
    // put of a row or item (and removed with its earlier value, or with the item when it leaves the
    // queue): an acknowledgement puts hundreds of rows and removes hundreds of items.
    this.version(4).stores({
      features: '[tableId+featureId], featureId, [tableId+feature.id]',
      outbox: '++seq, status, id, recordId, *refIds, [tableId+id]',
    });
    // v5: rows carry the search profile they were stored under (`profileId`, not indexed: a search
    // reads a table's rows by the range of their keys). Rows and queued inserts and updates stored
    // before take the profile of the config the device runs with (`searchProfileId` when the
    // database opens: the device's last good config.json); without one they stay as they are.
    // Nothing else changes: every row and every queued item is kept as it was.
    this.version(5)
      .stores({})
      .upgrade(async (tx) => {
        const profileId = this.searchProfileId;
        if (profileId === undefined) return;
        await tx
          .table<FeatureRow>('features')
          .toCollection()
          .modify((row) => {
            row.profileId ??= profileId;
          });
        await tx
          .table<OutboxItem>('outbox')
          .filter((item) => item.kind === 'insert' || item.kind === 'update')
          .modify((item) => {
            item.profileId ??= profileId;
          });
      });
    // Nothing observes this database through Dexie's liveQuery (the app is told of changes by
    // outbox-notify and its own actions). Without that bookkeeping a write no longer records every
    // key and index value it touches, nor posts them to every tab of the origin after it commits:
    // an acknowledgement writes hundreds of rows.
    this.unuse({ stack: 'dbcore', name: 'Observability' });
  }
}

type StorageErrorListener = (error: StorageError) => void;
type VersionChangeListener = () => void;

export class StorageError extends Error {
  constructor(
    readonly kind: 'quota' | 'other',
    override readonly cause: unknown,
  ) {
    super(kind === 'quota' ? 'Storage quota exceeded' : `Storage error: ${String((cause as Error)?.message ?? cause)}`);
    this.name = 'StorageError';
  }
}

const storageErrorListeners = new Map<OfflineDb, Set<StorageErrorListener>>();
const versionChangeListeners = new Map<OfflineDb, Set<VersionChangeListener>>();

function listenersOf<T>(map: Map<OfflineDb, Set<T>>, db: OfflineDb): Set<T> {
  let set = map.get(db);
  if (!set) {
    set = new Set();
    map.set(db, set);
  }
  return set;
}

export function onStorageError(db: OfflineDb, listener: StorageErrorListener): () => void {
  listenersOf(storageErrorListeners, db).add(listener);
  return () => listenersOf(storageErrorListeners, db).delete(listener);
}

export function onVersionChange(db: OfflineDb, listener: VersionChangeListener): () => void {
  listenersOf(versionChangeListeners, db).add(listener);
  return () => listenersOf(versionChangeListeners, db).delete(listener);
}

/** True for QuotaExceededError however it arrives (directly, or as the inner error of an abort). */
function isQuotaError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const e = current as { name?: string; code?: number; inner?: unknown; cause?: unknown };
    if (e.name === 'QuotaExceededError' || e.code === 22) return true;
    current = e.inner ?? e.cause;
  }
  return false;
}

/**
 * Runs a write, tells listeners about a storage failure and rethrows it: the caller must not
 * report "saved" and the user must learn that the device is out of space.
 */
export async function guardWrite<T>(db: OfflineDb, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const storageError = new StorageError(isQuotaError(error) ? 'quota' : 'other', error);
    for (const listener of listenersOf(storageErrorListeners, db)) listener(storageError);
    throw storageError;
  }
}

export interface OpenOfflineDbOptions {
  name?: string;
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
  /** The search profile of the config the device runs with, when known at open (the last good copy). */
  searchProfileId?: number;
}

/** Makes (and opens lazily) the offline database handle. */
export function openOfflineDb(options: OpenOfflineDbOptions = {}): OfflineDb {
  const dexieOptions: { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange; searchProfileId?: number } = {};
  if (options.indexedDB) dexieOptions.indexedDB = options.indexedDB;
  if (options.IDBKeyRange) dexieOptions.IDBKeyRange = options.IDBKeyRange;
  if (options.searchProfileId !== undefined) dexieOptions.searchProfileId = options.searchProfileId;
  const db = new OfflineDb(options.name ?? OFFLINE_DB_NAME, dexieOptions);
  db.on('versionchange', () => {
    // Let the newer tab upgrade; this tab must reload to use the new schema.
    db.close();
    for (const listener of listenersOf(versionChangeListeners, db)) listener();
    return false;
  });
  return db;
}

/** Rows are stored under `profileId` from now on (the config's `searchProfileId`, FeatureRow.profileId). */
export function storeRowsUnder(db: OfflineDb, profileId: number): void {
  db.searchProfileId = profileId;
}

/**
 * Asks the browser to keep our data under storage pressure. Resolves whether the
 * storage is persistent; false when the API is missing or the browser said no.
 */
export async function requestPersistentStorage(storage: StorageManager | undefined = globalThis.navigator?.storage): Promise<boolean> {
  if (!storage?.persist) return false;
  try {
    if (storage.persisted && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}
