/**
 * The write calls that Records and Features share word for word (`…/delete` and
 * `…/bulk`): the same bodies, the same repository calls, the same answers. One definition serves
 * both APIs so the two can never drift apart.
 */
import type { FastifyInstance } from 'fastify';
import { BulkBody, BulkResult, IdempotencyHeaders, IdsBody, IdsResult, ProjectParams, ref } from '../../../common/schemas/wire';
import { compressEarly } from '../../http/compress-json';
import { requestContext } from '../../http/request-context';
import { runWrite } from '../../http/idempotency';
import { writeErrorResponses } from '../../http/schemas';
import { applyBulk, type BulkAnswer } from '../../repositories/bulk-writer';
import { deleteRecords } from '../../repositories/record-writer';

export function registerSharedWrites(app: FastifyInstance, api: 'Records' | 'Features'): void {
  const tags = [api];
  const noun = api.toLowerCase();

  app.post<{ Params: { projectId: number }; Body: IdsBody }>(
    `/api/${api}/:projectId/delete`,
    {
      schema: {
        tags,
        summary: `Delete ${noun} (soft delete; any unknown id → 404 and nothing changes)`,
        params: ProjectParams,
        headers: IdempotencyHeaders,
        body: ref(IdsBody),
        response: { 200: ref(IdsResult), ...writeErrorResponses },
      },
    },
    async (request, reply) =>
      runWrite(app.db, request, reply, request.access!.caller, async (trx) => ({
        status: 200,
        body: { ids: await deleteRecords(requestContext(request, trx), request.body.tableId, request.body.ids) },
      })),
  );

  app.post<{ Params: { projectId: number }; Body: BulkBody }>(
    `/api/${api}/:projectId/bulk`,
    {
      schema: {
        tags,
        summary: 'Inserts, updates, deletes and archives in one transaction, deduplicated per opId',
        params: ProjectParams,
        headers: IdempotencyHeaders,
        body: ref(BulkBody),
        response: { 200: ref(BulkResult), ...writeErrorResponses },
      },
    },
    async (request, reply) => {
      // The answer goes as the JSON text applyBulk made (each result is turned into JSON once).
      reply.type('application/json; charset=utf-8');
      let answer: BulkAnswer | undefined;
      const sent = await runWrite(
        app.db,
        request,
        reply,
        request.access!.caller,
        async (trx) => {
          answer = await applyBulk(requestContext(request, trx), request.body.operations);
          // A large answer's compression runs while the transaction commits.
          compressEarly(request, answer.json);
          return { status: 200, body: answer.json };
        },
        { recomposable: true },
      );
      // Committed (a replayed answer applied nothing).
      if (answer) app.opsMetrics?.bulkAnswered(answer.results);
      return sent;
    },
  );
}
