/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * lib/api: URLs and query strings of the API calls, credentials (none by default, bearer or
 * basic when configured), the Idempotency-Key header, and errors mapped to the error catalogue.
 * The server is a recording fetch: these tests are about what the client sends and how it reads
 * answers.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  errorMessageOf,
  featuresApi,
  isTransientError,
  parseRetryAfter,
  performRequest,
  publicAppApi,
  recordsApi,
  setCredentialsProvider,
  testApi,
  type ApiError,
} from '../../../src/client/lib/api';
import { searchAllRecords } from '../../../src/client/lib/api/search-all';
import { auditApi } from '../../../src/client/lib/api/audit';
import { makeTestStore, openTestDb, response, settleStores, until } from './helpers';

// A budget for a loaded shared machine (several suites, real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

afterEach(async () => {
  setCredentialsProvider(null);
  await settleStores();
});

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

function recordingStore(answer: (sent: Sent) => Response | Promise<Response> = () => response({ body: {} })) {
  const sent: Sent[] = [];
  const store = makeTestStore(openTestDb(), async (input, init) => {
    const entry = { url: String(input), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body };
    sent.push(entry);
    return answer(entry);
  });
  return { store, sent };
}

describe('the API calls', () => {
  it('builds every Records, Features and PublicApp path under /api, with the shared query encoder', async () => {
    const { store, sent } = recordingStore();
    const d = store.dispatch;
    const P = { projectId: 1 };
    const body = { tableId: 5, page: 1, perPage: 10 };
    const extent = { minX: 16.1, minY: 46.7, maxX: 16.3, maxY: 46.9 };
    const file = { tableAttachmentInfoId: 700, name: 'a.png', mimeType: 'image/png', data: new ArrayBuffer(4) };
    const calls = [
      d(recordsApi.endpoints.record.initiate({ ...P, tableId: 5, recordId: 10000001 })),
      d(recordsApi.endpoints.updateRecord.initiate({ ...P, tableId: 5, recordId: 10000001, body: { properties: {} } })),
      d(recordsApi.endpoints.recordsByIds.initiate({ ...P, body: { tableId: 5, ids: [1] } })),
      d(recordsApi.endpoints.deleteRecords.initiate({ ...P, body: { tableId: 5, ids: [1] } })),
      d(recordsApi.endpoints.archiveRecords.initiate({ ...P, body: { tableId: 5, ids: [1] } })),
      d(recordsApi.endpoints.createRecord.initiate({ ...P, body: { tableId: 5, properties: {} } })),
      d(recordsApi.endpoints.searchRecords.initiate({ ...P, body })),
      d(recordsApi.endpoints.searchRecordIds.initiate({ ...P, body })),
      d(recordsApi.endpoints.textSearchRecords.initiate({ ...P, profileId: 3, limit: 20, page: 1, query: 'travnik ob potoku', tableIds: [2, 3] })),
      d(recordsApi.endpoints.bulkRecords.initiate({ ...P, body: { operations: [] } })),
      d(recordsApi.endpoints.uploadAttachment.initiate({ ...P, upload: { ...file, tableId: 7, recordId: 10000009 } })),
      d(recordsApi.endpoints.deleteAttachment.initiate({ ...P, recordAttachmentId: 10000100 })),
      d(recordsApi.endpoints.attachment.initiate({ ...P, recordAttachmentId: 10000100 })),
      d(recordsApi.endpoints.attachmentInfo.initiate({ ...P, recordId: 10000009, tableAttachmentInfoId: 700, thumb: true })),
      d(recordsApi.endpoints.spatialRecords.initiate({ ...P, body: { tableIds: [2], geometry: { type: 'Point', coordinates: [16.2, 46.8] } } })),
      d(recordsApi.endpoints.recordsInExtent.initiate({ ...P, extent, tableIds: [2, 3], columnIds: [21] })),
      d(recordsApi.endpoints.createRecordFull.initiate({ ...P, upload: { record: { tableId: 7, properties: {} }, files: [file] } })),
      d(featuresApi.endpoints.feature.initiate({ ...P, tableId: 3, recordId: 10000002 })),
      d(featuresApi.endpoints.featureDetailed.initiate({ ...P, tableId: 3, recordId: 10000002 })),
      d(featuresApi.endpoints.createFeature.initiate({ ...P, tableId: 3, body: { type: 'Feature', geometry: null, properties: {} } })),
      d(featuresApi.endpoints.updateFeature.initiate({ ...P, tableId: 3, featureId: 10000002, body: { type: 'Feature', geometry: null, properties: {} } })),
      d(featuresApi.endpoints.deleteFeatures.initiate({ ...P, body: { tableId: 3, ids: [1] } })),
      d(featuresApi.endpoints.featuresInExtent.initiate({ ...P, extent, tableIds: [3] })),
      d(
        featuresApi.endpoints.createFeatureFull.initiate({
          ...P,
          tableId: 3,
          upload: { feature: { type: 'Feature', geometry: null, properties: {} }, files: [file] },
        }),
      ),
      d(featuresApi.endpoints.searchFeatures.initiate({ ...P, body })),
      d(featuresApi.endpoints.bulkFeatures.initiate({ ...P, body: { operations: [] } })),
      d(publicAppApi.endpoints.roles.initiate(P)),
      d(testApi.endpoints.reachability.initiate()),
    ];
    await Promise.all(calls);
    const base = 'http://server.test';
    // (Mutations then invalidate tags and the cached queries refetch: only the first calls count.)
    expect(sent.slice(0, calls.length).map((s) => `${s.method} ${s.url.slice(base.length)}`)).toEqual([
      'GET /api/Records/1/5/10000001',
      'PUT /api/Records/1/5/10000001',
      'POST /api/Records/1/ids',
      'POST /api/Records/1/delete',
      'POST /api/Records/1/archive',
      'POST /api/Records/1',
      'POST /api/Records/1/search',
      'POST /api/Records/1/search/ids',
      'GET /api/Records/1/search/3/20/1/travnik%20ob%20potoku?tableIds=2&tableIds=3',
      'POST /api/Records/1/bulk',
      'POST /api/Records/1/attachment',
      'DELETE /api/Records/1/attachment/10000100',
      'GET /api/Records/1/attachment/10000100?thumb=false',
      'GET /api/Records/1/record/10000009/attachmentinfo/700?thumb=true',
      'POST /api/Records/1/spatial',
      'GET /api/Records/1/extenttables?extent%5BminX%5D=16.1&extent%5BminY%5D=46.7&extent%5BmaxX%5D=16.3&extent%5BmaxY%5D=46.9&tableIds=2&tableIds=3&columnIds=21',
      'POST /api/Records/1/full',
      'GET /api/Features/1/3/10000002',
      'GET /api/Features/1/3/10000002/detailed',
      'POST /api/Features/1/3',
      'PUT /api/Features/1/3/10000002',
      'POST /api/Features/1/delete',
      'GET /api/Features/1/extenttables?extent%5BminX%5D=16.1&extent%5BminY%5D=46.7&extent%5BmaxX%5D=16.3&extent%5BmaxY%5D=46.9&tableIds=3',
      'POST /api/Features/1/3/full',
      'POST /api/Features/1/search',
      'POST /api/Features/1/bulk',
      'GET /api/PublicApp/1/roles',
      'GET /api/Test',
    ]);
    // JSON bodies are JSON; multipart bodies carry the fields the server's multipart routes read.
    expect(JSON.parse(String(sent[6]!.body))).toEqual(body);
    expect(sent[6]!.headers.get('content-type')).toBe('application/json');
    const upload = sent[10]!.body as FormData;
    expect([...upload.keys()]).toEqual(['tableId', 'recordId', 'tableAttachmentInfoId', 'file']);
    const full = sent[16]!.body as FormData;
    expect([...full.keys()]).toEqual(['record', '700']);
    expect(sent[16]!.headers.get('content-type')).toBeNull(); // the runtime sets the multipart boundary
  });

  it('sends an Idempotency-Key when an outbox operation id is given', async () => {
    const { store, sent } = recordingStore();
    await store.dispatch(recordsApi.endpoints.createRecord.initiate({ projectId: 1, idempotencyKey: 'op-123', body: { tableId: 5, properties: {} } }));
    await store.dispatch(recordsApi.endpoints.createRecord.initiate({ projectId: 1, body: { tableId: 5, properties: {} } }));
    expect(sent.map((s) => s.headers.get('Idempotency-Key'))).toEqual(['op-123', null]);
  });
});

