/**
 * Saving edits: for each, the local row (features/attachments with isInsert/isEdit/isDelete) and
 * its queued operation, all of a save in ONE strict-durability transaction, resolved only after it
 * committed — once the UI says "saved", the edits survive a crash, a reload and a closed tab, and
 * a save is never stored in part. Offline ids the outbox already delivered are resolved to the
 * server's ids first (identity.ts).
 */
import type { Geometry } from 'geojson';
import { isLocalId } from '../../../common/record-id';
import type { Properties } from '../../../common/schemas/wire';
import { Dexie } from 'dexie';
import { guardWrite, type AttachmentRow, type FeatureRow, type OfflineDb, type OutboxItem, type StoredRecord } from './database';
import { isAttachmentOp, localRefIds, remapRefs, resolveIds } from './identity';
import { deviceRows, newLocalIds, type RowId } from './local-data';
import { notifyOutboxChanged } from './outbox-notify';
import { readBlobBytes } from '../file/read-blob';

/**
 * A version 7 UUID: 48 bits of Unix milliseconds, then 74 random bits. Time-ordered, so a
 * device's operations land at the end of the server's index of applied operations (per caller)
 * instead of at random places in it: a bulk call then rewrites a few index pages, not one per
 * operation.
 */
export function newOpId(): string {
  const bytes = new Uint8Array(16);
  const c = globalThis.crypto;
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  let ms = Date.now();
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

interface EditBase {
  projectId: number;
  tableId: number;
  /** Records API (default) or Features API. */
  isRecord?: boolean;
}

/**
 * An edit earlier in the same save (`saveEdits`), by its place in the list: the row (or file) it
 * made, whose offline id is given only when it is stored. A new indicator's photo names its row so.
 */
export interface EarlierEdit {
  savedIndex: number;
}

/** The edits of the outbox, naming rows as `Row`, a file's contents as `File`. */
type EditOf<Row, File> =
  | (EditBase & { kind: 'insert'; properties: Properties; geometry?: Geometry | null; refs?: string[] })
  | (EditBase & { kind: 'update'; id: Row; properties: Properties; geometry?: Geometry | null; refs?: string[] })
  | (EditBase & { kind: 'delete'; id: Row })
  | (EditBase & { kind: 'archive'; id: Row })
  | (EditBase & {
      kind: 'attachment';
      recordId: Row;
      tableAttachmentInfoId: number;
      name: string;
      mimeType: string;
      data: File;
    })
  | (EditBase & { kind: 'attachmentDelete'; attachmentId: number });

/** An edit as a screen saves it: its row by id, or made earlier in the same save. */
export type LocalEdit = EditOf<number | EarlierEdit, ArrayBuffer | Blob>;
/** An edit whose rows are ids and whose file is bytes: what the transaction stores. */
type ReadyEdit = EditOf<number, ArrayBuffer>;

export interface SaveOptions {
  /**
   * `meta` rows the save makes obsolete (a form's unsaved answers kept on the device), deleted in
   * the same transaction: the device never holds the saved answers and the same answers unsaved.
   */
  forget?: readonly string[];
}

export interface SavedEdit {
  opId: string;
  /** The row's id: a new local id for inserts and attachments. */
  id: number;
  record?: StoredRecord;
}

function nowIso(): string {
  return new Date().toISOString();
}

/** A record as this device makes it: a new row, or an update of a row the device does not hold; the server gives its version. */
function newRecord(id: number, tableId: number, properties: Properties, geometry: Geometry | null): StoredRecord {
  const now = nowIso();
  return { id, tableId, properties, geometry, deleted: false, archived: false, createdAt: now, updatedAt: now, version: 0 };
}

/** An edit of a save with its rows by id and its file as bytes, and the id of what it changes (a new row's or file's offline id). */
interface ReadyStep {
  edit: ReadyEdit;
  id: number;
}

/** Inserts and file uploads: the edits that make a row or a file, which get a new offline id. */
const makesNew = (edit: LocalEdit) => edit.kind === 'insert' || edit.kind === 'attachment';

/** `tableId:id` of a row by its current id. */
const rowKey = (tableId: number, id: number) => `${tableId}:${id}`;

/** The ids an edit names as numbers (its row, its file's row, its reference columns): delivered offline ids among them are looked up. */
function namedIds(edit: LocalEdit): { records: unknown[]; attachments: unknown[] } {
  const refs = 'properties' in edit ? (edit.refs ?? []).map((key) => edit.properties[key]) : [];
  if (edit.kind === 'attachmentDelete') return { records: [], attachments: [edit.attachmentId] };
  const row = edit.kind === 'insert' ? [] : [edit.kind === 'attachment' ? edit.recordId : edit.id];
  return { records: [...row, ...refs], attachments: [] };
}

/**
 * The server ids of the delivered offline ids the edits name: a screen may still hold the offline
 * id of a row the outbox delivered meanwhile, and the server would refuse it as an unknown row.
 */
function deliveredIds(db: OfflineDb, edits: readonly LocalEdit[]): PromiseLike<[Map<number, number>, Map<number, number>]> {
  const named = edits.map(namedIds);
  const records = named.flatMap((ids) => ids.records).filter(isLocalId);
  const files = named.flatMap((ids) => ids.attachments).filter(isLocalId);
  // Composed with Dexie's promises only: Dexie follows its transaction across native promises for a few steps only.
  if (!records.length && !files.length) return Dexie.Promise.resolve([new Map(), new Map()]);
  return Dexie.Promise.all([resolveIds(db, 'record', records), resolveIds(db, 'attachment', files)]);
}

/**
 * The edits as the transaction stores them: new rows and files take the offline ids given
 * (`fresh`, in order), a row named by its place in the save (`EarlierEdit`) the id of that earlier
 * edit's row, delivered offline ids the server's (`records`, `attachments`), a file its bytes.
 */
function readySteps(
  edits: readonly LocalEdit[],
  fresh: readonly number[],
  files: ReadonlyMap<Blob, ArrayBuffer>,
  [records, attachments]: [ReadonlyMap<number, number>, ReadonlyMap<number, number>],
): ReadyStep[] {
  const steps: ReadyStep[] = [];
  let next = 0;
  const rowId = (row: number | EarlierEdit): number => {
    if (typeof row === 'number') return records.get(row) ?? row;
    const earlier = steps[row.savedIndex];
    if (!earlier) throw new Error(`an edit names edit ${row.savedIndex} of its save, which is not stored before it`);
    return earlier.id;
  };
  for (const edit of edits) {
    switch (edit.kind) {
      case 'insert':
        steps.push({ edit: { ...edit, properties: remapRefs(edit.properties, edit.refs, records) ?? edit.properties }, id: fresh[next++]! });
        break;
      case 'update': {
        const id = rowId(edit.id);
        steps.push({ edit: { ...edit, id, properties: remapRefs(edit.properties, edit.refs, records) ?? edit.properties }, id });
        break;
      }
      case 'delete':
      case 'archive': {
        const id = rowId(edit.id);
        steps.push({ edit: { ...edit, id }, id });
        break;
      }
      case 'attachment': {
        const data = edit.data instanceof ArrayBuffer ? edit.data : files.get(edit.data)!;
        steps.push({ edit: { ...edit, recordId: rowId(edit.recordId), data }, id: fresh[next++]! });
        break;
      }
      case 'attachmentDelete': {
        const id = attachments.get(edit.attachmentId) ?? edit.attachmentId;
        steps.push({ edit: { ...edit, attachmentId: id }, id });
        break;
      }
    }
  }
  return steps;
}

/** What a save's edits change, as the device holds it before the save: read together, one request per kind. */
interface SaveReads {
  /** Device rows of updates, deletes and archives, by `tableId:id` (their current id). */
  rows: Map<string, FeatureRow>;
  /** Files of file deletes, by id. */
  files: Map<number, AttachmentRow>;
  /** The reference columns of the row's first queued item, by `tableId:id`, for updates given without `refs`. */
  queuedRefs: Map<string, string[] | undefined>;
}

function readTargets(db: OfflineDb, steps: readonly ReadyStep[], fresh: ReadonlySet<number>): PromiseLike<SaveReads> {
  const rowIds = new Map<string, RowId>();
  const refless = new Map<string, RowId>();
  const fileIds: number[] = [];
  for (const { edit, id } of steps) {
    if (edit.kind === 'attachmentDelete') {
      if (!fresh.has(id)) fileIds.push(id);
      continue;
    }
    if (edit.kind === 'insert' || edit.kind === 'attachment' || fresh.has(id)) continue;
    rowIds.set(rowKey(edit.tableId, id), [edit.tableId, id]);
    if (edit.kind === 'update' && edit.refs === undefined) refless.set(rowKey(edit.tableId, id), [edit.tableId, id]);
  }
  // Composed with Dexie's promises only: the transaction is followed across them.
  return Dexie.Promise.all([
    deviceRows(db, [...rowIds.values()]),
    fileIds.length ? db.attachments.bulkGet(fileIds) : [],
    refless.size
      ? db.outbox
          .where('[tableId+id]')
          .anyOf([...refless.values()])
          .toArray()
      : [],
  ]).then(([rows, files, queued]) => {
    const reads: SaveReads = { rows: new Map(), files: new Map(), queuedRefs: new Map() };
    for (const row of rows) reads.rows.set(rowKey(row.tableId, row.feature.id), row);
    for (const file of files) if (file) reads.files.set(file.id, file);
    // In the order of the index, then of seq: the first item of each row is its earliest.
    for (const item of queued) {
      const key = rowKey(item.tableId, item.id);
      if (!reads.queuedRefs.has(key)) reads.queuedRefs.set(key, item.refs);
    }
    return reads;
  });
}

/** What a save writes: each row and file once, as the save leaves it, and the queued items in order. */
interface SaveWrites {
  /** Device rows by their key (`tableId:featureId`). */
  rows: Map<string, FeatureRow>;
  files: Map<number, AttachmentRow>;
  items: OutboxItem[];
  saved: SavedEdit[];
}

/**
 * The save's rows, files and queued items, in memory and in order: an edit sees the rows and
 * files as the edits before it in the same save left them.
 */
function planWrites(db: OfflineDb, steps: readonly ReadyStep[], reads: SaveReads): SaveWrites {
  const writes: SaveWrites = { rows: new Map(), files: new Map(), items: [], saved: [] };
  /** Rows as the save has left them so far, by current id. */
  const rows = new Map(reads.rows);
  const files = new Map(reads.files);
  const putRow = (row: FeatureRow) => {
    rows.set(rowKey(row.tableId, row.feature.id), row);
    writes.rows.set(rowKey(row.tableId, row.featureId), row);
  };
  const putFile = (file: AttachmentRow) => {
    files.set(file.id, file);
    writes.files.set(file.id, file);
  };
  /** The reference columns of a row's first queued item: queued before the save, else earlier in it. */
  const queuedRefs = (tableId: number, id: number) => {
    const key = rowKey(tableId, id);
    if (reads.queuedRefs.has(key)) return reads.queuedRefs.get(key);
    return writes.items.find((item) => item.tableId === tableId && item.id === id && !isAttachmentOp(item))?.refs;
  };
  for (const { edit, id } of steps) {
    const opId = newOpId();
    const api = edit.isRecord === false ? 'Features' : 'Records';
    const base = { opId, projectId: edit.projectId, api, tableId: edit.tableId, status: 'pending', attempts: 0, createdAt: nowIso() } as const;
    switch (edit.kind) {
      case 'insert': {
        const record = newRecord(id, edit.tableId, edit.properties, edit.geometry ?? null);
        putRow({
          tableId: edit.tableId,
          featureId: id,
          projectId: edit.projectId,
          feature: record,
          isInsert: 1,
          isEdit: 0,
          isDelete: 0,
          isRecord: edit.isRecord === false ? 0 : 1,
          profileId: db.searchProfileId,
        });
        writes.items.push({
          ...base,
          kind: 'insert',
          profileId: db.searchProfileId,
          id,
          properties: edit.properties,
          geometry: edit.geometry ?? null,
          refs: edit.refs,
          refIds: localRefIds(edit.properties, edit.refs),
        });
        writes.saved.push({ opId, id, record });
        break;
      }
      case 'update': {
        const row = rows.get(rowKey(edit.tableId, id));
        const properties = { ...(row?.feature.properties ?? {}), ...edit.properties };
        const geometry = edit.geometry !== undefined ? edit.geometry : (row?.feature.geometry ?? null);
        const record: StoredRecord = row ? { ...row.feature, properties, geometry, updatedAt: nowIso() } : newRecord(id, edit.tableId, properties, geometry);
        putRow({
          tableId: edit.tableId,
          featureId: row?.featureId ?? id,
          projectId: edit.projectId,
          feature: record,
          isInsert: row?.isInsert ?? 0,
          isEdit: 1,
          isDelete: row?.isDelete ?? 0,
          isRecord: edit.isRecord === false ? 0 : 1,
          profileId: db.searchProfileId ?? row?.profileId,
        });
        const refs = edit.refs ?? (row ? queuedRefs(edit.tableId, id) : undefined);
        writes.items.push({
          ...base,
          kind: 'update',
          id,
          profileId: db.searchProfileId ?? row?.profileId,
          properties,
          geometry,
          // Offline-born rows have no server version yet: the server skips the check for them.
          version: row && row.isInsert !== 1 && row.feature.version > 0 ? row.feature.version : undefined,
          refs: refs || undefined,
          refIds: localRefIds(properties, refs || undefined),
        });
        writes.saved.push({ opId, id, record });
        break;
      }
      case 'delete':
      case 'archive': {
        const row = rows.get(rowKey(edit.tableId, id));
        if (row) {
          if (edit.kind === 'delete') putRow({ ...row, isDelete: 1 });
          else putRow({ ...row, isEdit: 1, feature: { ...row.feature, archived: true } });
        }
        writes.items.push({ ...base, kind: edit.kind, id });
        writes.saved.push({ opId, id });
        break;
      }
      case 'attachment': {
        putFile({
          id,
          projectId: edit.projectId,
          tableId: edit.tableId,
          featureId: edit.recordId,
          tableAttachmentInfoId: edit.tableAttachmentInfoId,
          name: edit.name,
          mimeType: edit.mimeType,
          size: edit.data.byteLength,
          data: edit.data,
          isInsert: 1,
          isEdit: 0,
          isDelete: 0,
        });
        writes.items.push({
          ...base,
          kind: 'attachment',
          id,
          recordId: edit.recordId,
          tableAttachmentInfoId: edit.tableAttachmentInfoId,
          name: edit.name,
          mimeType: edit.mimeType,
        });
        writes.saved.push({ opId, id });
        break;
      }
      case 'attachmentDelete': {
        const file = files.get(id);
        if (file) putFile({ ...file, isDelete: 1 });
        writes.items.push({ ...base, kind: 'attachmentDelete', id });
        writes.saved.push({ opId, id });
        break;
      }
    }
  }
  return writes;
}

/**
 * Saves edits locally and queues them for the server, in order and together: ONE transaction
 * (one commit, one notification), so a save of a whole form is stored whole or not at all, and
 * resolves only after it committed. An edit may name a row (or file) made by an edit before it
 * (`EarlierEdit`). IndexedDB's cost is per request and per wait for an answer, so a save waits a
 * few times whatever its size: its new ids, the delivered ids it names, what it changes (read
 * together), then every write sent together. Rejects (with a StorageError, also announced to
 * onStorageError listeners) when they could not be stored — then nothing was stored and the UI
 * must not say "saved".
 */
export async function saveEdits(db: OfflineDb, edits: readonly LocalEdit[], { forget = [] }: SaveOptions = {}): Promise<SavedEdit[]> {
  if (!edits.length) return [];
  // Files are read first: reading a Blob is no IndexedDB request, and the transaction would commit while it waits.
  const blobs = edits.flatMap((edit) => (edit.kind === 'attachment' && !(edit.data instanceof ArrayBuffer) ? [edit.data] : []));
  const files = new Map(await Promise.all(blobs.map(async (blob) => [blob, await readBlobBytes(blob)] as const)));
  const saved = await guardWrite(db, () =>
    db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], async (): Promise<SavedEdit[]> => {
      // Composed with Dexie's promises only: the transaction is followed across them.
      const [fresh, delivered] = await Dexie.Promise.all([newLocalIds(db, edits.filter(makesNew).length), deliveredIds(db, edits)]);
      const steps = readySteps(edits, fresh, files, delivered);
      const writes = planWrites(db, steps, await readTargets(db, steps, new Set(fresh)));
      await Dexie.Promise.all([
        writes.rows.size ? db.features.bulkPut([...writes.rows.values()]) : undefined,
        writes.files.size ? db.attachments.bulkPut([...writes.files.values()]) : undefined,
        db.outbox.bulkAdd(writes.items),
        forget.length ? db.meta.bulkDelete([...forget]) : undefined,
      ]);
      return writes.saved;
    }),
  );
  notifyOutboxChanged(db);
  return saved;
}

/** `saveEdits` of one edit. */
export async function saveEdit(db: OfflineDb, edit: LocalEdit): Promise<SavedEdit> {
  const [saved] = await saveEdits(db, [edit]);
  return saved!;
}
