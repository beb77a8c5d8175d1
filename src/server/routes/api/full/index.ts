/**
 * The `full` calls: a record (or feature) and its attachments in one multipart request,
 * all or nothing.
 *   POST /api/Records/{projectId}/full            part `record`:  {tableId, id?, properties, geometry?, version?}
 *   POST /api/Features/{projectId}/{tableId}/full part `feature`: {type:'Feature', id?, geometry, properties, version?}
 * plus file parts named by their attachment slot (its tableAttachmentInfoId or its name, e.g.
 * `photos`); parts named `file` go to the slot given in the `tableAttachmentInfoId` field, or to
 * the table's only slot.
 *
 * Without `id`, or with an offline id (below LOCAL_ID_BOUND), the record is created (201, the
 * answer carries `localId` for remapping); with a server id it is updated (200; `version` stale →
 * 409). Every file is checked before the transaction starts; the record write, the attachment rows
 * and the quota check share one transaction with Idempotency-Key support, and the stored bytes are
 * removed if it fails, so a refused request leaves neither a row nor a file.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import { isLocalId } from '../../../../common/record-id';
import { FullResult, IdempotencyHeaders, ProjectParams, TableParams } from '../../../../common/schemas/wire';
import { requestContext } from '../../../http/request-context';
import { assertRecordAccess } from '../../../repositories/record-repository';
import { assertFarmerMayAttach } from '../../../repositories/review-rules';
import { assertMayWrite } from '../../../access/policy';
import { insertAttachment, toAttachmentInfo } from '../../../attachments/attachment-repository';
import { assertQuota, assertSlotRoom, removeStored, storeFiles, type AttachmentService, type StoredFile } from '../../../attachments/service';
import { type CheckedFile, checkFile, discard, receiveMultipart, type MultipartForm } from '../../../attachments/upload';
import { invalid, notFound } from '../../../domain-errors';
import { runWrite } from '../../../http/idempotency';
import { uploadErrorResponses } from '../../../http/schemas';
import type { AttachmentSlot, TableInfo } from '../../../project-schema';
import { insertRecord, updateRecord } from '../../../repositories/record-writer';
import { refuseReaders, uploaderOf } from '../attachments';
import { beforeResponse, beforeResponseHook, runBeforeResponse } from '../attachments/before-response';
import { assertOnlyFields, jsonField, optionalIntField, multipartFingerprint } from '../attachments/form-fields';
import { multipartDoc } from '../attachments/multipart-doc';

export interface FullRoutesOptions {
  service: AttachmentService;
}

interface FullInput {
  table: TableInfo;
  /** Server id to update; undefined = create. */
  id?: number;
  /** Offline id the client made (create only), echoed back. */
  localId?: number;
  properties: unknown;
  geometry?: unknown;
  version?: number;
}

const DEFAULT_FILE_FIELDS = ['file', 'files'];

function optionalInteger(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) throw invalid(`${path} must be a positive integer`);
  return value;
}

function assertKeys(part: Record<string, unknown>, allowed: string[], name: string): void {
  const extra = Object.keys(part).find((key) => !allowed.includes(key));
  // Mass assignment: createdAt, deleted, archived … are the server's to set.
  if (extra) throw invalid(`${name}.${extra} is not allowed`);
}

function splitId(id: number | undefined): { id?: number; localId?: number } {
  if (id === undefined) return {};
  return isLocalId(id) ? { localId: id } : { id };
}

