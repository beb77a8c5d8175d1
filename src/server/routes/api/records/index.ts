/**
 * /api/Records/{projectId}/…: JSON record calls. Attachment calls and `full` are
 * in routes/api/attachments and routes/api/full. Handlers only parse, call repositories and
 * answer; writes run in one transaction with Idempotency-Key support (http/idempotency.ts).
 */
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Geometry } from 'geojson';
import {
  ArchiveBody,
  CreateRecordBody,
  Extent,
  IdempotencyHeaders,
  IdPage,
  IdsBody,
  IdsResult,
  ProjectParams,
  RecordPage,
  RecordParams,
  ref,
  SearchRequest,
  SpatialBody,
  TableIdsQuery,
  TextSearchParams,
  UpdateRecordBody,
  WireRecord,
} from '../../../../common/schemas/wire';
import { requestContext } from '../../../http/request-context';
import { registerSharedWrites } from '../shared-writes';
import { invalid } from '../../../domain-errors';
import { runWrite } from '../../../http/idempotency';
import { errorResponses, writeErrorResponses } from '../../../http/schemas';
import { normalizeGeometry } from '../../../repositories/geometry';
import { extentSearch, getRecord, recordsByIds, searchIds, searchRecords, spatialSearch, textSearch } from '../../../repositories/record-repository';
import { archiveRecords, insertRecord, updateRecord } from '../../../repositories/record-writer';

const tags = ['Records'];

export default async function recordRoutes(app: FastifyInstance): Promise<void> {
  registerSharedWrites(app, 'Records');

  app.get<{ Params: Static<typeof RecordParams> }>(
    '/api/Records/:projectId/:tableId/:recordId',
    { schema: { tags, summary: 'One record', params: RecordParams, response: { 200: ref(WireRecord), ...errorResponses } } },
    async (request) => getRecord(requestContext(request), request.params.tableId, request.params.recordId),
  );

  app.put<{ Params: Static<typeof RecordParams>; Body: UpdateRecordBody }>(
    '/api/Records/:projectId/:tableId/:recordId',
    {
      schema: {
        tags,
        summary: 'Update a record (properties merged; stale version → 409)',
        params: RecordParams,
        headers: IdempotencyHeaders,
        body: ref(UpdateRecordBody),
        response: { 200: ref(WireRecord), ...writeErrorResponses },
      },
    },
    async (request, reply) =>
      runWrite(app.db, request, reply, request.access!.caller, async (trx) => {
        const { tableId, recordId } = request.params;
        const body = request.body;
        const record = await updateRecord(requestContext(request, trx), {
          tableId,
          id: recordId,
          properties: body.properties,
          geometry: body.geometry,
          version: body.version,
        });
        return { status: 200, body: record };
      }),
  );

  app.post<{ Params: { projectId: number }; Body: IdsBody }>(
    '/api/Records/:projectId/ids',
    {
      schema: {
        tags,
        summary: 'Records by id (ids the caller cannot see are left out)',
        params: ProjectParams,
        body: ref(IdsBody),
        response: { 200: ref(RecordPage), ...errorResponses },
      },
    },
    async (request) => {
      const records = await recordsByIds(requestContext(request), request.body.tableId, request.body.ids);
      return { records, totalCount: records.length };
    },
  );

  app.post<{ Params: { projectId: number }; Body: ArchiveBody }>(
    '/api/Records/:projectId/archive',
    {
      schema: {
        tags,
        summary: 'Archive records (editors only; archived:false restores)',
        params: ProjectParams,
        headers: IdempotencyHeaders,
        body: ref(ArchiveBody),
        response: { 200: ref(IdsResult), ...writeErrorResponses },
      },
    },
    async (request, reply) =>
      runWrite(app.db, request, reply, request.access!.caller, async (trx) => ({
        status: 200,
        body: { ids: await archiveRecords(requestContext(request, trx), request.body.tableId, request.body.ids, request.body.archived !== false) },
      })),
  );

  app.post<{ Params: { projectId: number }; Body: CreateRecordBody }>(
    '/api/Records/:projectId',
    {
      schema: {
        tags,
        summary: 'Create a record',
        params: ProjectParams,
        headers: IdempotencyHeaders,
        body: ref(CreateRecordBody),
        response: { 201: ref(WireRecord), ...writeErrorResponses },
      },
    },
    async (request, reply) =>
      runWrite(app.db, request, reply, request.access!.caller, async (trx) => ({
        status: 201,
        body: await insertRecord(requestContext(request, trx), request.body),
      })),
  );

  app.post<{ Params: { projectId: number }; Body: SearchRequest }>(
    '/api/Records/:projectId/search',
    {
      schema: {
        tags,
        summary: 'Search records: filters (21 comparisons, And/Or), sorts, paging, totalCount',
        params: ProjectParams,
        body: ref(SearchRequest),
        response: { 200: ref(RecordPage), ...errorResponses },
      },
    },
    async (request) => searchRecords(requestContext(request), request.body),
  );

  app.post<{ Params: { projectId: number }; Body: SearchRequest }>(
    '/api/Records/:projectId/search/ids',
    {
      schema: {
        tags,
        summary: 'Search record ids (same query as search)',
        params: ProjectParams,
        body: ref(SearchRequest),
        response: { 200: ref(IdPage), ...errorResponses },
      },
    },
    async (request) => searchIds(requestContext(request), request.body),
  );

  app.get<{ Params: Static<typeof TextSearchParams>; Querystring: { tableIds?: number[] } }>(
    '/api/Records/:projectId/search/:profileId/:limit/:page/:query',
    {
      schema: {
        tags,
        summary: 'Text search (accent- and case-insensitive, words as prefixes) over text columns',
        params: TextSearchParams,
        querystring: { type: 'object', properties: { tableIds: TableIdsQuery } },
        response: { 200: ref(RecordPage), ...errorResponses },
      },
    },
    async (request) => {
      const { profileId, limit, page, query } = request.params;
      return textSearch(requestContext(request), { profileId, limit, page, query, tableIds: request.query.tableIds });
    },
  );

  app.post<{ Params: { projectId: number }; Body: SpatialBody }>(
    '/api/Records/:projectId/spatial',
    {
      schema: {
        tags,
        summary: 'Records of the given tables intersecting a GeoJSON geometry',
        params: ProjectParams,
        body: ref(SpatialBody),
        response: { 200: ref(RecordPage), ...errorResponses },
      },
    },
    async (request) => {
      const geometry = normalizeGeometry(request.body.geometry);
      if (!geometry) throw invalid('geometry: a geometry is required');
      return spatialSearch(requestContext(request), { ...request.body, geometry: geometry as Geometry });
    },
  );

  app.get<{ Params: { projectId: number }; Querystring: { extent: Extent; tableIds?: number[]; columnIds?: number[] } }>(
    '/api/Records/:projectId/extenttables',
    {
      schema: {
        tags,
        summary: 'Records of the given tables inside a bounding box',
        params: ProjectParams,
        querystring: {
          type: 'object',
          properties: {
            extent: Extent,
            tableIds: TableIdsQuery,
            columnIds: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 200, description: 'Only these properties are returned.' },
          },
          required: ['extent', 'tableIds'],
        },
        response: { 200: ref(RecordPage), ...errorResponses },
      },
    },
    async (request) =>
      extentSearch(requestContext(request), { extent: request.query.extent, tableIds: request.query.tableIds ?? [], columnIds: request.query.columnIds }),
  );
}
