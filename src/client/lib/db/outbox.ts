/**
 * The outbox: edits made on this device, in the order they were made, until the server has
 * acknowledged each one (DESIGN §5).
 *
 * Guarantees:
 * - `saveEdit` writes the local row (features/attachments with isInsert/isEdit/isDelete) and the
 *   queued operation in ONE strict-durability transaction and resolves only after it committed:
 *   once the UI says "saved", the edit survives a crash, a reload and a closed tab.
 * - An item leaves the outbox only in `acknowledge`, i.e. after the server confirmed it; failures
 *   change its status, never delete it. Only the user removes a failed or conflicting item.
 * - When an offline-made row gets its server id, every local copy that refers to the local id is
 *   rewritten in the same transaction: the row, queued operations on it, children whose `refs`
 *   point at it and attachments of it.
 * - Other tabs learn about changes through a BroadcastChannel; this tab through `onOutboxChange`.
 */
import type { Geometry } from 'geojson';
import type { Properties, WireRecord } from '../../../common/schemas/wire';
import {
  guardWrite,
  type AttachmentRow,
  type FeatureRow,
  type OfflineDb,
  type OutboxError,
  type OutboxItem,
  type StoredRecord,
} from './database';
import { deliveredKey, isLocalId, newLocalId, toStoredRecord } from './local-data';

/** A v4 UUID; crypto.randomUUID where available (secure contexts), getRandomValues otherwise. */
export function newOpId(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
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

export type LocalEdit =
  | (EditBase & { kind: 'insert'; properties: Properties; geometry?: Geometry | null; refs?: string[] })
  | (EditBase & { kind: 'update'; id: number; properties: Properties; geometry?: Geometry | null; refs?: string[] })
  | (EditBase & { kind: 'delete'; id: number })
  | (EditBase & { kind: 'archive'; id: number })
  | (EditBase & {
      kind: 'attachment';
      recordId: number;
      tableAttachmentInfoId: number;
      name: string;
      mimeType: string;
      data: ArrayBuffer | Blob;
    })
  | (EditBase & { kind: 'attachmentDelete'; attachmentId: number });

export interface SavedEdit {
  opId: string;
  /** The row's id: a new local id for inserts and attachments. */
  id: number;
  record?: StoredRecord;
}

type ChangeListener = () => void;
const changeListeners = new Map<OfflineDb, Set<ChangeListener>>();
const channels = new Map<OfflineDb, BroadcastChannel>();

function channelOf(db: OfflineDb): BroadcastChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  let channel = channels.get(db);
  if (!channel) {
    channel = new BroadcastChannel(`${db.name}:outbox`);
    channel.onmessage = () => notifyLocal(db);
    // Node (tests, bench) would otherwise keep the process alive for an idle channel.
    (channel as { unref?: () => void }).unref?.();
    channels.set(db, channel);
  }
  return channel;
}

function notifyLocal(db: OfflineDb): void {
  for (const listener of changeListeners.get(db) ?? []) listener();
}

/** Tells listeners in this tab and in other tabs that the outbox changed. */
export function notifyOutboxChanged(db: OfflineDb): void {
  notifyLocal(db);
  channelOf(db)?.postMessage('changed');
}

export function onOutboxChange(db: OfflineDb, listener: ChangeListener): () => void {
  let set = changeListeners.get(db);
  if (!set) {
    set = new Set();
    changeListeners.set(db, set);
  }
  set.add(listener);
  channelOf(db);
  return () => {
    set.delete(listener);
    if (set.size === 0) {
      channels.get(db)?.close();
      channels.delete(db);
    }
  };
}

function refIdsOf(properties: Properties | undefined, refs: string[] | undefined): number[] | undefined {
  if (!properties || !refs?.length) return undefined;
  const ids = refs.map((key) => properties[key]).filter(isLocalId);
  return ids.length ? ids : undefined;
}

function nowIso(): string {
  return new Date().toISOString();
}

