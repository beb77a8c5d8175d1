/**
 * Attachment rows (name, MIME type, size, storage keys) in the `attachments` table of
 * src/server/db (migration 0001). Routes call these functions, never SQL. Every function takes
 * an Executor so the `full` routes can run them inside the record's transaction.
 *
 * Deleting marks the row deleted (the history of what was attached stays) and the caller removes
 * the bytes; quota and listings count live rows only.
 */
import type { AttachmentInfo } from '../../common/schemas/wire';
import type { Executor } from '../db/dialect';

export interface AttachmentRow {
  id: number;
  projectId: number;
  recordId: number;
  tableId: number;
  tableAttachmentInfoId: number;
  name: string;
  mimeType: string;
  size: number;
  storageKey: string;
  thumbKey: string | null;
  createdAt: string;
  createdBy: string | null;
}

export interface NewAttachment {
  recordId: number;
  tableId: number;
  tableAttachmentInfoId: number;
  name: string;
  mimeType: string;
  size: number;
  storageKey: string;
  thumbKey: string | null;
  createdBy: string | null;
  createdAt: string;
}

export function toAttachmentInfo(
  row: Pick<AttachmentRow, 'id' | 'tableId' | 'recordId' | 'tableAttachmentInfoId' | 'name' | 'mimeType' | 'size' | 'createdAt' | 'thumbKey'>,
): AttachmentInfo {
  return {
    id: row.id,
    tableId: row.tableId,
    recordId: row.recordId,
    tableAttachmentInfoId: row.tableAttachmentInfoId,
    name: row.name,
    mimeType: row.mimeType,
    size: row.size,
    createdAt: row.createdAt,
    hasThumb: row.thumbKey !== null,
  };
}

function selectAttachments(db: Executor) {
  return db
    .selectFrom('attachments')
    .innerJoin('project_tables', 'project_tables.id', 'attachments.table_id')
    .select([
      'attachments.id as id',
      'project_tables.project_id as projectId',
      'attachments.record_id as recordId',
      'attachments.table_id as tableId',
      'attachments.table_attachment_info_id as tableAttachmentInfoId',
      'attachments.name as name',
      'attachments.mime_type as mimeType',
      'attachments.size as size',
      'attachments.storage_key as storageKey',
      'attachments.thumb_key as thumbKey',
      'attachments.created_at as createdAt',
      'attachments.created_by as createdBy',
    ])
    .where('attachments.deleted', '=', 0);
}

/** A live attachment of the project, or undefined. */
export async function findAttachment(db: Executor, projectId: number, id: number): Promise<AttachmentRow | undefined> {
  return selectAttachments(db).where('attachments.id', '=', id).where('project_tables.project_id', '=', projectId).executeTakeFirst();
}

export async function listAttachments(db: Executor, recordId: number, tableAttachmentInfoId: number): Promise<AttachmentRow[]> {
  return selectAttachments(db)
    .where('attachments.record_id', '=', recordId)
    .where('attachments.table_attachment_info_id', '=', tableAttachmentInfoId)
    .orderBy('attachments.id')
    .execute();
}

/** Live attachments of a record across all slots (used when a record's attachments are counted). */
export async function countInSlot(db: Executor, recordId: number, tableAttachmentInfoId: number): Promise<number> {
  const row = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('record_id', '=', recordId)
    .where('table_attachment_info_id', '=', tableAttachmentInfoId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Bytes of live attachments uploaded by `createdBy` (the per-user quota). */
export async function usedBytes(db: Executor, createdBy: string): Promise<number> {
  const row = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.sum<number | null>('size').as('total'))
    .where('created_by', '=', createdBy)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function insertAttachment(db: Executor, attachment: NewAttachment): Promise<AttachmentRow & { projectId: number }> {
  const inserted = await db
    .insertInto('attachments')
    .values({
      record_id: attachment.recordId,
      table_id: attachment.tableId,
      table_attachment_info_id: attachment.tableAttachmentInfoId,
      name: attachment.name,
      mime_type: attachment.mimeType,
      size: attachment.size,
      storage_key: attachment.storageKey,
      thumb_key: attachment.thumbKey,
      created_at: attachment.createdAt,
      created_by: attachment.createdBy,
      deleted: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await selectAttachments(db).where('attachments.id', '=', inserted.id).executeTakeFirstOrThrow();
  return row;
}

export async function markAttachmentDeleted(db: Executor, id: number): Promise<void> {
  await db.updateTable('attachments').set({ deleted: 1 }).where('id', '=', id).execute();
}

/** Live attachments of a record across all its slots, oldest first (the detailed feature). */
export async function liveAttachmentsOf(db: Executor, recordId: number): Promise<AttachmentRow[]> {
  return selectAttachments(db).where('attachments.record_id', '=', recordId).orderBy('attachments.id').execute();
}

/** Whether attachment `id` is marked deleted (its deletion committed). */
export async function isAttachmentDeleted(db: Executor, id: number): Promise<boolean> {
  const row = await db.selectFrom('attachments').select('deleted').where('id', '=', id).executeTakeFirst();
  return row?.deleted === 1;
}
