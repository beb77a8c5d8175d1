/** Records calls, typed with the wire contract (src/common/schemas/wire.ts). */
import { recordsSearchPath } from './paths';
import type {
  AttachmentInfo,
  AttachmentInfoList,
  BulkBody,
  BulkResult,
  CreateRecordBody,
  Extent,
  FullResult,
  IdPage,
  IdsBody,
  IdsResult,
  RecordPage,
  SearchRequest,
  SpatialBody,
  UpdateRecordBody,
  WireRecord,
} from '../../../common/schemas/wire';
import { errorMessageForStatus, GENERIC_ERROR } from '../../../common/errors';
import { textSearchProblem } from '../../../common/text-search';
import type { OfflineDb } from '../db/database';
import { searchDeviceRows, type TextSearchRequest } from '../db/local-data';
import { api, idempotencyHeaders } from './api';
import { isTransientError, type ApiError } from './base-query';
import { attachmentFormData, fullFormData, type AttachmentUpload, type FullUpload } from './multipart';

interface Project {
  projectId: number;
}
/** The text search's path parameters and its `tableIds` (lib/db TextSearchRequest without the project). */
type TextSearchArgs = Omit<TextSearchRequest, 'projectId' | 'tableIds'> & { tableIds?: number[] };

/** GET /api/Records/{projectId}/search/{profileId}/{limit}/{page}/{query} */
const textSearchPath = ({ projectId, profileId, limit, page, query }: Project & TextSearchArgs) =>
  `/api/Records/${projectId}/search/${profileId}/${limit}/${page}/${encodeURIComponent(query)}`;

interface Idempotent {
  /** The outbox operation id, sent as Idempotency-Key so a retry never applies twice. */
  idempotencyKey?: string;
}