async function toArrayBuffer(data: ArrayBuffer | Blob): Promise<ArrayBuffer> {
  if (data instanceof ArrayBuffer) return data;
  if (typeof data.arrayBuffer === 'function') return data.arrayBuffer();
  // Older engines (and jsdom) without Blob.arrayBuffer.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(data);
  });
}

/**
 * Offline ids the server has already given an id of its own, kept after the acknowledgement
 * (meta rows `delivered:record:<localId>` / `delivered:attachment:<localId>`): a screen may still
 * hold the offline id of a row the outbox delivered meanwhile, and an edit naming it must be sent
 * with the server id, or the server refuses it as an unknown row.
 */
export async function deliveredIds(db: OfflineDb, of: IdMapping['of'], ids: Array<number | undefined>): Promise<Map<number, number>> {
  const local = [...new Set(ids.filter(isLocalId))];
  const map = new Map<number, number>();
  if (!local.length) return map;
  const rows = await db.meta.bulkGet(local.map((id) => deliveredKey(of, id)));
  rows.forEach((row, index) => {
    if (row && typeof row.value === 'number') map.set(local[index]!, row.value);
  });
  return map;
}

/** The edit with every delivered offline id it names replaced by the server's id. */
async function withDeliveredIds(db: OfflineDb, edit: LocalEdit): Promise<LocalEdit> {
  switch (edit.kind) {
    case 'insert':
    case 'update': {
      const named = (edit.refs ?? []).map((key) => edit.properties[key]) as Array<number | undefined>;
      const records = await deliveredIds(db, 'record', edit.kind === 'update' ? [edit.id, ...named] : named);
      if (!records.size) return edit;
      const properties = remapProperties(edit.properties, edit.refs, records) ?? edit.properties;
      return edit.kind === 'update' ? { ...edit, id: records.get(edit.id) ?? edit.id, properties } : { ...edit, properties };
    }
    case 'delete':
    case 'archive': {
      const records = await deliveredIds(db, 'record', [edit.id]);
      return { ...edit, id: records.get(edit.id) ?? edit.id };
    }
    case 'attachment': {
      const records = await deliveredIds(db, 'record', [edit.recordId]);
      return { ...edit, recordId: records.get(edit.recordId) ?? edit.recordId };
    }
    case 'attachmentDelete': {
      const attachments = await deliveredIds(db, 'attachment', [edit.attachmentId]);
      return { ...edit, attachmentId: attachments.get(edit.attachmentId) ?? edit.attachmentId };
    }
  }
}

/**
 * Saves an edit locally and queues it for the server, atomically. Resolves after the commit;
 * rejects (with a StorageError, also announced to onStorageError listeners) when it could not
 * be stored — then nothing was stored and the UI must not say "saved".
 */
export async function saveEdit(db: OfflineDb, given: LocalEdit): Promise<SavedEdit> {
  const fileData = given.kind === 'attachment' ? await toArrayBuffer(given.data) : undefined;
  const result = await guardWrite(db, () =>
    db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], async (): Promise<SavedEdit> => {
      const edit = await withDeliveredIds(db, given);
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
          });
          await db.outbox.add({
            ...base,
            kind: 'insert',
            id,
            properties: edit.properties,
            geometry: edit.geometry ?? null,
            refs: edit.refs,
            refIds: refIdsOf(edit.properties, edit.refs),
          });
          return { opId, id, record };
        }
        case 'update': {
          const row = await db.features.get([edit.tableId, edit.id]);
          const properties = { ...(row?.feature.properties ?? {}), ...edit.properties };
          const geometry = edit.geometry !== undefined ? edit.geometry : (row?.feature.geometry ?? null);
          const record: StoredRecord = row
            ? { ...row.feature, properties, geometry, updatedAt: nowIso() }
            : { id: edit.id, tableId: edit.tableId, properties, geometry, deleted: false, archived: false, createdAt: nowIso(), updatedAt: nowIso(), version: 0 };
          await db.features.put({
            tableId: edit.tableId,
            featureId: edit.id,
            projectId: edit.projectId,
            feature: record,
            isInsert: row?.isInsert ?? 0,
            isEdit: 1,
            isDelete: row?.isDelete ?? 0,
            isRecord: edit.isRecord === false ? 0 : 1,
          });
          const refs = edit.refs ?? (row && (await db.outbox.where('[tableId+id]').equals([edit.tableId, edit.id]).first())?.refs);
          await db.outbox.add({
            ...base,
            kind: 'update',
            id: edit.id,
            properties,
            geometry,
            // Offline-born rows have no server version yet: the server skips the check for them.
            version: row && row.isInsert !== 1 && row.feature.version > 0 ? row.feature.version : undefined,
            refs: refs || undefined,
            refIds: refIdsOf(properties, refs || undefined),
          });
          return { opId, id: edit.id, record };
        }
        case 'delete':
        case 'archive': {
          const row = await db.features.get([edit.tableId, edit.id]);
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
            size: fileData!.byteLength,
            data: fileData,
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
    }),
  );
  notifyOutboxChanged(db);
  return result;
}

