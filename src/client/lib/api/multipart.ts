/**
 * Multipart bodies of the attachment and `full` calls. Field names are the contract
 * with the server's multipart routes (src/server/routes/api/attachments, …/full).
 */
import type { CreateRecordBody, FeatureBody } from '../../../common/schemas/wire';

interface FilePart {
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

/**
 * POST …/full: `record` (Records) or `feature` (Features). Without `id`, or with an offline id,
 * the server creates the row; with a server id it updates it (`version` stale → 409).
 */
export interface FullUpload {
  record?: CreateRecordBody & { id?: number; version?: number };
  feature?: FeatureBody & { id?: number };
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
  if (upload.record) form.append('record', JSON.stringify(upload.record));
  if (upload.feature) form.append('feature', JSON.stringify(upload.feature));
  // Each file part is named by its attachment slot, so one request may fill several slots.
  for (const part of upload.files) form.append(String(part.tableAttachmentInfoId), toBlob(part), part.name);
  return form;
}