describe('credentials', () => {
  it('sends none by default, a bearer token or basic credentials when the auth layer provides them', async () => {
    const { store, sent } = recordingStore();
    const probe = () => store.dispatch(testApi.endpoints.reachability.initiate(undefined, { forceRefetch: true }));
    await probe();
    setCredentialsProvider(() => ({ kind: 'bearer', token: 'abc.def.ghi' }));
    await probe();
    setCredentialsProvider(async () => ({ kind: 'basic', username: 'kmet1@example.si', password: 'čebela' }));
    await probe();
    expect(sent.map((s) => s.headers.get('Authorization'))).toEqual([
      null,
      'Bearer abc.def.ghi',
      `Basic ${Buffer.from('kmet1@example.si:čebela', 'utf8').toString('base64')}`,
    ]);
  });
});

describe('errors', () => {
  it.each([
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
    [418, 'Generic Error'],
    [409, 'Generic Error'],
  ])('maps %d to %s and keeps the server detail', async (status, message) => {
    const { store } = recordingStore(() =>
      response({
        status,
        body: { status, message: 'whatever the server said', detail: 'tableId: unknown', current: status === 409 ? { version: 4 } : undefined },
      }),
    );
    const result = await store.dispatch(recordsApi.endpoints.searchRecords.initiate({ projectId: 1, body: { tableId: 999 } }));
    const error = result.error as ApiError;
    expect(error).toMatchObject({ status, message, detail: 'tableId: unknown' });
    if (status === 409) expect(error.current).toEqual({ version: 4 });
  });

  it('keeps how long a 429 or 503 asks to wait (Retry-After in seconds or as an HTTP date) and counts them as transient', async () => {
    const now = Date.parse('2026-06-15T08:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 15 Jun 2026 08:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 15 Jun 2026 07:59:00 GMT', now)).toBe(0); // already past: go now
    expect(parseRetryAfter('kmalu', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    const { store } = recordingStore(() => response({ status: 429, body: { status: 429, message: 'Too Many Requests' }, headers: { 'retry-after': '3' } }));
    const result = await store.dispatch(recordsApi.endpoints.searchRecords.initiate({ projectId: 1, body: { tableId: 1 } }));
    expect(result.error).toMatchObject({ status: 429, message: 'Generic Error', retryAfterMs: 3000 });
    expect(isTransientError(result.error as ApiError)).toBe(true);
  });

  it('maps a cancelled request to Request aborted and no answer to Generic Error', async () => {
    const { store } = recordingStore(
      (sent) =>
        new Promise((_resolve, reject) => {
          if (sent.url.endsWith('/ids')) reject(new TypeError('Failed to fetch'));
          else setTimeout(() => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), 5);
        }),
    );
    const pending = store.dispatch(recordsApi.endpoints.searchRecords.initiate({ projectId: 1, body: { tableId: 1 } }));
    pending.abort();
    expect(errorMessageOf((await pending).error)).toBe('Request aborted');
    const controller = new AbortController();
    const direct = performRequest(
      {
        baseUrl: 'http://server.test',
        fetchFn: (_url, init) =>
          new Promise((_resolve, reject) => {
            const fail = () => reject(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }));
            if (init!.signal!.aborted) fail();
            else init!.signal!.addEventListener('abort', fail);
          }),
      },
      { url: '/api/Test' },
      controller.signal,
    );
    controller.abort();
    expect(await direct).toMatchObject({ error: { status: 'ABORTED', message: 'Request aborted' } });
    const offline = await store.dispatch(recordsApi.endpoints.recordsByIds.initiate({ projectId: 1, body: { tableId: 1, ids: [1] } }));
    expect(offline.error).toMatchObject({ status: 'FETCH_ERROR', message: 'Generic Error' });
    expect(errorMessageOf(offline.error)).toBe('Generic Error');
  });
});

