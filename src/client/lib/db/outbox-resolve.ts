/**
 * What happens to a queued item that the server did not acknowledge: the drain records the
 * outcome (`markItems`: status, server message, attempts; the item stays queued) or, for an insert
 * the server already holds a live row for, turns it into an update of that row
 * (`insertBecameUpdate`); the user
 * resolves it from the sync panel — send again (`retryItem`), a conflict's "keep mine"/"take
 * theirs", or `discardItem`. Only these user actions remove an item that was not acknowledged.
 */
import type { WireRecord } from '../../../common/schemas/wire';
import { guardWrite, type FeatureRow, type OfflineDb, type OutboxError, type OutboxItem } from './database';
import { localRefIds } from './identity';
import { deviceRow, toStoredRecord } from './local-data';
import { acknowledgeInTransaction, type AckResult } from './outbox-acknowledge';
import { notifyOutboxChanged } from './outbox-notify';

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
        const row = await deviceRow(db, item.tableId, item.id);
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
      const row = await deviceRow(db, item.tableId, item.id);
      if (current && typeof current.id === 'number') {
        const left = await db.outbox.where('[tableId+id]').equals([item.tableId, item.id]).count();
        const base: FeatureRow = row ?? {
          tableId: item.tableId,
          featureId: item.id,
          projectId: item.projectId,
          feature: toStoredRecord(current),
          isInsert: 0,
          isEdit: 0,
          isDelete: 0,
          isRecord: item.api === 'Records' ? 1 : 0,
          profileId: item.profileId ?? db.searchProfileId,
        };
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
          // A queued insert's row still has its offline id as its current id and its key.
          await db.features.delete([item.tableId, item.id]);
          break;
        case 'update':
        case 'archive':
        case 'delete': {
          const row = await deviceRow(db, item.tableId, item.id);
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

/**
 * The server refused an insert because the row it would make already lives there (409 with
 * `duplicateOf`: a form's indicator of the same key, made by another tab, device or an earlier
 * lost answer). In one transaction the insert is acknowledged as that row — the offline id maps to
 * it, queued children and screens follow (identity.ts) — and queued again, in the same place, as
 * an update of it carrying the user's values based on the server's version: the user's new value
 * wins, nothing is lost, no duplicate is made. Returns the queued items rewritten (the converted
 * one included).
 */
export async function insertBecameUpdate(db: OfflineDb, seq: number, existing: WireRecord): Promise<AckResult | null> {
  let announce: () => void = () => undefined;
  const result = await guardWrite(db, () =>
    db.transaction('rw', [db.features, db.attachments, db.outbox, db.meta], async (): Promise<AckResult | null> => {
      const item = await db.outbox.get(seq);
      if (!item || item.kind !== 'insert') return null;
      const acknowledged = await acknowledgeInTransaction(db, [{ item, id: existing.id, record: existing }]);
      announce = acknowledged.announce;
      const update: OutboxItem = { ...item, kind: 'update', id: existing.id, version: existing.version, status: 'pending' };
      update.refIds = localRefIds(update.properties, update.refs);
      if (update.refIds === undefined) delete update.refIds;
      delete update.error;
      delete update.current;
      await db.outbox.put(update);
      const row = await deviceRow(db, item.tableId, existing.id);
      if (row) await db.features.put({ ...row, isEdit: 1 });
      return { mappings: acknowledged.result.mappings, updated: [...acknowledged.result.updated, update] };
    }),
  );
  announce();
  notifyOutboxChanged(db);
  return result;
}
