/** Features calls (a feature is a record with a GeoJSON geometry; docs/architecture.md, Wire contract). */
import type {
  BulkBody,
  BulkResult,
  Extent,
  FeatureBody,
  FeaturePage,
  FullResult,
  IdsBody,
  IdsResult,
  SearchRequest,
  WireFeature,
} from '../../../common/schemas/wire';
import { api, idempotencyHeaders } from './api';
import { fullFormData, type FullUpload } from './multipart';

interface Project {
  projectId: number;
}
interface Idempotent {
  idempotencyKey?: string;
}

export const featuresApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/Features/{projectId}/{tableId}/{recordId} */
    feature: build.query<WireFeature, Project & { tableId: number; recordId: number }>({
      query: ({ projectId, tableId, recordId }) => `/api/Features/${projectId}/${tableId}/${recordId}`,
      providesTags: (_r, _e, { recordId }) => [{ type: 'Feature', id: recordId }],
    }),
    /** GET /api/Features/{projectId}/{tableId}/{recordId}/detailed */
    featureDetailed: build.query<WireFeature, Project & { tableId: number; recordId: number }>({
      query: ({ projectId, tableId, recordId }) => `/api/Features/${projectId}/${tableId}/${recordId}/detailed`,
      providesTags: (_r, _e, { recordId }) => [{ type: 'Feature', id: recordId }],
    }),
    /** POST /api/Features/{projectId}/{tableId} (body: feature) */
    createFeature: build.mutation<WireFeature, Project & Idempotent & { tableId: number; body: FeatureBody }>({
      query: ({ projectId, tableId, body, idempotencyKey }) => ({
        url: `/api/Features/${projectId}/${tableId}`,
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Feature'],
    }),
    /** PUT /api/Features/{projectId}/{tableId}/{featureId} */
    updateFeature: build.mutation<WireFeature, Project & Idempotent & { tableId: number; featureId: number; body: FeatureBody }>({
      query: ({ projectId, tableId, featureId, body, idempotencyKey }) => ({
        url: `/api/Features/${projectId}/${tableId}/${featureId}`,
        method: 'PUT',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: (_r, _e, { featureId }) => [{ type: 'Feature', id: featureId }],
    }),
    /** POST /api/Features/{projectId}/delete */
    deleteFeatures: build.mutation<IdsResult, Project & Idempotent & { body: IdsBody }>({
      query: ({ projectId, body, idempotencyKey }) => ({
        url: `/api/Features/${projectId}/delete`,
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Feature'],
    }),
    /**
     * GET /api/Features/{projectId}/extenttables?extent[…]&tableIds=…, read once per page by
     * downloads: no tag, or a write answered while a page is in flight would lose it (read-no.ts).
     */
    featuresInExtent: build.query<FeaturePage, Project & { extent: Extent; tableIds: number[] }>({
      query: ({ projectId, extent, tableIds }) => ({
        url: `/api/Features/${projectId}/extenttables`,
        params: { extent: { ...extent }, tableIds },
      }),
    }),
    /** POST /api/Features/{projectId}/{tableId}/full (multipart) */
    createFeatureFull: build.mutation<FullResult, Project & Idempotent & { tableId: number; upload: FullUpload }>({
      query: ({ projectId, tableId, upload, idempotencyKey }) => ({
        url: `/api/Features/${projectId}/${tableId}/full`,
        method: 'POST',
        body: fullFormData(upload),
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Feature', 'Attachment'],
    }),
    /** POST /api/Features/{projectId}/search */
    searchFeatures: build.query<FeaturePage, Project & { body: SearchRequest }>({
      query: ({ projectId, body }) => ({ url: `/api/Features/${projectId}/search`, method: 'POST', body }),
      providesTags: ['Feature'],
    }),
    /** POST /api/Features/{projectId}/bulk */
    bulkFeatures: build.mutation<BulkResult, Project & { body: BulkBody }>({
      query: ({ projectId, body }) => ({ url: `/api/Features/${projectId}/bulk`, method: 'POST', body }),
      invalidatesTags: ['Feature'],
    }),
  }),
});
