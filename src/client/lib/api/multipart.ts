/**
 * Multipart bodies of the attachment and `full` calls (seed §7). Field names are the contract
 * with the server's multipart routes (src/server/routes/api/attachments, …/full).
 */
import type { CreateRecordBody } from '../../../common/schemas/wire';

export interface FilePart {
  /** The attachment slot of the table (config.json → tables.*.attachments). */
  tableAttachmentInfoId: number;
  name: string;
  mimeType: string;
  data: Blob | ArrayBuffer;
}

export interface AttachmentUpload extends FilePart {
  tableId: number;
  recordId: number;
}

export interface FullUpload {
  record: CreateRecordBody;
  files: FilePart[];
}

function toBlob(part: FilePart): Blob {
  return part.data instanceof Blob ? part.data : new Blob([part.data], { type: part.mimeType });
}

export function attachmentFormData(upload: AttachmentUpload): FormData {
  const form = new FormData();
  // Text fields first: a streaming server parser reads them before the file.
  form.append('tableId', String(upload.tableId));
  form.append('recordId', String(upload.recordId));
  form.append('tableAttachmentInfoId', String(upload.tableAttachmentInfoId));
  form.append('file', toBlob(upload), upload.name);
  return form;
}

export function fullFormData(upload: FullUpload): FormData {
  const form = new FormData();
  form.append('record', JSON.stringify(upload.record));
  for (const part of upload.files) {
    form.append('tableAttachmentInfoId', String(part.tableAttachmentInfoId));
    form.append('file', toBlob(part), part.name);
  }
  return form;
}