export const recordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/Records/{projectId}/{tableId}/{recordId} */
    record: build.query<WireRecord, Project & { tableId: number; recordId: number }>({
      query: ({ projectId, tableId, recordId }) => `/api/Records/${projectId}/${tableId}/${recordId}`,
      providesTags: (_r, _e, { recordId }) => [{ type: 'Record', id: recordId }],
    }),
    /** PUT /api/Records/{projectId}/{tableId}/{recordId} */
    updateRecord: build.mutation<WireRecord, Project & Idempotent & { tableId: number; recordId: number; body: UpdateRecordBody }>({
      query: ({ projectId, tableId, recordId, body, idempotencyKey }) => ({
        url: `/api/Records/${projectId}/${tableId}/${recordId}`,
        method: 'PUT',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: (_r, _e, { recordId }) => [{ type: 'Record', id: recordId }],
    }),
    /** POST /api/Records/{projectId}/ids */
    recordsByIds: build.query<RecordPage, Project & { body: IdsBody }>({
      query: ({ projectId, body }) => ({ url: `/api/Records/${projectId}/ids`, method: 'POST', body }),
      providesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId}/delete */
    deleteRecords: build.mutation<IdsResult, Project & Idempotent & { body: IdsBody }>({
      query: ({ projectId, body, idempotencyKey }) => ({
        url: `/api/Records/${projectId}/delete`,
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId}/archive (the editors' archive action) */
    archiveRecords: build.mutation<IdsResult, Project & Idempotent & { body: IdsBody }>({
      query: ({ projectId, body, idempotencyKey }) => ({
        url: `/api/Records/${projectId}/archive`,
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId} (create) */
    createRecord: build.mutation<WireRecord, Project & Idempotent & { body: CreateRecordBody }>({
      query: ({ projectId, body, idempotencyKey }) => ({
        url: `/api/Records/${projectId}`,
        method: 'POST',
        body,
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId}/search. A numbered read (searchAllRecords' `readNo`, not sent) provides no tag (read-no.ts). */
    searchRecords: build.query<RecordPage, Project & { body: SearchRequest; readNo?: number }>({
      query: ({ projectId, body }) => ({ url: recordsSearchPath(projectId), method: 'POST', body }),
      providesTags: (_result, _error, { readNo }) => (readNo === undefined ? ['Record'] : []),
    }),
    /** POST /api/Records/{projectId}/search/ids */
    searchRecordIds: build.query<IdPage, Project & { body: SearchRequest }>({
      query: ({ projectId, body }) => ({ url: `/api/Records/${projectId}/search/ids`, method: 'POST', body }),
      providesTags: ['Record'],
    }),
    /**
     * GET /api/Records/{projectId}/search/{profileId}/{limit}/{page}/{query}?tableIds=… (text search).
     * When the server cannot be reached (no answer, 5xx, 429), or the app already knows it is
     * offline (`offline`, not sent), the device answers in the same shape from the rows stored
     * under the profile (lib/db `searchDeviceRows`, the rule of common/text-search.ts).
     */
    textSearchRecords: build.query<RecordPage, Project & TextSearchArgs & { offline?: boolean }>({
      async queryFn({ offline, ...search }, { extra }, _options, baseQuery) {
        const db = (extra as { db?: OfflineDb } | undefined)?.db;
        let unreachable: ApiError | undefined;
        if (!offline || !db) {
          const answer = await baseQuery({ url: textSearchPath(search), params: { tableIds: search.tableIds } });
          if (!answer.error) return { data: answer.data as RecordPage, meta: answer.meta };
          if (!db || !isTransientError(answer.error)) return { error: answer.error, meta: answer.meta };
          unreachable = answer.error;
        }
        // As the route's schema refuses it.
        const problem = textSearchProblem(search);
        if (problem) return { error: { status: 400, message: errorMessageForStatus(400), detail: problem } };
        try {
          return { data: await searchDeviceRows(db, search) };
        } catch (error) {
          return { error: unreachable ?? { status: 'FETCH_ERROR', message: GENERIC_ERROR, detail: String(error) } };
        }
      },
      providesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId}/bulk — each operation carries its own opId (docs/architecture.md, Sync rules). */
    bulkRecords: build.mutation<BulkResult, Project & { body: BulkBody }>({
      query: ({ projectId, body }) => ({ url: `/api/Records/${projectId}/bulk`, method: 'POST', body }),
      invalidatesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId}/attachment (multipart) */
    uploadAttachment: build.mutation<AttachmentInfo, Project & Idempotent & { upload: AttachmentUpload }>({
      query: ({ projectId, upload, idempotencyKey }) => ({
        url: `/api/Records/${projectId}/attachment`,
        method: 'POST',
        body: attachmentFormData(upload),
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Attachment'],
    }),
    /** DELETE /api/Records/{projectId}/attachment/{recordAttachmentId} */
    deleteAttachment: build.mutation<unknown, Project & Idempotent & { recordAttachmentId: number }>({
      query: ({ projectId, recordAttachmentId, idempotencyKey }) => ({
        url: `/api/Records/${projectId}/attachment/${recordAttachmentId}`,
        method: 'DELETE',
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Attachment'],
    }),
    /** GET /api/Records/{projectId}/attachment/{recordAttachmentId}?thumb= (default false) — the file. */
    attachment: build.query<Blob, Project & { recordAttachmentId: number; thumb?: boolean }>({
      query: ({ projectId, recordAttachmentId, thumb = false }) => ({
        url: `/api/Records/${projectId}/attachment/${recordAttachmentId}`,
        params: { thumb },
        responseType: 'blob',
      }),
      providesTags: (_r, _e, { recordAttachmentId }) => [{ type: 'Attachment', id: recordAttachmentId }],
    }),
    /** GET /api/Records/{projectId}/record/{recordId}/attachmentinfo/{tableAttachmentInfoId}?thumb= */
    attachmentInfo: build.query<AttachmentInfoList, Project & { recordId: number; tableAttachmentInfoId: number; thumb?: boolean }>({
      query: ({ projectId, recordId, tableAttachmentInfoId, thumb }) => ({
        url: `/api/Records/${projectId}/record/${recordId}/attachmentinfo/${tableAttachmentInfoId}`,
        params: { thumb },
      }),
      providesTags: ['Attachment'],
    }),
    /** POST /api/Records/{projectId}/spatial */
    spatialRecords: build.query<RecordPage, Project & { body: SpatialBody }>({
      query: ({ projectId, body }) => ({ url: `/api/Records/${projectId}/spatial`, method: 'POST', body }),
      providesTags: ['Record'],
    }),
    /** GET /api/Records/{projectId}/extenttables?extent[…]&tableIds&columnIds */
    recordsInExtent: build.query<RecordPage, Project & { extent: Extent; tableIds: number[]; columnIds?: number[] }>({
      query: ({ projectId, extent, tableIds, columnIds }) => ({
        url: `/api/Records/${projectId}/extenttables`,
        params: { extent: { ...extent }, tableIds, columnIds },
      }),
      providesTags: ['Record'],
    }),
    /** POST /api/Records/{projectId}/full (multipart: the record and its attachments at once) */
    createRecordFull: build.mutation<FullResult, Project & Idempotent & { upload: FullUpload }>({
      query: ({ projectId, upload, idempotencyKey }) => ({
        url: `/api/Records/${projectId}/full`,
        method: 'POST',
        body: fullFormData(upload),
        headers: idempotencyHeaders(idempotencyKey),
      }),
      invalidatesTags: ['Record', 'Attachment'],
    }),
  }),
});

export const {
  useTextSearchRecordsQuery,

  useAttachmentInfoQuery,
} = recordsApi;
