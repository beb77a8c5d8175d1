/**
 * Attachment calls (docs/architecture.md, Wire contract):
 *   POST   /api/Records/{projectId}/attachment                       multipart: tableId, recordId, tableAttachmentInfoId, file
 *   DELETE /api/Records/{projectId}/attachment/{recordAttachmentId}
 *   GET    /api/Records/{projectId}/attachment/{recordAttachmentId}?thumb=
 *   GET    /api/Records/{projectId}/record/{recordId}/attachmentinfo/{tableAttachmentInfoId}?thumb=
 *
 * Access is the record's: whoever may see the record sees its attachments; attaching and deleting
 * count as an update of the record (readers 403, a farmer outside their chain 404 — see
 * repositories/record-repository.ts, assertRecordAccess; a farmer's locked form or its indicator
 * 409 — docs/architecture.md, The review loop). Uploads go through the checks of attachments/upload.ts before anything
 * is stored, and the row is written in one transaction with Idempotency-Key support; if it fails,
 * the stored bytes are removed again.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AttachmentInfo,
  AttachmentInfoList,
  AttachmentInfoParams,
  AttachmentParams,
  IdempotencyHeaders,
  ProjectParams,
  ref,
  ThumbQuery,
} from '../../../../common/schemas/wire';
import { requestContext } from '../../../http/request-context';
import { assertRecordAccess } from '../../../repositories/record-repository';
import { assertFarmerMayAttach } from '../../../repositories/review-rules';
import {
  findAttachment,
  insertAttachment,
  isAttachmentDeleted,
  listAttachments,
  markAttachmentDeleted,
  toAttachmentInfo,
  type AttachmentRow,
} from '../../../attachments/attachment-repository';
import { contentDisposition } from '../../../attachments/file-name';
import { assertQuota, assertSlotRoom, removeStored, storeFiles, type AttachmentService, type StoredFile } from '../../../attachments/service';
import { checkFile, discard, receiveMultipart } from '../../../attachments/upload';
import { forbidden, invalid, notFound } from '../../../domain-errors';
import { runWrite } from '../../../http/idempotency';
import { errorResponses, uploadErrorResponses, writeErrorResponses } from '../../../http/schemas';
import type { RepoContext } from '../../../repositories/context';
import type { TableInfo } from '../../../project-schema';
import { assertMayWrite } from '../../../access/policy';
import { beforeResponse, beforeResponseHook, runBeforeResponse } from './before-response';
import { assertOnlyFields, intField, multipartFingerprint } from './form-fields';
import { multipartDoc } from './multipart-doc';

export interface AttachmentRoutesOptions {
  service: AttachmentService;
}

const tags = ['Attachments'];
/** Attachment ids never point at other bytes, so a browser may keep them (private: they are the user's). */
const ATTACHMENT_CACHE_CONTROL = 'private, max-age=31536000, immutable';

/** The attachment slot `slotId` of `table`, or 400 (ids in a form body are the client's input). */
function slotOf(table: TableInfo, slotId: number, path = 'tableAttachmentInfoId') {
  const slot = table.attachmentSlots.find((s) => s.id === slotId);
  if (!slot) throw invalid(`${path}: ${slotId} is not an attachment slot of table ${table.key} (${table.id})`);
  return slot;
}

/** Readers never write: refused before their upload is even read (saves streaming a file to disk). */
export function refuseReaders(request: FastifyRequest): void {
  if (request.access?.role === 'reader') throw forbidden('readers may not change data');
}

/** Who owns an upload for the quota: the same actor the record writer stores in created_by/updated_by. */
export function uploaderOf(ctx: RepoContext): string {
  return ctx.access.email || ctx.access.principal.subject;
}

/** A live attachment the caller may see (through its record), else 404. */
async function visibleAttachment(ctx: RepoContext, id: number): Promise<AttachmentRow> {
  const row = await findAttachment(ctx.db, ctx.schema.id, id);
  if (!row) throw notFound(`attachment ${id} not found`);
  try {
    await assertRecordAccess(ctx, row.recordId);
  } catch {
    // Same answer as a missing id: no existence leak (docs/architecture.md, Roles).
    throw notFound(`attachment ${id} not found`);
  }
  return row;
}

