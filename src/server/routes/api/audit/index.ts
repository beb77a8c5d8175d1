/**
 * /api/Audit/{projectId}: the editors' audit trail "Zgodovina sprememb" — every change in the
 * project (who, when, table, record, old → new), newest first.
 *
 * - `GET /api/Audit/{projectId}?farmerId=&recordId=&tableId=&from=&to=&page=&perPage=` → `{entries, totalCount}`
 * - `GET /api/Audit/{projectId}/csv?farmerId=&recordId=&tableId=&from=&to=` → the whole selection as CSV
 *   (`;`, BOM, one line per changed column), streamed in batches.
 *
 * `from` (inclusive) and `to` (exclusive) are ISO instants: the client turns the editor's local
 * days into them, so "to 3 June" in Ljubljana ends at local midnight, not at UTC's.
 * Editors only: readers get 403; farmers 404, as for any record outside their own (the trail
 * names every farmer's rows). A bad query is a 400 whose detail says in Slovenian what is wrong.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_PAGE_SIZE } from '../../../../common/constants';
import { slAudit } from '../../../../common/i18n/sl';
import { AuditCsvQuery, AuditPage, AuditQuery } from '../../../../common/schemas/audit';
import { ProjectParams } from '../../../../common/schemas/wire';
import { requestContext } from '../../../http/request-context';
import { forbidden, invalid, notFound } from '../../../domain-errors';
import type { ValidationIssue } from '../../../http/errors';
import { errorResponses } from '../../../http/schemas';
import type { RepoContext } from '../../../repositories/context';
import { auditEntries, auditPage } from '../../../repositories/audit-repository';
import { auditCsvHead, auditCsvLines } from './audit-csv';

const tags = ['Audit'];
/** The request's context when the caller is an editor and the query is well formed; else 403/404/400. */
function editorContext(request: FastifyRequest): RepoContext {
  const ctx = requestContext(request);
  if (ctx.access.role === 'farmer') throw notFound('not found');
  if (!ctx.access.editor) throw forbidden(slAudit.editorsOnly);
  const failed = request.validationError as (Error & { validation?: ValidationIssue[] }) | undefined;
  if (failed) {
    const issue = failed.validation?.[0];
    const extra = issue?.params?.additionalProperty;
    if (typeof extra === 'string') throw invalid(slAudit.invalid.unknownParameter(extra));
    throw invalid(slAudit.invalid.parameter((issue?.instancePath ?? '').replace(/^\//, '') || 'query'));
  }
  return ctx;
}

/** Query instants in the stored form (`toISOString`), so text comparison orders them. */
function filters(query: AuditQuery): AuditQuery {
  const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());
  return { farmerId: query.farmerId, recordId: query.recordId, tableId: query.tableId, from: instant(query.from), to: instant(query.to) };
}

export default async function auditRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { projectId: number }; Querystring: AuditQuery }>(
    '/api/Audit/:projectId',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Every change in the project, newest first (editors)',
        params: ProjectParams,
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errorResponses },
      },
    },
    async (request) => {
      const ctx = editorContext(request);
      const { page = 1, perPage = AUDIT_PAGE_SIZE } = request.query;
      return auditPage(ctx, filters(request.query), page, perPage);
    },
  );

  app.get<{ Params: { projectId: number }; Querystring: AuditQuery }>(
    '/api/Audit/:projectId/csv',
    {
      attachValidation: true,
      schema: {
        tags,
        summary: 'Every change of the selection as CSV (editors; semicolons, UTF-8 with BOM)',
        params: ProjectParams,
        querystring: AuditCsvQuery,
        produces: ['text/csv'],
        response: { 200: { type: 'string', description: 'CSV' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const ctx = editorContext(request);
      const batches = await auditEntries(ctx, filters(request.query));
      async function* text(): AsyncGenerator<string> {
        yield auditCsvHead();
        for await (const entries of batches) yield auditCsvLines(entries);
      }
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${slAudit.fileName}-${day}.csv"`)
        .send(Readable.from(text()));
    },
  );
}