/** Which slot each file part goes to. */
function slotsForFiles(form: MultipartForm, table: TableInfo): Array<{ file: MultipartForm['files'][number]; slot: AttachmentSlot }> {
  const defaultSlotId = optionalIntField(form, 'tableAttachmentInfoId');
  return form.files.map((file) => {
    let slot: AttachmentSlot | undefined;
    if (DEFAULT_FILE_FIELDS.includes(file.fieldName)) {
      if (defaultSlotId !== undefined) slot = table.attachmentSlots.find((s) => s.id === defaultSlotId);
      else if (table.attachmentSlots.length === 1) slot = table.attachmentSlots[0];
      if (!slot) {
        throw invalid(
          defaultSlotId !== undefined
            ? `tableAttachmentInfoId: ${defaultSlotId} is not an attachment slot of table ${table.key} (${table.id})`
            : `file part "${file.fieldName}": name the attachment slot (tableAttachmentInfoId field or a part named by the slot)`,
        );
      }
    } else {
      slot = table.attachmentSlots.find((s) => String(s.id) === file.fieldName || s.name === file.fieldName);
      if (!slot) throw invalid(`file part "${file.fieldName}" names no attachment slot of table ${table.key} (${table.id})`);
    }
    return { file, slot };
  });
}

async function handleFull(
  app: FastifyInstance,
  service: AttachmentService,
  request: FastifyRequest,
  reply: FastifyReply,
  readInput: (form: MultipartForm) => FullInput,
): Promise<FastifyReply> {
  refuseReaders(request);
  const form = await receiveMultipart(request, service.tmpDir, service.limits);
  beforeResponse(request, () => discard(form.files));
  let stored: StoredFile[] = [];
  try {
    const input = readInput(form);
    const { table } = input;
    const ctx = requestContext(request);
    const placed = slotsForFiles(form, table);

    // Access before the (slow) content checks: a stranger or reader learns nothing from file errors.
    if (input.id !== undefined) {
      const current = await assertRecordAccess(ctx, input.id);
      if (current.tableId !== table.id) throw notFound(`record ${input.id} not found in table ${table.key} (${table.id})`);
      assertMayWrite(ctx.access, table.key, 'update');
    } else {
      assertMayWrite(ctx.access, table.key, 'insert');
    }
    if (placed.length > 0) assertMayWrite(ctx.access, table.key, 'update');

    const checked: Array<{ file: CheckedFile; slot: AttachmentSlot }> = [];
    for (const { file, slot } of placed) checked.push({ file: await checkFile(file, service.limits, slot.mimeTypes), slot });

    return await runWrite(
      app.db,
      request,
      reply,
      ctx.access.caller,
      async (trx) => {
        const tx = requestContext(request, trx);
        // Photos of a farmer's locked form or indicator are a change of it (409), even when the
        // record's own values stay as they are (an update that changes nothing passes the writer).
        if (input.id !== undefined && checked.length > 0) await assertFarmerMayAttach(tx, await assertRecordAccess(tx, input.id));
        const record =
          input.id === undefined
            ? await insertRecord(tx, { tableId: table.id, properties: input.properties, geometry: input.geometry }, { path: 'record' })
            : await updateRecord(
                tx,
                { tableId: table.id, id: input.id, properties: input.properties, geometry: input.geometry, version: input.version },
                { path: 'record' },
              );
        const perSlot = new Map<number, { slot: AttachmentSlot; count: number }>();
        for (const { slot } of checked) perSlot.set(slot.id, { slot, count: (perSlot.get(slot.id)?.count ?? 0) + 1 });
        for (const { slot, count } of perSlot.values()) await assertSlotRoom(trx, slot, record.id, count);
        await assertQuota(
          trx,
          service.limits,
          uploaderOf(tx),
          checked.reduce((sum, c) => sum + c.file.size, 0),
        );
        stored = await storeFiles(
          service,
          checked.map((c) => c.file),
        );
        const attachments = [];
        for (const [index, entry] of stored.entries()) {
          const row = await insertAttachment(trx, {
            recordId: record.id,
            tableId: table.id,
            tableAttachmentInfoId: checked[index]!.slot.id,
            name: entry.file.name,
            mimeType: entry.file.mimeType,
            size: entry.file.size,
            storageKey: entry.storageKey,
            thumbKey: entry.thumbKey,
            createdBy: uploaderOf(tx),
            createdAt: tx.now,
          });
          attachments.push(toAttachmentInfo(row));
        }
        const body: FullResult = { record, attachments };
        if (input.localId !== undefined) body.localId = input.localId;
        return { status: input.id === undefined ? 201 : 200, body };
      },
      { fingerprint: multipartFingerprint(request, form) },
    );
  } catch (error) {
    await removeStored(service, stored, request.log);
    throw error;
  } finally {
    await runBeforeResponse(request);
  }
}