describe('searchAllRecords', () => {
  it('sends its own request while an identical read is in flight (whose answer may predate an acknowledgement)', async () => {
    const versions: number[] = [];
    const held: Array<() => void> = [];
    const store = makeTestStore(openTestDb(), async () => {
      // The server's row moves on between the two reads: the first read sees version 1, the second 2.
      const version = versions.push(versions.length + 1);
      if (version === 1) await new Promise<void>((resolve) => held.push(resolve));
      return response({ body: { records: [{ id: 10_000_001, tableId: 5, version, properties: {} }], totalCount: 1 } });
    });
    const first = searchAllRecords(store.dispatch, 1, { tableId: 5 });
    await until(() => held.length === 1, 'first read sent');
    const second = searchAllRecords(store.dispatch, 1, { tableId: 5 });
    await until(() => versions.length === 2, 'second read sent');
    held[0]!();
    expect((await first).records?.[0]?.version).toBe(1);
    expect((await second).records?.[0]?.version).toBe(2);
  });
});

describe('reads made once (not kept fresh by a subscription)', () => {
  /** A store whose bulk calls answer at once and whose other requests wait until released. */
  function heldReads(answer: unknown) {
    const held: Array<() => void> = [];
    const store = makeTestStore(openTestDb(), async (input) => {
      if (String(input).endsWith('/bulk')) return response({ body: { results: [] } });
      await new Promise<void>((resolve) => held.push(resolve));
      return response({ body: answer });
    });
    return { store, held };
  }

  it("a season step's pages keep their answer when a Records bulk call is answered while they are in flight", async () => {
    // Found in Chromium: a season read running while the outbox delivered an edit lost its
    // answer (the bulk call's invalidation dropped the pending read), so the screen said
    // "Brez povezave" although the server had answered.
    const { store, held } = heldReads({ records: [{ id: 10_000_001, tableId: 5, version: 1, properties: {} }], totalCount: 1 });
    const read = searchAllRecords(store.dispatch, 1, { tableId: 5 });
    await until(() => held.length === 1, 'read sent');
    const bulk = await store.dispatch(recordsApi.endpoints.bulkRecords.initiate({ projectId: 1, body: { operations: [] } }));
    expect(bulk.data).toEqual({ results: [] });
    held[0]!();
    const result = await read;
    expect(result.error).toBeUndefined();
    expect(result.records?.map((record) => record.id)).toEqual([10_000_001]);
  });

  it('a download page keeps its answer when a Features bulk call is answered while it is in flight', async () => {
    const page = { features: [{ type: 'Feature', id: 10_000_001, tableId: 3, version: 1, geometry: null, properties: {} }], totalCount: 1 };
    const { store, held } = heldReads(page);
    const read = store
      .dispatch(
        featuresApi.endpoints.featuresInExtent.initiate(
          { projectId: 1, extent: { minX: 0, minY: 0, maxX: 1, maxY: 1 }, tableIds: [3] },
          { subscribe: false, forceRefetch: true },
        ),
      )
      .unwrap();
    await until(() => held.length === 1, 'read sent');
    await store.dispatch(featuresApi.endpoints.bulkFeatures.initiate({ projectId: 1, body: { operations: [] } }));
    held[0]!();
    expect((await read).features.map((feature) => feature.id)).toEqual([10_000_001]);
  });

  it("a form's trail read (the export's history) keeps its answer when a Features bulk call is answered while it is in flight", async () => {
    const trail = {
      entries: [
        {
          id: 7,
          changedAt: '2026-06-01T10:00:00.000Z',
          changedBy: 'kmet1@example.si',
          action: 'update',
          tableId: 5,
          table: 'forms',
          recordId: 10_000_001,
          changes: [],
        },
      ],
      totalCount: 1,
    };
    const { store, held } = heldReads(trail);
    const read = store.dispatch(auditApi.endpoints.auditPage.initiate({ projectId: 1, recordId: 10_000_001 }, { subscribe: false, forceRefetch: true }));
    await until(() => held.length === 1, 'read sent');
    await store.dispatch(featuresApi.endpoints.bulkFeatures.initiate({ projectId: 1, body: { operations: [] } }));
    held[0]!();
    expect((await read).data).toEqual(trail);
  });
});
