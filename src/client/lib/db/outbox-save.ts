/**
 * Saving edits: for each, the local row (features/attachments with isInsert/isEdit/isDelete) and
 * its queued operation, all of a save in ONE strict-durability transaction, resolved only after it
 * committed — once the UI says "saved", the edits survive a crash, a reload and a closed tab, and
 * a save is never stored in part. Offline ids the outbox already delivered are resolved to the
 * server's ids first (identity.ts).
 */
import type { Geometry } from 'geojson';
import type { Properties } from '../../../common/schemas/wire';
import { guardWrite, type AttachmentRow, type OfflineDb, type StoredRecord } from './database';
import { localRefIds, remapRefs, resolveIds } from './identity';
import { deviceRow, newLocalId } from './local-data';
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

export interface SavedEdit {
  opId: string;
  /** The row's id: a new local id for inserts and attachments. */
  id: number;
  record?: StoredRecord;
}

function nowIso(): string {
  return new Date().toISOString();
}

/**
 * The edit with every delivered offline id it names replaced by the server's id: a screen may
 * still hold the offline id of a row the outbox delivered meanwhile, and the server would refuse
 * it as an unknown row.
 */
async function resolveEdit(db: OfflineDb, edit: ReadyEdit): Promise<ReadyEdit> {
  switch (edit.kind) {
    case 'insert':
    case 'update': {
      const named = (edit.refs ?? []).map((key) => edit.properties[key]);
      const records = await resolveIds(db, 'record', edit.kind === 'update' ? [edit.id, ...named] : named);
      if (!records.size) return edit;
      const properties = remapRefs(edit.properties, edit.refs, records) ?? edit.properties;
      return edit.kind === 'update' ? { ...edit, id: records.get(edit.id) ?? edit.id, properties } : { ...edit, properties };
    }
    case 'delete':
    case 'archive': {
      const records = await resolveIds(db, 'record', [edit.id]);
      return { ...edit, id: records.get(edit.id) ?? edit.id };
    }
    case 'attachment': {
      const records = await resolveIds(db, 'record', [edit.recordId]);
      return { ...edit, recordId: records.get(edit.recordId) ?? edit.recordId };
    }
    case 'attachmentDelete': {
      const attachments = await resolveIds(db, 'attachment', [edit.attachmentId]);
      return { ...edit, attachmentId: attachments.get(edit.attachmentId) ?? edit.attachmentId };
    }
  }
}

/** The row an edit names, once the edits before it in the save are stored. */
function rowIdOf(row: number | EarlierEdit, saved: readonly SavedEdit[]): number {
  if (typeof row === 'number') return row;
  const earlier = saved[row.savedIndex];
  if (!earlier) throw new Error(`an edit names edit ${row.savedIndex} of its save, which is not stored before it`);
  return earlier.id;
}

/** The edit with the rows it names by their place in the save given by their ids, and its file as the bytes read. */
function readyEdit(edit: LocalEdit, saved: readonly SavedEdit[], files: ReadonlyMap<Blob, ArrayBuffer>): ReadyEdit {
  switch (edit.kind) {
    case 'update':
    case 'delete':
    case 'archive':
      return { ...edit, id: rowIdOf(edit.id, saved) };
    case 'attachment':
      return { ...edit, recordId: rowIdOf(edit.recordId, saved), data: edit.data instanceof ArrayBuffer ? edit.data : files.get(edit.data)! };
    default:
      return edit;
  }
}