/** All queued items in the order they were made. */
export function readOutbox(db: OfflineDb): Promise<OutboxItem[]> {
  return db.outbox.orderBy('seq').toArray();
}

export interface OutboxSummary {
  pending: number;
  /** Items waiting for the user: failed (4xx) and conflicts (409). */
  attention: OutboxItem[];
}

export async function summarizeOutbox(db: OfflineDb): Promise<OutboxSummary> {
  const [pending, attention] = await Promise.all([
    db.outbox.where('status').equals('pending').count(),
    db.outbox.where('status').anyOf('failed', 'conflict').sortBy('seq'),
  ]);
  return { pending, attention };
}

/** The server's acknowledgement of one item. */
export interface Ack {
  item: OutboxItem;
  /** Server id of the row (for inserts: the new id) or of the attachment. */
  id: number;
  record?: WireRecord;
}

export interface IdMapping {
  tableId: number;
  localId: number;
  id: number;
  /** 'record' for rows, 'attachment' for attachment ids. */
  of: 'record' | 'attachment';
}

export interface AckResult {
  mappings: IdMapping[];
  /** Queued items that were rewritten (remapped ids, propagated versions), as stored now. */
  updated: OutboxItem[];
}

function remapProperties(properties: Properties | undefined, refs: string[] | undefined, map: Map<number, number>): Properties | undefined {
  if (!properties || !refs?.length) return properties;
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

/**
 * Applies acknowledgements: removes the items, updates the local rows, and rewrites local ids to
 * server ids everywhere, in one transaction.
 */
export async function acknowledge(db: OfflineDb, acks: Ack[]): Promise<AckResult> {
  if (!acks.length) return { mappings: [], updated: [] };
  const result = await guardWrite(db, () =>
    db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], async (): Promise<AckResult> => {
      const mappings: IdMapping[] = [];
      const recordMap = new Map<number, number>();
      const attachmentMap = new Map<number, number>();
      const versionBumps: Array<{ tableId: number; id: number; from: number | undefined; to: number }> = [];
      const touched = new Map<string, [number, number]>();
      const touch = (tableId: number, id: number) => touched.set(`${tableId}:${id}`, [tableId, id]);

      // Rows are read and written in bulk: one acknowledgement covers up to 200 operations.
      const recordAcks = acks.filter(({ item }) => item.kind !== 'attachment' && item.kind !== 'attachmentDelete');
      const rowKeys = recordAcks.map(({ item, id }) => [item.tableId, item.kind === 'insert' ? item.id : id] as [number, number]);
      const rows = rowKeys.length ? await db.features.bulkGet(rowKeys) : [];
      const rowsByKey = new Map<string, FeatureRow>();
      rows.forEach((row, index) => {
        if (row) rowsByKey.set(`${rowKeys[index]![0]}:${rowKeys[index]![1]}`, row);
      });
      const rowDeletes: Array<[number, number]> = [];
      const rowPuts = new Map<string, FeatureRow>();
      const syncedAt = Date.now();

      for (const { item, id, record } of recordAcks) {
        // Non-inserts are keyed by the server's id: an operation on a row inserted earlier in the
        // same call still names the local id, whose row has just been renamed.
        const key = item.kind === 'insert' ? `${item.tableId}:${item.id}` : `${item.tableId}:${id}`;
        const row = rowPuts.get(key) ?? rowsByKey.get(key);
        switch (item.kind) {
          case 'insert': {
            if (item.id !== id) {
              recordMap.set(item.id, id);
              mappings.push({ tableId: item.tableId, localId: item.id, id, of: 'record' });
            }
            if (row) {
              if (item.id !== id) {
                rowDeletes.push([item.tableId, item.id]);
                rowPuts.delete(key);
              }
              const feature: StoredRecord = {
                ...row.feature,
                id,
                version: record?.version ?? row.feature.version,
                createdAt: record?.createdAt ?? row.feature.createdAt,
                updatedAt: record?.updatedAt ?? row.feature.updatedAt,
              };
              const next = { ...row, featureId: id, feature, isInsert: 0 as const, syncedAt };
              rowPuts.set(`${item.tableId}:${id}`, next);
              rowsByKey.set(`${item.tableId}:${id}`, next);
            }
            touch(item.tableId, id);
            break;
          }
          case 'update': {
            if (row) rowPuts.set(key, { ...row, syncedAt, feature: record ? { ...row.feature, version: record.version, updatedAt: record.updatedAt } : row.feature });
            if (record) versionBumps.push({ tableId: item.tableId, id, from: item.version, to: record.version });
            touch(item.tableId, id);
            break;
          }
          case 'archive': {
            if (row) rowPuts.set(key, { ...row, syncedAt, feature: record ? toStoredRecord(record) : { ...row.feature, archived: true } });
            touch(item.tableId, id);
            break;
          }
          case 'delete':
            // Kept as a tombstone: a read sent before this acknowledgement may still list the row
            // and must not bring it back (refreshRows honours syncedAt; a later read removes it).
            if (row) rowPuts.set(key, { ...row, isDelete: 0, syncedAt, feature: { ...row.feature, deleted: true } });
            break;
        }
      }
      if (rowDeletes.length) await db.features.bulkDelete(rowDeletes);
      if (rowPuts.size) await db.features.bulkPut([...rowPuts.values()]);
      /** Local rows as this transaction left them (read again only when not written here). */
      const written = new Map(rowPuts);

      for (const { item, id } of acks) {
        if (item.kind === 'attachment') {
          const row = await db.attachments.get(item.id);
          if (row) {
            if (item.id !== id) await db.attachments.delete(item.id);
            await db.attachments.put({ ...row, id, isInsert: 0 });
          }
          if (item.id !== id) {
            attachmentMap.set(item.id, id);
            mappings.push({ tableId: item.tableId, localId: item.id, id, of: 'attachment' });
          }
        } else if (item.kind === 'attachmentDelete') {
          await db.attachments.delete(item.id);
        }
      }
      await db.outbox.bulkDelete(acks.map((ack) => ack.item.seq!));
      if (mappings.length) await db.meta.bulkPut(mappings.map((m) => ({ key: deliveredKey(m.of, m.localId), value: m.id })));

      const updated = new Map<number, OutboxItem>();
      if (recordMap.size || attachmentMap.size) {
        const localIds = [...recordMap.keys()];
        const affected = new Map<number, OutboxItem>();
        const collect = (items: OutboxItem[]) => items.forEach((item) => affected.set(item.seq!, item));
        if (localIds.length) {
          collect(await db.outbox.where('id').anyOf(localIds).toArray());
          collect(await db.outbox.where('recordId').anyOf(localIds).toArray());
          collect(await db.outbox.where('refIds').anyOf(localIds).toArray());
        }
        if (attachmentMap.size) collect(await db.outbox.where('id').anyOf([...attachmentMap.keys()]).toArray());
        // Rewritten in memory, then stored with one bulk request per store (a bulk answer can
        // remap hundreds of queued children).
        const children: OutboxItem[] = [];
        for (const item of affected.values()) {
          const isAttachmentOp = item.kind === 'attachment' || item.kind === 'attachmentDelete';
          const next: OutboxItem = { ...item };
          if (isAttachmentOp) {
            if (attachmentMap.has(item.id)) next.id = attachmentMap.get(item.id)!;
            if (item.recordId !== undefined && recordMap.has(item.recordId)) next.recordId = recordMap.get(item.recordId)!;
          } else if (recordMap.has(item.id) && item.kind !== 'insert') {
            next.id = recordMap.get(item.id)!;
          }
          next.properties = remapProperties(item.properties, item.refs, recordMap);
          next.refIds = refIdsOf(next.properties, next.refs);
          if (next.refIds === undefined) delete next.refIds;
          updated.set(next.seq!, next);
          // The local row of a child mirrors what will be sent.
          if (!isAttachmentOp && next.properties !== item.properties) children.push(next);
        }
        if (updated.size) await db.outbox.bulkPut([...updated.values()]);
        if (children.length) {
          const keys = children.map((child): [number, number] => [child.tableId, child.id]);
          const missing = keys.filter(([tableId, id]) => !written.has(`${tableId}:${id}`));
          const read = missing.length ? await db.features.bulkGet(missing) : [];
          read.forEach((row, index) => {
            if (row) written.set(`${missing[index]![0]}:${missing[index]![1]}`, row);
          });
          const childRows = new Map<string, FeatureRow>();
          for (const child of children) {
            const key = `${child.tableId}:${child.id}`;
            const row = written.get(key);
            if (!row) continue;
            const properties = remapProperties(row.feature.properties, child.refs, recordMap) ?? row.feature.properties;
            const next = { ...row, feature: { ...row.feature, properties } };
            written.set(key, next);
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

      // An acknowledged update moves the server version on; later queued updates of the same
      // record were based on the edit just delivered, not on someone else's, so they follow.
      if (versionBumps.length) {
        const later = await db.outbox.where('[tableId+id]').anyOf(versionBumps.map((b) => [b.tableId, b.id])).toArray();
        const bumped = new Map<number, OutboxItem>();
        for (const bump of versionBumps) {
          for (const item of later) {
            if (item.tableId !== bump.tableId || item.id !== bump.id) continue;
            const current = updated.get(item.seq!) ?? item;
            if (current.kind === 'update' && current.version !== undefined && current.version === bump.from) {
              const next = { ...current, version: bump.to };
              updated.set(next.seq!, next);
              bumped.set(next.seq!, next);
            }
          }
        }
        if (bumped.size) await db.outbox.bulkPut([...bumped.values()]);
      }

      // Clear flags of rows with nothing left in the queue.
      if (touched.size) {
        const keys = [...touched.values()];
        const left = new Set((await db.outbox.where('[tableId+id]').anyOf(keys).toArray()).map((item) => `${item.tableId}:${item.id}`));
        const clear = keys.filter(([tableId, id]) => !left.has(`${tableId}:${id}`));
        const unread = clear.filter(([tableId, id]) => !written.has(`${tableId}:${id}`));
        const read = unread.length ? await db.features.bulkGet(unread) : [];
        read.forEach((row, index) => {
          if (row) written.set(`${unread[index]![0]}:${unread[index]![1]}`, row);
        });
        const flagged = clear
          .map(([tableId, id]) => written.get(`${tableId}:${id}`))
          .filter((row): row is FeatureRow => !!row && (row.isEdit === 1 || row.isInsert === 1));
        if (flagged.length) await db.features.bulkPut(flagged.map((row) => ({ ...row, isInsert: 0 as const, isEdit: 0 as const })));
      }
      return { mappings, updated: [...updated.values()] };
    }),
  );
  notifyOutboxChanged(db);
  return result;
}

/** Records the outcome of a failed attempt (status, server message); the item stays queued. */
export async function markItems(
  db: OfflineDb,
  seqs: number[],
  patch: { status?: OutboxItem['status']; error?: OutboxError | undefined; current?: unknown; attemptsDelta?: number },
): Promise<void> {
  await guardWrite(db, () =>
    db.transaction('rw', db.outbox, async () => {
      const items = await db.outbox.bulkGet(seqs);
      const changed: OutboxItem[] = [];
      for (const item of items) {
        if (!item) continue;
        const next: OutboxItem = { ...item, attempts: item.attempts + (patch.attemptsDelta ?? 0) };
        if (patch.status) next.status = patch.status;
        if ('error' in patch) {
          if (patch.error) next.error = patch.error;
          else delete next.error;
        }
        if ('current' in patch) {
          if (patch.current !== undefined) next.current = patch.current;
          else delete next.current;
        }
        changed.push(next);
      }
      if (changed.length) await db.outbox.bulkPut(changed);
    }),
  );
  notifyOutboxChanged(db);
}

/** The user asks to send a failed item again. */
export function retryItem(db: OfflineDb, seq: number): Promise<void> {
  return markItems(db, [seq], { status: 'pending', error: undefined, current: undefined });
}

/** Conflict, "keep mine": send my edit again, now based on the server's current version. */
export async function keepMine(db: OfflineDb, seq: number): Promise<void> {
  await guardWrite(db, () =>
    db.transaction('rw', [db.outbox, db.features], async () => {
      const item = await db.outbox.get(seq);
      if (!item) return;
      const current = item.current as Partial<WireRecord> | undefined;
      const next: OutboxItem = { ...item, status: 'pending' };
      if (typeof current?.version === 'number') {
        next.version = current.version;
        const row = await db.features.get([item.tableId, item.id]);
        if (row) await db.features.put({ ...row, feature: { ...row.feature, version: current.version } });
      }
      delete next.error;
      delete next.current;
      await db.outbox.put(next);
    }),
  );
  notifyOutboxChanged(db);
}

/** Conflict, "take theirs": drop my edit and keep the server's row. */
export async function takeTheirs(db: OfflineDb, seq: number): Promise<void> {
  await guardWrite(db, () =>
    db.transaction('rw', [db.outbox, db.features], async () => {
      const item = await db.outbox.get(seq);
      if (!item) return;
      await db.outbox.delete(seq);
      const current = item.current as WireRecord | undefined;
      const row = await db.features.get([item.tableId, item.id]);
      if (current && typeof current.id === 'number') {
        const left = await db.outbox.where('[tableId+id]').equals([item.tableId, item.id]).count();
        const base: FeatureRow = row ?? { tableId: item.tableId, featureId: item.id, projectId: item.projectId, feature: toStoredRecord(current), isInsert: 0, isEdit: 0, isDelete: 0, isRecord: item.api === 'Records' ? 1 : 0 };
        await db.features.put({ ...base, feature: toStoredRecord(current), isEdit: left ? base.isEdit : 0, isDelete: 0 });
      }
    }),
  );
  notifyOutboxChanged(db);
}

/** The user discards a failed item: the queued operation and its local effect are undone. */
export async function discardItem(db: OfflineDb, seq: number): Promise<void> {
  await guardWrite(db, () =>
    db.transaction('rw', [db.outbox, db.features, db.attachments], async () => {
      const item = await db.outbox.get(seq);
      if (!item) return;
      await db.outbox.delete(seq);
      const left = await db.outbox.where('[tableId+id]').equals([item.tableId, item.id]).count();
      switch (item.kind) {
        case 'insert':
          await db.features.delete([item.tableId, item.id]);
          break;
        case 'update':
        case 'archive':
        case 'delete': {
          const row = await db.features.get([item.tableId, item.id]);
          // The local copy is refreshed from the server on the next online read.
          if (row && !left) await db.features.put({ ...row, isEdit: 0, isDelete: 0 });
          break;
        }
        case 'attachment':
          await db.attachments.delete(item.id);
          break;
        case 'attachmentDelete': {
          const row = await db.attachments.get(item.id);
          if (row) await db.attachments.put({ ...row, isDelete: 0 });
          break;
        }
      }
    }),
  );
  notifyOutboxChanged(db);
}
