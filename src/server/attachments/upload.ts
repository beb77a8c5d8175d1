/**
 * Receiving uploads. A multipart request is read part by part: fields are collected, each file is
 * streamed to a temporary file under DATA_DIR/tmp (never held whole in memory) and cut off at the
 * size limit. Only when every part has arrived are the files checked:
 *
 *   size ≤ limit (413) → declared MIME type on the allow list and the bytes match it (415) →
 *   images: pixel count bounded (413), decodable (415), thumbnail made.
 *
 * Nothing is stored until all checks pass; the caller stores files, writes rows in one
 * transaction, and calls `discard` in a `finally`, so a refused request leaves no file behind.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
// Type augmentation only (request.parts / isMultipart); the plugin is registered by the routes.
import type {} from '@fastify/multipart';
import { HttpError } from '../http/errors';
import type { UploadLimits } from '../env';
import { extensionFor, sanitizeFileName } from './file-name';
import { ImageError, inspectImage, makeThumbnail } from './images';
import { type AllowedMimeType, SNIFF_BYTES, contentMismatch, declaredType, isImage, sniffBinary } from './sniff';

export interface ReceivedFile {
  fieldName: string;
  /** Sanitised file name as the client sent it. */
  name: string;
  /** MIME type as the client declared it (not trusted). */
  declaredMimeType: string;
  size: number;
  tempPath: string;
  /** SHA-256 of the content (hex): part of the Idempotency-Key fingerprint of upload requests. */
  sha256: string;
}

export interface CheckedFile extends ReceivedFile {
  /** Canonical MIME type, confirmed by the content. */
  mimeType: AllowedMimeType;
  /** JPEG thumbnail for images. */
  thumbnail: Buffer | null;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

/** Human size for error details ("15 MB"). */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

export const tooLarge = (detail: string): HttpError => new HttpError(413, detail);
const unsupportedType = (detail: string): HttpError => new HttpError(415, detail);

/** Removes temporary files; never throws (called from `finally`). */
export async function discard(files: Array<{ tempPath: string }>): Promise<void> {
  await Promise.all(files.map((file) => rm(file.tempPath, { force: true }).catch(() => undefined)));
}

/** Most non-file fields a form may carry, and the longest field value (the `record` JSON of full). */
const MAX_FIELDS = 20;

/**
 * Reads every part of a multipart request. Throws HttpError 415 when the request is not
 * multipart, 413 when a file or the number of parts exceeds a limit; temporary files written so
 * far are removed before the error leaves.
 */
export async function receiveMultipart(request: FastifyRequest, tmpDir: string, limits: UploadLimits): Promise<MultipartForm> {
  if (!request.isMultipart()) throw unsupportedType('expected a multipart/form-data request');
  await mkdir(tmpDir, { recursive: true });
  const form: MultipartForm = { fields: {}, files: [] };
  try {
    const parts = request.parts({
      limits: { fileSize: limits.fileSize, files: limits.files, fields: MAX_FIELDS, fieldSize: limits.bodyLimit, parts: limits.files + MAX_FIELDS },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw tooLarge(`field "${part.fieldname}" is larger than the limit of ${describeBytes(limits.bodyLimit)}`);
        form.fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      const name = sanitizeFileName(part.filename);
      const tempPath = path.join(tmpDir, `${randomUUID()}.upload`);
      const file: ReceivedFile = { fieldName: part.fieldname, name, declaredMimeType: part.mimetype, size: 0, tempPath, sha256: '' };
      form.files.push(file);
      let size = 0;
      const hash = createHash('sha256');
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      await pipeline(part.file, measure, createWriteStream(tempPath));
      if (part.file.truncated) throw tooLarge(`file "${name}" is larger than the limit of ${describeBytes(limits.fileSize)}`);
      file.size = size;
      file.sha256 = hash.digest('hex');
    }
  } catch (error) {
    await discard(form.files);
    throw translateMultipartError(error, limits);
  }
  return form;
}

function translateMultipartError(error: unknown, limits: UploadLimits): unknown {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(`a file is larger than the limit of ${describeBytes(limits.fileSize)}`);
    case 'FST_FILES_LIMIT':
      return tooLarge(`more than ${limits.files} files in one request`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return tooLarge('too many parts in the multipart request');
    case 'FST_PROTO_VIOLATION':
      return new HttpError(400, 'field name is not allowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return new HttpError(400, 'the request ended before the multipart data was complete');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return unsupportedType('expected a multipart/form-data request');
    default:
      break;
  }
  // busboy reports malformed bodies ("Unexpected end of form", "Malformed part header") as plain errors.
  if (error instanceof Error && !(error as { statusCode?: number }).statusCode) {
    return new HttpError(400, `malformed multipart body: ${error.message}`);
  }
  return error;
}

async function readHead(file: string, bytes: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Checks one received file against the allow list, its content and (images) its pixel count;
 * makes the thumbnail. `accepted` narrows the allow list (a table's attachment slot may take
 * only photos).
 */
export async function checkFile(file: ReceivedFile, limits: UploadLimits, accepted?: readonly string[] | null): Promise<CheckedFile> {
  if (file.size === 0) throw new HttpError(400, `file "${file.name}" is empty`);
  if (file.size > limits.fileSize) throw tooLarge(`file "${file.name}" is larger than the limit of ${describeBytes(limits.fileSize)}`);
  const declared = declaredType(file.declaredMimeType, file.name);
  if (!declared) throw unsupportedType(`file "${file.name}": type "${file.declaredMimeType || 'unknown'}" is not accepted`);
  if (accepted && accepted.length > 0 && !accepted.includes(declared)) {
    throw unsupportedType(`file "${file.name}": type ${declared} is not accepted here (accepted: ${accepted.join(', ')})`);
  }
  // Binary types need only the head; text types are checked whole (they must parse).
  const head = await readHead(file.tempPath, SNIFF_BYTES);
  const content = sniffBinary(head) || declared.startsWith('image/') || declared === 'application/pdf' ? head : await readFile(file.tempPath);
  const mismatch = contentMismatch(declared, content);
  if (mismatch) throw unsupportedType(`file "${file.name}": ${mismatch}`);

  let thumbnail: Buffer | null = null;
  if (isImage(declared)) {
    try {
      await inspectImage(file.tempPath, limits.maxImagePixels);
      thumbnail = await makeThumbnail(file.tempPath, limits.thumbSize, limits.maxImagePixels);
    } catch (error) {
      if (error instanceof ImageError) {
        if (error.kind === 'too-large') throw tooLarge(`file "${file.name}": ${error.message}`);
        throw unsupportedType(`file "${file.name}": ${error.message}`);
      }
      throw error;
    }
  }
  // A name without an extension gets the one of its real type, so downloads open correctly.
  const ext = extensionFor(declared);
  const name = ext && !/\.[a-z0-9]{1,10}$/i.test(file.name) ? `${file.name}.${ext}` : file.name;
  return { ...file, name, mimeType: declared, thumbnail };
}