/** Stores one edit in the caller's transaction: its row (or file) and its queued operation. */
async function storeEdit(db: OfflineDb, edit: ReadyEdit): Promise<SavedEdit> {
  const opId = newOpId();
  const api = edit.isRecord === false ? 'Features' : 'Records';
  const base = { opId, projectId: edit.projectId, api, tableId: edit.tableId, status: 'pending', attempts: 0, createdAt: nowIso() } as const;
  switch (edit.kind) {
    case 'insert': {
      const id = await newLocalId(db);
      const record: StoredRecord = {
        id,
        tableId: edit.tableId,
        properties: edit.properties,
        geometry: edit.geometry ?? null,
        deleted: false,
        archived: false,
        createdAt: nowIso(),
        updatedAt: nowIso(),
        version: 0,
      };
      await db.features.put({
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
      await db.outbox.add({
        ...base,
        kind: 'insert',
        profileId: db.searchProfileId,
        id,
        properties: edit.properties,
        geometry: edit.geometry ?? null,
        refs: edit.refs,
        refIds: localRefIds(edit.properties, edit.refs),
      });
      return { opId, id, record };
    }
    case 'update': {
      const row = await deviceRow(db, edit.tableId, edit.id);
      const properties = { ...(row?.feature.properties ?? {}), ...edit.properties };
      const geometry = edit.geometry !== undefined ? edit.geometry : (row?.feature.geometry ?? null);
      const record: StoredRecord = row
        ? { ...row.feature, properties, geometry, updatedAt: nowIso() }
        : {
            id: edit.id,
            tableId: edit.tableId,
            properties,
            geometry,
            deleted: false,
            archived: false,
            createdAt: nowIso(),
            updatedAt: nowIso(),
            version: 0,
          };
      await db.features.put({
        tableId: edit.tableId,
        featureId: row?.featureId ?? edit.id,
        projectId: edit.projectId,
        feature: record,
        isInsert: row?.isInsert ?? 0,
        isEdit: 1,
        isDelete: row?.isDelete ?? 0,
        isRecord: edit.isRecord === false ? 0 : 1,
        profileId: db.searchProfileId ?? row?.profileId,
      });
      const refs = edit.refs ?? (row && (await db.outbox.where('[tableId+id]').equals([edit.tableId, edit.id]).first())?.refs);
      await db.outbox.add({
        ...base,
        kind: 'update',
        id: edit.id,
        profileId: db.searchProfileId ?? row?.profileId,
        properties,
        geometry,
        // Offline-born rows have no server version yet: the server skips the check for them.
        version: row && row.isInsert !== 1 && row.feature.version > 0 ? row.feature.version : undefined,
        refs: refs || undefined,
        refIds: localRefIds(properties, refs || undefined),
      });
      return { opId, id: edit.id, record };
    }
    case 'delete':
    case 'archive': {
      const row = await deviceRow(db, edit.tableId, edit.id);
      if (row) {
        if (edit.kind === 'delete') await db.features.put({ ...row, isDelete: 1 });
        else await db.features.put({ ...row, isEdit: 1, feature: { ...row.feature, archived: true } });
      }
      await db.outbox.add({ ...base, kind: edit.kind, id: edit.id });
      return { opId, id: edit.id };
    }
    case 'attachment': {
      const id = await newLocalId(db);
      const row: AttachmentRow = {
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
      };
      await db.attachments.put(row);
      await db.outbox.add({
        ...base,
        kind: 'attachment',
        id,
        recordId: edit.recordId,
        tableAttachmentInfoId: edit.tableAttachmentInfoId,
        name: edit.name,
        mimeType: edit.mimeType,
      });
      return { opId, id };
    }
    case 'attachmentDelete': {
      const row = await db.attachments.get(edit.attachmentId);
      if (row) await db.attachments.put({ ...row, isDelete: 1 });
      await db.outbox.add({ ...base, kind: 'attachmentDelete', id: edit.attachmentId });
      return { opId, id: edit.attachmentId };
    }
  }
}

/**
 * Saves edits locally and queues them for the server, in order and together: ONE transaction
 * (one commit, one notification), so a save of a whole form is stored whole or not at all, and
 * resolves only after it committed. An edit may name a row (or file) made by an edit before it
 * (`EarlierEdit`). Rejects (with a StorageError, also announced to onStorageError listeners) when
 * they could not be stored — then nothing was stored and the UI must not say "saved".
 */
export async function saveEdits(db: OfflineDb, edits: readonly LocalEdit[]): Promise<SavedEdit[]> {
  if (!edits.length) return [];
  // Files are read first: reading a Blob is no IndexedDB request, and the transaction would commit while it waits.
  const blobs = edits.flatMap((edit) => (edit.kind === 'attachment' && !(edit.data instanceof ArrayBuffer) ? [edit.data] : []));
  const files = new Map(await Promise.all(blobs.map(async (blob) => [blob, await readBlobBytes(blob)] as const)));
  const saved = await guardWrite(db, () =>
    db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], async (): Promise<SavedEdit[]> => {
      const stored: SavedEdit[] = [];
      for (const edit of edits) stored.push(await storeEdit(db, await resolveEdit(db, readyEdit(edit, stored, files))));
      return stored;
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