export default async function attachmentRoutes(app: FastifyInstance, options: AttachmentRoutesOptions): Promise<void> {
  const { service } = options;
  // Scoped to this plugin: other routes keep refusing multipart bodies (415).
  await app.register(multipart, { limits: { fileSize: service.limits.fileSize, files: service.limits.files } });

  app.post<{ Params: { projectId: number } }>(
    '/api/Records/:projectId/attachment',
    {
      schema: {
        tags,
        summary: 'Attach a file to a record (size 413, type/content 415, pixel flood 413, quota 413)',
        params: ProjectParams,
        headers: IdempotencyHeaders,
        response: { 201: ref(AttachmentInfo), ...uploadErrorResponses },
      },
      onSend: beforeResponseHook,
      config: {
        swaggerTransform: multipartDoc(
          {
            tableId: { type: 'integer', description: 'Table of the record' },
            recordId: { type: 'integer', description: 'The record' },
            tableAttachmentInfoId: { type: 'integer', description: 'Attachment slot of the table (config.json → tables → attachments)' },
            file: { type: 'string', format: 'binary', description: 'JPEG, PNG, WebP, GIF, PDF, text, JSON/GeoJSON or GPX/XML' },
          },
          ['tableId', 'recordId', 'tableAttachmentInfoId', 'file'],
        ),
      },
    },
    async (request, reply) => {
      refuseReaders(request);
      const form = await receiveMultipart(request, service.tmpDir, service.limits);
      beforeResponse(request, () => discard(form.files));
      let stored: StoredFile[] = [];
      try {
        assertOnlyFields(form, ['tableId', 'recordId', 'tableAttachmentInfoId']);
        const tableId = intField(form, 'tableId');
        const recordId = intField(form, 'recordId');
        const slotId = intField(form, 'tableAttachmentInfoId');
        const file = form.files[0];
        if (form.files.length !== 1 || !file || file.fieldName !== 'file') throw invalid('exactly one file part named "file" is required');
        const ctx = requestContext(request);
        const table = ctx.schema.tablesById.get(tableId);
        if (!table) throw invalid(`tableId: table ${tableId} not found in project ${ctx.schema.id}`);
        const slot = slotOf(table, slotId);
        // Access first (cheap, and a stranger learns nothing from file errors), then the content.
        const record = await assertRecordAccess(ctx, recordId);
        if (record.tableId !== tableId) throw notFound(`record ${recordId} not found in table ${table.key} (${tableId})`);
        assertMayWrite(ctx.access, table.key, 'update');
        const checked = await checkFile(file, service.limits, slot.mimeTypes);

        return await runWrite(
          app.db,
          request,
          reply,
          ctx.access.caller,
          async (trx) => {
            const tx = requestContext(request, trx);
            // A photo of a form or indicator the farmer sent to review changes it: locked (409).
            await assertFarmerMayAttach(tx, await assertRecordAccess(tx, recordId, 'update'));
            await assertSlotRoom(trx, slot, recordId, 1);
            await assertQuota(trx, service.limits, uploaderOf(tx), checked.size);
            stored = await storeFiles(service, [checked]);
            const entry = stored[0]!;
            const row = await insertAttachment(trx, {
              recordId,
              tableId,
              tableAttachmentInfoId: slot.id,
              name: checked.name,
              mimeType: checked.mimeType,
              size: checked.size,
              storageKey: entry.storageKey,
              thumbKey: entry.thumbKey,
              createdBy: uploaderOf(tx),
              createdAt: tx.now,
            });
            return { status: 201, body: toAttachmentInfo(row) };
          },
          { fingerprint: multipartFingerprint(request, form) },
        );
      } catch (error) {
        await removeStored(service, stored, request.log);
        throw error;
      } finally {
        await runBeforeResponse(request);
      }
    },
  );

  app.delete<{ Params: { projectId: number; recordAttachmentId: number } }>(
    '/api/Records/:projectId/attachment/:recordAttachmentId',
    {
      schema: {
        tags,
        summary: 'Delete an attachment (as an update of its record)',
        params: AttachmentParams,
        headers: IdempotencyHeaders,
        response: {
          200: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
          ...writeErrorResponses,
        },
      },
      onSend: beforeResponseHook,
    },
    async (request, reply) => {
      const id = request.params.recordAttachmentId;
      try {
        return await runWrite(app.db, request, reply, request.access!.caller, async (trx) => {
          const ctx = requestContext(request, trx);
          const row = await visibleAttachment(ctx, id);
          await assertFarmerMayAttach(ctx, await assertRecordAccess(ctx, row.recordId, 'update'));
          await markAttachmentDeleted(trx, id);
          // The bytes go only once the deletion has committed (runs before the answer is sent; a
          // rolled-back deletion leaves the row live, and then the bytes stay).
          beforeResponse(request, async () => {
            if (await isAttachmentDeleted(app.db, id)) await removeStored(service, [row], request.log);
          });
          return { status: 200, body: { id } };
        });
      } finally {
        await runBeforeResponse(request);
      }
    },
  );

  app.get<{ Params: { projectId: number; recordAttachmentId: number }; Querystring: { thumb: boolean } }>(
    '/api/Records/:projectId/attachment/:recordAttachmentId',
    {
      schema: {
        tags,
        summary: 'Download an attachment, or its JPEG thumbnail with thumb=true',
        params: AttachmentParams,
        querystring: ThumbQuery,
        response: {
          200: { description: 'The file (its MIME type), or image/jpeg for a thumbnail', type: 'string', format: 'binary' },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const ctx = requestContext(request);
      const row = await visibleAttachment(ctx, request.params.recordAttachmentId);
      const thumb = request.query.thumb === true;
      if (thumb && !row.thumbKey) throw notFound(`attachment ${row.id} has no thumbnail (not an image)`);
      const object = await service.storage.get(thumb ? row.thumbKey! : row.storageKey);
      if (!object) {
        request.log.error({ attachment: row.id, key: row.storageKey }, 'attachment bytes missing from storage');
        throw notFound(`attachment ${row.id} has no stored content`);
      }
      const name = thumb ? row.name.replace(/\.[a-z0-9]{1,10}$/i, '') + '.thumb.jpg' : row.name;
      return (
        reply
          .header('content-type', thumb ? 'image/jpeg' : row.mimeType)
          .header('content-length', String(object.size))
          .header('content-disposition', contentDisposition(name))
          .header('cache-control', ATTACHMENT_CACHE_CONTROL)
          .header('x-content-type-options', 'nosniff')
          // Files are data, never a page: no scripts even if a browser opened one as a document.
          .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
          .send(object.stream)
      );
    },
  );

  app.get<{ Params: { projectId: number; recordId: number; tableAttachmentInfoId: number }; Querystring: { thumb: boolean } }>(
    '/api/Records/:projectId/record/:recordId/attachmentinfo/:tableAttachmentInfoId',
    {
      schema: {
        tags,
        summary: "A record's attachments in one slot; thumb=true adds each image's thumbnail as a data: URL",
        params: AttachmentInfoParams,
        querystring: ThumbQuery,
        response: { 200: AttachmentInfoList, ...errorResponses },
      },
    },
    async (request): Promise<AttachmentInfoList> => {
      const ctx = requestContext(request);
      const { recordId, tableAttachmentInfoId } = request.params;
      const record = await assertRecordAccess(ctx, recordId);
      const table = ctx.schema.tablesById.get(record.tableId)!;
      if (!table.attachmentSlots.some((s) => s.id === tableAttachmentInfoId)) {
        throw notFound(`attachment slot ${tableAttachmentInfoId} not found in table ${table.key} (${table.id})`);
      }
      const rows = await listAttachments(ctx.db, recordId, tableAttachmentInfoId);
      const attachments: AttachmentInfo[] = [];
      for (const row of rows) {
        const info = toAttachmentInfo(row);
        if (request.query.thumb === true && row.thumbKey) {
          const object = await service.storage.get(row.thumbKey);
          if (object) {
            const chunks: Buffer[] = [];
            for await (const chunk of object.stream) chunks.push(chunk as Buffer);
            info.thumbnail = `data:image/jpeg;base64,${Buffer.concat(chunks).toString('base64')}`;
          }
        }
        attachments.push(info);
      }
      return { attachments };
    },
  );
}
