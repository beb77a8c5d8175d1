/**
 * Every JSON record and feature route, through real HTTP: success, 404, and bad input
 * (malformed JSON, invalid GeoJSON, wrong types, unknown fields) — each bad request asserted to
 * have changed nothing. Roles are covered in access.test.ts, filters in filters.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify from 'fastify';
import { LOCAL_ID_BOUND } from '../../src/common/constants';
import { registerErrorHandling } from '../../src/server/http/errors';
import { buildTestApp, snapshot, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';

const E = USERS.editor;
let t: TestApp;
let own: FarmerRows;

beforeAll(async () => {
  t = await buildTestApp();
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
});

afterAll(async () => {
  await t.close();
});

const square = {
  type: 'Polygon',
  coordinates: [
    [
      [16.1, 46.8],
      [16.101, 46.8],
      [16.101, 46.801],
      [16.1, 46.801],
      [16.1, 46.8],
    ],
  ],
};

async function rejects(
  options: { method: string; url: string; payload?: unknown; headers?: Record<string, string> },
  status: number,
  detail: RegExp,
  user: string = E,
) {
  const before = await snapshot(t.app);
  const response = await t.as(user, options);
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(body.status).toBe(status);
  expect(typeof body.message).toBe('string');
  expect(body.detail).toMatch(detail);
  expect(await snapshot(t.app)).toBe(before);
}

describe('GET /api/Test', () => {
  it('answers 200 without authentication and is not cached', async () => {
    const response = await t.as(null, { method: 'GET', url: '/api/Test' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('Records', () => {
  it('POST /api/Records/{projectId} creates with server id ≥ 10,000,000, version 1 and bbox', async () => {
    const a = t.tables.areas;
    const response = await t.as(E, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: a.id, properties: { [a.columns.name]: 'Nov travnik', [a.columns.user]: own.farmer, [a.columns.area_ha]: 0.8 }, geometry: square },
    });
    expect(response.statusCode).toBe(201);
    const record = response.json();
    expect(record).toMatchObject({
      tableId: a.id,
      version: 1,
      deleted: false,
      archived: false,
      geometry: square,
      properties: { [String(a.columns.name)]: 'Nov travnik' },
    });
    expect(record.id).toBeGreaterThanOrEqual(LOCAL_ID_BOUND);
    expect(record.createdAt).toBe(record.updatedAt);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const row = await t.app.db.selectFrom('records').select(['min_x', 'min_y', 'max_x', 'max_y']).where('id', '=', record.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ min_x: 16.1, min_y: 46.8, max_x: 16.101, max_y: 46.801 });
  });

  it('POST /api/Records/{projectId} rejects bad input and changes nothing', async () => {
    const a = t.tables.areas;
    await rejects(
      { method: 'POST', url: '/api/Records/1', payload: '{"tableId": 2, "properties": {', headers: { 'content-type': 'application/json' } },
      400,
      /malformed JSON/,
    );
    await rejects({ method: 'POST', url: '/api/Records/1', payload: { tableId: 'two', properties: {} } }, 400, /body\.tableId must be integer/);
    await rejects({ method: 'POST', url: '/api/Records/1', payload: { tableId: a.id } }, 400, /body\.properties is required/);
    await rejects(
      { method: 'POST', url: '/api/Records/1', payload: { tableId: a.id, properties: { 99999: 'x' } } },
      400,
      /properties\.99999: unknown column of table areas/,
    );
    await rejects(
      { method: 'POST', url: '/api/Records/1', payload: { tableId: a.id, properties: { [a.columns.area_ha]: 'veliko' } } },
      400,
      /\(area_ha\): must be a number/,
    );
    await rejects(
      { method: 'POST', url: '/api/Records/1', payload: { tableId: a.id, properties: { [a.columns.user]: 123 } } },
      400,
      /\(user\): record 123 not found in table farmers/,
    );
    await rejects(
      {
        method: 'POST',
        url: '/api/Records/1',
        payload: {
          tableId: a.id,
          properties: {},
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [16, 46],
                [17, 46],
                [17, 47],
                [16, 47],
              ],
            ],
          },
        },
      },
      400,
      /geometry\.coordinates\[0\]: ring is not closed/,
    );
    await rejects(
      { method: 'POST', url: '/api/Records/1', payload: { tableId: a.id, properties: {}, geometry: { type: 'Point', coordinates: [16, 100] } } },
      400,
      /latitude 100 out of range/,
    );
    await rejects({ method: 'POST', url: '/api/Records/1', payload: { tableId: 999, properties: {} } }, 400, /table 999 not found/);
    await rejects(
      { method: 'POST', url: '/api/Records/1', payload: '<tableId>1</tableId>', headers: { 'content-type': 'application/xml' } },
      415,
      /unsupported content type/,
    );
    await rejects({ method: 'POST', url: '/api/Records/1', payload: '', headers: { 'content-type': 'application/json' } }, 400, /empty JSON body/);
    await rejects({ method: 'POST', url: '/api/Records/99', payload: { tableId: a.id, properties: {} } }, 404, /project 99 not found/);
  });

  it('GET /api/Records/{projectId}/{tableId}/{recordId}: 200, 404 for unknown id, table or wrong table', async () => {
    const response = await t.as(E, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${own.areas[0]}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: own.areas[0], tableId: t.tables.areas.id, geometry: { type: 'Polygon' } });
    await rejects({ method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/12345678` }, 404, /record 12345678 not found/);
    await rejects({ method: 'GET', url: `/api/Records/1/${t.tables.paths.id}/${own.areas[0]}` }, 404, /not found in table paths/);
    await rejects({ method: 'GET', url: `/api/Records/1/999/${own.areas[0]}` }, 404, /table 999 not found/);
    await rejects({ method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/abc` }, 400, /params\.recordId must be integer/);
  });

  it('PUT /api/Records/{projectId}/{tableId}/{recordId} merges properties, bumps version, can clear geometry', async () => {
    const a = t.tables.areas;
    const id = own.areas[1]!;
    const before = (await t.as(E, { method: 'GET', url: `/api/Records/1/${a.id}/${id}` })).json();
    const response = await t.as(E, {
      method: 'PUT',
      url: `/api/Records/1/${a.id}/${id}`,
      payload: { properties: { [a.columns.area_ha]: 3.5, [a.columns.gerk_pid]: null }, version: before.version },
    });
    expect(response.statusCode).toBe(200);
    const after = response.json();
    expect(after.version).toBe(before.version + 1);
    expect(after.properties).toEqual({ ...before.properties, [String(a.columns.area_ha)]: 3.5, [String(a.columns.gerk_pid)]: null });
    expect(after.geometry).toEqual(before.geometry);
    const cleared = await t.as(E, { method: 'PUT', url: `/api/Records/1/${a.id}/${id}`, payload: { properties: {}, geometry: null } });
    expect(cleared.json().geometry).toBeNull();
    // Sending the record back unchanged (a retry without a key) is not a new version.
    const same = await t.as(E, { method: 'PUT', url: `/api/Records/1/${a.id}/${id}`, payload: { properties: cleared.json().properties, geometry: null } });
    expect(same.json()).toEqual(cleared.json());
    await rejects({ method: 'PUT', url: `/api/Records/1/${a.id}/12345678`, payload: { properties: {} } }, 404, /not found/);
    await rejects(
      { method: 'PUT', url: `/api/Records/1/${a.id}/${id}`, payload: { properties: { [a.columns.user]: 'kmet' } } },
      400,
      /\(user\): must be a record id/,
    );
    await rejects({ method: 'PUT', url: `/api/Records/1/${a.id}/${id}`, payload: { properties: {}, id: 5 } }, 400, /body\.id is not allowed/);
    await rejects(
      { method: 'PUT', url: `/api/Records/1/${a.id}/${id}`, payload: { properties: {}, geometry: { type: 'LineString', coordinates: [[16, 46]] } } },
      400,
      /at least 2 positions/,
    );
  });

  it('POST /api/Records/{projectId}/ids returns the visible records asked for', async () => {
    const response = await t.as(E, {
      method: 'POST',
      url: '/api/Records/1/ids',
      payload: { tableId: t.tables.paths.id, ids: [own.paths[0], 12345678, own.paths[0]] },
    });
    expect(response.json()).toEqual({ records: [expect.objectContaining({ id: own.paths[0] })], totalCount: 1 });
    await rejects({ method: 'POST', url: '/api/Records/1/ids', payload: { tableId: t.tables.paths.id, ids: ['x'] } }, 400, /ids\.0 must be integer/);
  });

  it('POST /api/Records/{projectId}/delete soft-deletes; unknown ids are 404 and nothing changes', async () => {
    const i = t.tables.indicators;
    await rejects(
      { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: i.id, ids: [own.indicators[0], 12345678] } },
      404,
      /record 12345678 not found/,
    );
    const response = await t.as(E, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: i.id, ids: [own.indicators[0]] } });
    expect(response.json()).toEqual({ ids: [own.indicators[0]] });
    expect((await t.as(E, { method: 'GET', url: `/api/Records/1/${i.id}/${own.indicators[0]}` })).statusCode).toBe(404);
    // Deleting again is harmless (a retried delete).
    expect((await t.as(E, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: i.id, ids: [own.indicators[0]] } })).statusCode).toBe(200);
  });

  it('POST /api/Records/{projectId}/archive archives; 404 for unknown', async () => {
    const response = await t.as(E, { method: 'POST', url: '/api/Records/1/archive', payload: { tableId: t.tables.paths.id, ids: [own.paths[0]] } });
    expect(response.json()).toEqual({ ids: [own.paths[0]] });
    await rejects({ method: 'POST', url: '/api/Records/1/archive', payload: { tableId: t.tables.paths.id, ids: [12345678] } }, 404, /not found/);
    await rejects(
      { method: 'POST', url: '/api/Records/1/archive', payload: { tableId: t.tables.paths.id, ids: [own.paths[0]], archived: 'yes' } },
      400,
      /archived must be boolean/,
    );
  });

  it('POST /api/Records/{projectId}/search and /search/ids: 200, bad body 400', async () => {
    const response = await t.as(E, { method: 'POST', url: '/api/Records/1/search', payload: { tableId: t.tables.durations.id } });
    expect(response.json().totalCount).toBe(2);
    await rejects(
      { method: 'POST', url: '/api/Records/1/search', payload: { tableId: t.tables.durations.id, perPage: 100001 } },
      400,
      /perPage must be <= 10000/,
    );
    await rejects(
      { method: 'POST', url: '/api/Records/1/search', payload: { tableId: t.tables.durations.id, where: '1=1' } },
      400,
      /body\.where is not allowed/,
    );
    await rejects({ method: 'POST', url: '/api/Records/1/search/ids', payload: { tableId: 999 } }, 400, /table 999 not found/);
  });

  it('GET /api/Records/{projectId}/search/{profileId}/{limit}/{page}/{query}: accent-insensitive text search', async () => {
    const a = t.tables.areas;
    await t.as(E, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: a.id, properties: { [a.columns.name]: 'Travník Žabjak', [a.columns.user]: own.farmer } },
    });
    const response = await t.as(E, { method: 'GET', url: '/api/Records/1/search/1/10/1/travnik%20zabj' });
    expect(response.statusCode).toBe(200);
    expect(response.json().records.map((r: { properties: Record<string, unknown> }) => r.properties[String(a.columns.name)])).toEqual(['Travník Žabjak']);
    const filtered = await t.as(E, { method: 'GET', url: `/api/Records/1/search/1/10/1/travnik?tableIds=${t.tables.paths.id}` });
    expect(filtered.json().records.every((r: { tableId: number }) => r.tableId === t.tables.paths.id)).toBe(true);
    const paged = await t.as(E, { method: 'GET', url: '/api/Records/1/search/1/2/2/travnik' });
    expect(paged.json().records.length).toBeLessThanOrEqual(2);
    expect(paged.json().totalCount).toBeGreaterThan(2);
    const syntax = await t.as(E, { method: 'GET', url: `/api/Records/1/search/1/10/1/${encodeURIComponent('"travnik* OR NEAR(')}` });
    expect(syntax.statusCode).toBe(200);
    await rejects({ method: 'GET', url: '/api/Records/1/search/99/10/1/travnik' }, 404, /search profile 99 not found/);
    await rejects({ method: 'GET', url: '/api/Records/1/search/1/0/1/travnik' }, 400, /limit must be >= 1/);
  });

  it('POST /api/Records/{projectId}/spatial: exact intersection after the bbox prefilter', async () => {
    const p = t.tables.paths;
    const line = await t.as(E, {
      method: 'POST',
      url: '/api/Records/1',
      payload: {
        tableId: p.id,
        properties: { [p.columns.name]: 'L', [p.columns.parent]: own.areas[0] },
        geometry: {
          type: 'LineString',
          coordinates: [
            [15.0, 45.0],
            [15.01, 45.0],
            [15.01, 45.01],
          ],
        },
      },
    });
    const inBboxNotOnLine = { type: 'Point', coordinates: [15.002, 45.008] };
    const onLine = {
      type: 'Polygon',
      coordinates: [
        [
          [15.009, 45.004],
          [15.011, 45.004],
          [15.011, 45.006],
          [15.009, 45.006],
          [15.009, 45.004],
        ],
      ],
    };
    const miss = await t.as(E, { method: 'POST', url: '/api/Records/1/spatial', payload: { tableIds: [p.id], geometry: inBboxNotOnLine } });
    expect(miss.json()).toEqual({ records: [], totalCount: 0 });
    const hit = await t.as(E, {
      method: 'POST',
      url: '/api/Records/1/spatial',
      payload: { tableIds: [p.id], geometry: { type: 'Feature', properties: {}, geometry: onLine } },
    });
    expect(hit.json().records.map((r: { id: number }) => r.id)).toEqual([line.json().id]);
    await rejects(
      { method: 'POST', url: '/api/Records/1/spatial', payload: { tableIds: [p.id], geometry: { type: 'Point', coordinates: [500, 0] } } },
      400,
      /longitude 500/,
    );
    await rejects(
      { method: 'POST', url: '/api/Records/1/spatial', payload: { tableIds: [], geometry: onLine } },
      400,
      /tableIds must NOT have fewer than 1 items/,
    );
  });

  it('GET /api/Records/{projectId}/extenttables: bbox query with tableIds and columnIds', async () => {
    const a = t.tables.areas;
    const url = `/api/Records/1/extenttables?extent[minX]=16.15&extent[minY]=46.83&extent[maxX]=16.16&extent[maxY]=46.84&tableIds=${a.id}&columnIds=${a.columns.name}`;
    const response = await t.as(E, { method: 'GET', url });
    expect(response.statusCode).toBe(200);
    const { records, totalCount } = response.json();
    expect(totalCount).toBe(records.length);
    expect(records.map((r: { id: number }) => r.id)).toContain(own.areas[0]);
    for (const record of records) expect(Object.keys(record.properties)).toEqual([String(a.columns.name)]);
    await rejects(
      { method: 'GET', url: `/api/Records/1/extenttables?extent[minX]=16.2&extent[minY]=46&extent[maxX]=16.1&extent[maxY]=47&tableIds=${a.id}` },
      400,
      /minX is greater than maxX/,
    );
    await rejects(
      { method: 'GET', url: `/api/Records/1/extenttables?extent[minX]=a&extent[minY]=46&extent[maxX]=16.1&extent[maxY]=47&tableIds=${a.id}` },
      400,
      /extent\.minX must be number/,
    );
    await rejects({ method: 'GET', url: `/api/Records/1/extenttables?tableIds=${a.id}` }, 400, /querystring\.extent is required/);
    await rejects(
      { method: 'GET', url: `/api/Records/1/extenttables?extent[minX]=16&extent[minY]=46&extent[maxX]=17&extent[maxY]=47&tableIds=${a.id}&columnIds=999999` },
      400,
      /unknown column 999999/,
    );
  });
});

describe('Features', () => {
  it('POST, GET, GET detailed, PUT a feature', async () => {
    const p = t.tables.paths;
    const created = await t.as(E, {
      method: 'POST',
      url: `/api/Features/1/${p.id}`,
      payload: {
        type: 'Feature',
        geometry: {
          type: 'MultiLineString',
          coordinates: [
            [
              [16.15, 46.83],
              [16.16, 46.84],
            ],
          ],
        },
        properties: { [p.columns.name]: 'Nova pot', [p.columns.parent]: own.areas[0] },
      },
    });
    expect(created.statusCode).toBe(201);
    const feature = created.json();
    expect(feature).toMatchObject({ type: 'Feature', tableId: p.id, version: 1, geometry: { type: 'MultiLineString' } });
    const got = await t.as(E, { method: 'GET', url: `/api/Features/1/${p.id}/${feature.id}` });
    expect(got.json()).toEqual(feature);
    const updated = await t.as(E, {
      method: 'PUT',
      url: `/api/Features/1/${p.id}/${feature.id}`,
      payload: {
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [16.15, 46.83],
            [16.17, 46.85],
          ],
        },
        properties: { [p.columns.length_m]: 300 },
        version: 1,
      },
    });
    expect(updated.json()).toMatchObject({
      version: 2,
      geometry: { type: 'LineString' },
      properties: { [String(p.columns.length_m)]: 300, [String(p.columns.name)]: 'Nova pot' },
    });
    const detailed = await t.as(E, { method: 'GET', url: `/api/Features/1/${p.id}/${feature.id}/detailed` });
    expect(detailed.statusCode).toBe(200);
    expect(detailed.json()).toMatchObject({
      id: feature.id,
      attachments: [],
      history: [
        { action: 'insert', changedBy: E, old: null },
        { action: 'update', old: { geometry: { type: 'MultiLineString' } }, new: { geometry: { type: 'LineString' } } },
      ],
    });
  });

  it('404s and bad input change nothing', async () => {
    const p = t.tables.paths;
    await rejects({ method: 'GET', url: `/api/Features/1/${p.id}/12345678` }, 404, /not found/);
    await rejects({ method: 'GET', url: `/api/Features/1/${p.id}/12345678/detailed` }, 404, /not found/);
    await rejects({ method: 'PUT', url: `/api/Features/1/${p.id}/12345678`, payload: { type: 'Feature', geometry: null, properties: {} } }, 404, /not found/);
    await rejects({ method: 'POST', url: `/api/Features/1/${p.id}`, payload: { type: 'Feature', properties: {} } }, 400, /body\.geometry is required/);
    await rejects(
      { method: 'POST', url: `/api/Features/1/${p.id}`, payload: { type: 'Point', geometry: null, properties: {} } },
      400,
      /body\.type must be equal to one of the allowed values/,
    );
    await rejects(
      {
        method: 'POST',
        url: `/api/Features/1/${p.id}`,
        payload: {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [16, 46],
                [16, 46.1],
              ],
            ],
          },
          properties: {},
        },
      },
      400,
      /at least 4 positions/,
    );
    await rejects(
      { method: 'POST', url: `/api/Features/1/${p.id}`, payload: '{"type":"Feature",', headers: { 'content-type': 'application/json' } },
      400,
      /malformed JSON/,
    );
    await rejects({ method: 'POST', url: '/api/Features/1/999', payload: { type: 'Feature', geometry: null, properties: {} } }, 400, /table 999 not found/);
  });

  it('POST /api/Features/{projectId}/delete, /search, GET /extenttables', async () => {
    const i = t.tables.indicators;
    const deleted = await t.as(E, { method: 'POST', url: '/api/Features/1/delete', payload: { tableId: i.id, ids: [own.indicators[1]] } });
    expect(deleted.json()).toEqual({ ids: [own.indicators[1]] });
    await rejects({ method: 'POST', url: '/api/Features/1/delete', payload: { tableId: i.id, ids: [12345678] } }, 404, /not found/);
    await rejects({ method: 'POST', url: '/api/Features/1/delete', payload: { tableId: i.id } }, 400, /body\.ids is required/);
    const search = await t.as(E, {
      method: 'POST',
      url: '/api/Features/1/search',
      payload: { tableId: t.tables.areas.id, perPage: 2, sorts: [{ columnId: 'id', direction: 'asc' }] },
    });
    expect(search.json().features).toHaveLength(2);
    expect(search.json().features[0]).toMatchObject({ type: 'Feature', geometry: { type: 'Polygon' } });
    expect(search.json().totalCount).toBeGreaterThan(2);
    await rejects(
      {
        method: 'POST',
        url: '/api/Features/1/search',
        payload: { tableId: t.tables.areas.id, filters: { kind: 'filter', columnId: 1, comparison: 'Regex', value: '.*' } },
      },
      400,
      /unknown comparison "Regex"/,
    );
    const extent = await t.as(E, {
      method: 'GET',
      url: `/api/Features/1/extenttables?extent[minX]=16&extent[minY]=46.7&extent[maxX]=16.4&extent[maxY]=46.9&tableIds=${t.tables.areas.id}`,
    });
    expect(extent.json().features.length).toBeGreaterThan(4);
    await rejects(
      {
        method: 'GET',
        url: `/api/Features/1/extenttables?extent[minX]=16&extent[minY]=-100&extent[maxX]=16.4&extent[maxY]=46.9&tableIds=${t.tables.areas.id}`,
      },
      400,
      /latitude out of range/,
    );
  });
});

describe('errors', () => {
  it('unknown routes are a catalogue 404; unauthenticated unknown API routes a 401', async () => {
    const response = await t.as(E, { method: 'GET', url: '/api/Nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 404, message: 'Not Found', detail: 'no route GET /api/Nothing/here' });
    expect((await t.as(null, { method: 'GET', url: '/api/Nothing/here' })).statusCode).toBe(401);
  });

  it('bodies over the limit are a clear 413 and change nothing', async () => {
    const small = await buildTestApp({ bodyLimit: 2048 });
    try {
      const before = await snapshot(small.app);
      const response = await small.as(E, {
        method: 'POST',
        url: '/api/Records/1',
        payload: { tableId: small.tables.areas.id, properties: { [small.tables.areas.columns.name]: 'x'.repeat(5000) } },
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({ status: 413, message: 'Generic Error', detail: 'request body is larger than the limit' });
      expect(await snapshot(small.app)).toBe(before);
    } finally {
      await small.close();
    }
  });

  it('5xx answers carry only the catalogue message, never internals', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/boom', async () => {
      throw new Error('SQLITE_CORRUPT: secret path /var/data/x.sqlite');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${address.port}/boom`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ status: 500, message: 'Internal Server Error' });
    } finally {
      await app.close();
    }
  });
});
