/**
 * /api/Features/{projectId}/…: the record calls in GeoJSON Feature form (row meta as
 * foreign members). `full` (multipart) is in routes/api/full.
 */
import type { FastifyInstance } from 'fastify';
import {
  DetailedFeature,
  Extent,
  FeatureBody,
  FeaturePage,
  IdempotencyHeaders,
  ProjectParams,
  RecordParams,
  ref,
  SearchRequest,
  TableIdsQuery,
  TableParams,
  WireFeature,
} from '../../../../common/schemas/wire';
import { requestContext } from '../../../http/request-context';
import { registerSharedWrites } from '../shared-writes';
import { runWrite } from '../../../http/idempotency';
import { errorResponses, writeErrorResponses } from '../../../http/schemas';
import { recordToFeature } from '../../../repositories/record-mapper';
import { liveAttachmentsOf, toAttachmentInfo } from '../../../attachments/attachment-repository';
import { extentSearch, getRecord, historyOf, searchRecords } from '../../../repositories/record-repository';
import { insertRecord, updateRecord } from '../../../repositories/record-writer';

const tags = ['Features'];

export default async function featureRoutes(app: FastifyInstance): Promise<void> {
  registerSharedWrites(app, 'Features');

  app.get<{ Params: { projectId: number; tableId: number; recordId: number } }>(
    '/api/Features/:projectId/:tableId/:recordId',
    { schema: { tags, summary: 'One feature', params: RecordParams, response: { 200: ref(WireFeature), ...errorResponses } } },
    async (request) => recordToFeature(await getRecord(requestContext(request), request.params.tableId, request.params.recordId)),
  );

  app.get<{ Params: { projectId: number; tableId: number; recordId: number } }>(
    '/api/Features/:projectId/:tableId/:recordId/detailed',
    {
      schema: {
        tags,
        summary: 'One feature with its attachments and change history',
        params: RecordParams,
        response: { 200: ref(DetailedFeature), ...errorResponses },
      },
    },
    async (request): Promise<DetailedFeature> => {
      const ctx = requestContext(request);
      const feature = recordToFeature(await getRecord(ctx, request.params.tableId, request.params.recordId));
      const attachments = await liveAttachmentsOf(ctx.db, feature.id);
      return { ...feature, attachments: attachments.map(toAttachmentInfo), history: await historyOf(ctx, feature.id) };
    },
  );

  app.post<{ Params: { projectId: number; tableId: number }; Body: FeatureBody }>(
    '/api/Features/:projectId/:tableId',
    {
      schema: {
        tags,
        summary: 'Create a feature',
        params: TableParams,
        headers: IdempotencyHeaders,
        body: ref(FeatureBody),
        response: { 201: ref(WireFeature), ...writeErrorResponses },
      },
    },
    async (request, reply) =>
      runWrite(app.db, request, reply, request.access!.caller, async (trx) => {
        const record = await insertRecord(requestContext(request, trx), {
          tableId: request.params.tableId,
          properties: request.body.properties,
          geometry: request.body.geometry,
        });
        return { status: 201, body: recordToFeature(record) };
      }),
  );

  app.put<{ Params: { projectId: number; tableId: number; recordId: number }; Body: FeatureBody }>(
    '/api/Features/:projectId/:tableId/:recordId',
    {
      schema: {
        tags,
        summary: 'Update a feature (properties merged; stale version → 409)',
        params: RecordParams,
        headers: IdempotencyHeaders,
        body: ref(FeatureBody),
        response: { 200: ref(WireFeature), ...writeErrorResponses },
      },
    },
    async (request, reply) =>
      runWrite(app.db, request, reply, request.access!.caller, async (trx) => {
        const { tableId, recordId } = request.params;
        const { properties, geometry, version } = request.body;
        const record = await updateRecord(requestContext(request, trx), { tableId, id: recordId, properties, geometry, version });
        return { status: 200, body: recordToFeature(record) };
      }),
  );

  app.get<{ Params: { projectId: number }; Querystring: { extent: Extent; tableIds?: number[] } }>(
    '/api/Features/:projectId/extenttables',
    {
      schema: {
        tags,
        summary: 'Features of the given tables inside a bounding box',
        params: ProjectParams,
        querystring: { type: 'object', properties: { extent: Extent, tableIds: TableIdsQuery }, required: ['extent', 'tableIds'] },
        response: { 200: ref(FeaturePage), ...errorResponses },
      },
    },
    async (request) => {
      const page = await extentSearch(requestContext(request), { extent: request.query.extent, tableIds: request.query.tableIds ?? [] });
      return { features: page.records.map(recordToFeature), totalCount: page.totalCount };
    },
  );

  app.post<{ Params: { projectId: number }; Body: SearchRequest }>(
    '/api/Features/:projectId/search',
    {
      schema: {
        tags,
        summary: 'Search features: filters (21 comparisons, And/Or), sorts, paging, totalCount',
        params: ProjectParams,
        body: ref(SearchRequest),
        response: { 200: ref(FeaturePage), ...errorResponses },
      },
    },
    async (request) => {
      const page = await searchRecords(requestContext(request), request.body);
      return { features: page.records.map(recordToFeature), totalCount: page.totalCount };
    },
  );
}