const fileParts = {
  tableAttachmentInfoId: { type: 'integer', description: 'Slot for parts named "file" (optional when the table has one slot)' },
  file: { type: 'string', format: 'binary', description: 'Files; a part may also be named by its slot (id or name, e.g. "photos")' },
} as const;

export default async function fullRoutes(app: FastifyInstance, options: FullRoutesOptions): Promise<void> {
  const { service } = options;
  await app.register(multipart, { limits: { fileSize: service.limits.fileSize, files: service.limits.files } });

  app.post<{ Params: { projectId: number } }>(
    '/api/Records/:projectId/full',
    {
      schema: {
        tags: ['Records', 'Attachments'],
        summary: 'Create or update a record together with its attachments (multipart, all or nothing)',
        params: ProjectParams,
        headers: IdempotencyHeaders,
        response: { 200: FullResult, 201: FullResult, ...uploadErrorResponses },
      },
      onSend: beforeResponseHook,
      config: {
        swaggerTransform: multipartDoc({ record: { type: 'string', description: 'JSON {tableId, id?, properties, geometry?, version?}' }, ...fileParts }, [
          'record',
        ]),
      },
    },
    async (request, reply) =>
      handleFull(app, service, request, reply, (form) => {
        const fields = ['record', 'tableAttachmentInfoId'];
        assertOnlyFields(form, fields);
        const part = jsonField(form, 'record');
        assertKeys(part, ['tableId', 'id', 'properties', 'geometry', 'version'], 'record');
        const tableId = optionalInteger(part.tableId, 'record.tableId');
        if (tableId === undefined) throw invalid('record.tableId is required');
        const table = requestContext(request).schema.tablesById.get(tableId);
        if (!table) throw invalid(`record.tableId: table ${tableId} not found in project ${request.params.projectId}`);
        return {
          table,
          ...splitId(optionalInteger(part.id, 'record.id')),
          properties: part.properties ?? {},
          geometry: part.geometry,
          version: optionalInteger(part.version, 'record.version'),
        };
      }),
  );

  app.post<{ Params: { projectId: number; tableId: number } }>(
    '/api/Features/:projectId/:tableId/full',
    {
      schema: {
        tags: ['Features', 'Attachments'],
        summary: 'Create or update a feature together with its attachments (multipart, all or nothing)',
        params: TableParams,
        headers: IdempotencyHeaders,
        response: { 200: FullResult, 201: FullResult, ...uploadErrorResponses },
      },
      onSend: beforeResponseHook,
      config: {
        swaggerTransform: multipartDoc(
          { feature: { type: 'string', description: "JSON {type:'Feature', id?, geometry, properties, version?}" }, ...fileParts },
          ['feature'],
        ),
      },
    },
    async (request, reply) =>
      handleFull(app, service, request, reply, (form) => {
        assertOnlyFields(form, ['feature', 'tableAttachmentInfoId']);
        const part = jsonField(form, 'feature');
        assertKeys(part, ['type', 'id', 'geometry', 'properties', 'version'], 'feature');
        if (part.type !== 'Feature') throw invalid("feature.type must be 'Feature'");
        if (!('geometry' in part)) throw invalid('feature.geometry is required (null for none)');
        const table = requestContext(request).schema.tablesById.get(request.params.tableId);
        if (!table) throw notFound(`table ${request.params.tableId} not found in project ${request.params.projectId}`);
        return {
          table,
          ...splitId(optionalInteger(part.id, 'feature.id')),
          properties: part.properties ?? {},
          geometry: part.geometry,
          version: optionalInteger(part.version, 'feature.version'),
        };
      }),
  );
}
