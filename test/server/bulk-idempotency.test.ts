/**
 * Exactly-once writes (docs/architecture.md, Sync rules): bulk operations deduplicated per opId in the same transaction
 * (a retried or recomposed batch never applies an operation twice), local → server id mapping,
 * atomic rejection, Idempotency-Key replay on every write route, key reuse for another request,
 * and 409 on a stale version with the current record.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LOCAL_ID_BOUND } from '../../src/common/constants';
import { buildTestApp, snapshot, USERS, type TestApp } from './helpers/build-test-app';
import { demoFormsAsDrafts, farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;

beforeAll(async () => {
  t = await buildTestApp();
  await demoFormsAsDrafts(t.app, t.tables);
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
});

afterAll(async () => {
  await t.close();
});

const bulk = (operations: unknown[], headers?: Record<string, string>, url = '/api/Records/1/bulk') =>
  t.as(USERS.farmer1, { method: 'POST', url, payload: { operations }, headers });

async function countRows(tableId: number): Promise<number> {
  const row = await t.app.db
    .selectFrom('records')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('table_id', '=', tableId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('bulk', () => {
  it('applies inserts, updates, deletes in one call and maps local ids, also for references inside the batch', async () => {
    const f = t.tables.forms;
    const i = t.tables.indicators;
    const response = await bulk([
      { opId: 'b1-form', kind: 'insert', tableId: f.id, localId: 4242, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } },
      {
        opId: 'b1-ind',
        kind: 'insert',
        tableId: i.id,
        localId: 4243,
        properties: { [i.columns.parent]: 4242, [i.columns.key]: 'briza_media', [i.columns.value]: true },
      },
      { opId: 'b1-upd', kind: 'update', tableId: f.id, id: 4242, properties: { [f.columns.note]: 'urejeno v isti seriji' } },
      { opId: 'b1-del', kind: 'delete', tableId: i.id, id: own.indicators[0] },
    ]);
    expect(response.statusCode).toBe(200);
    const results = response.json().results;
    expect(results.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    const formId = results[0].id;
    expect(formId).toBeGreaterThanOrEqual(LOCAL_ID_BOUND);
    expect(results[0]).toMatchObject({ opId: 'b1-form', localId: 4242 });
    expect(results[1].record.properties[String(i.columns.parent)]).toBe(formId);
    expect(results[2]).toMatchObject({ id: formId, record: { version: 2, properties: { [String(f.columns.note)]: 'urejeno v isti seriji' } } });
    expect(results[3]).toMatchObject({ id: own.indicators[0] });
  });

  it('never applies an operation twice when a batch is retried or recomposed', async () => {
    const f = t.tables.forms;
    const insert = {
      opId: 'b2-a',
      kind: 'insert',
      tableId: f.id,
      localId: 77,
      properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 2 },
    };
    const before = await countRows(f.id);
    const first = await bulk([insert]);
    expect(first.json().results[0]).toMatchObject({ status: 'applied', localId: 77 });
    const id = first.json().results[0].id;
    // The response was "lost": the client retries with one more operation in the batch, which
    // refers to the first insert by its local id.
    const retry = await bulk([insert, { opId: 'b2-b', kind: 'update', tableId: f.id, id: 77, properties: { [f.columns.note]: 'po ponovitvi' } }]);
    expect(retry.statusCode).toBe(200);
    expect(retry.json().results).toEqual([
      // The first answer again, with the record (the client takes the version from it).
      { opId: 'b2-a', status: 'duplicate', id, localId: 77, record: expect.objectContaining({ id, version: first.json().results[0].record.version }) },
      expect.objectContaining({ opId: 'b2-b', status: 'applied', id }),
    ]);
    expect(await countRows(f.id)).toBe(before + 1);
    // And the same opId twice in one call applies once.
    const twice = await bulk([
      { opId: 'b2-c', kind: 'update', tableId: f.id, id, properties: { [f.columns.note]: 'enkrat' } },
      { opId: 'b2-c', kind: 'update', tableId: f.id, id, properties: { [f.columns.note]: 'enkrat' } },
    ]);
    expect(twice.json().results.map((r: { status: string }) => r.status)).toEqual(['applied', 'duplicate']);
    expect(twice.json().results[1].record).toMatchObject({ id, version: 3 });
    expect((await t.as(USERS.farmer1, { method: 'GET', url: `/api/Records/1/${f.id}/${id}` })).json().version).toBe(3);
  });

  it('rejects the whole call when one operation fails, naming it, and changes nothing', async () => {
    const f = t.tables.forms;
    const before = await snapshot(t.app);
    const response = await bulk([
      { opId: 'b3-ok', kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } },
      { opId: 'b3-bad', kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.score]: 'visoka' } },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, message: 'Bad Request', opId: 'b3-bad' });
    expect(response.json().detail).toMatch(/^operations\[1\]\.properties\.\d+ \(score\): must be a number/);
    expect(await snapshot(t.app)).toBe(before);
    // The valid operation was not remembered as applied: a corrected retry applies both.
    const fixed = await bulk([
      { opId: 'b3-ok', kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } },
      { opId: 'b3-bad', kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.score]: 80 } },
    ]);
    expect(fixed.json().results.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied']);
  });

  it('validates operations: schema, kinds, local ids, unknown records', async () => {
    const f = t.tables.forms;
    const cases: Array<[unknown[], number, RegExp]> = [
      [[{ opId: 'x', kind: 'upsert', tableId: f.id, properties: {} }], 400, /kind/],
      [[{ opId: 'x', kind: 'update', tableId: f.id, properties: {} }], 400, /id/],
      [[{ kind: 'insert', tableId: f.id, properties: {} }], 400, /opId/],
      [[{ opId: 'x', kind: 'insert', tableId: f.id, localId: LOCAL_ID_BOUND, properties: { [f.columns.parent]: own.durationPaths[0] } }], 400, /localId/],
      [[{ opId: 'x', kind: 'delete', tableId: t.tables.indicators.id, id: 123 }], 404, /record 123 not found/],
      [[{ opId: 'x', kind: 'insert', tableId: 777, properties: {} }], 400, /table 777 not found/],
      [[], 400, /operations/],
      [
        [{ opId: 'x', kind: 'insert', tableId: f.id, id: own.forms[0], properties: { [f.columns.parent]: own.durationPaths[0] } }],
        400,
        /id: not allowed on insert/,
      ],
      [
        [{ opId: 'x', kind: 'insert', tableId: f.id, version: 7, properties: { [f.columns.parent]: own.durationPaths[0] } }],
        400,
        /version: not allowed on insert/,
      ],
    ];
    for (const [operations, status, detail] of cases) {
      const before = await snapshot(t.app);
      const response = await bulk(operations);
      expect(response.statusCode).toBe(status);
      expect(response.json().detail).toMatch(detail);
      expect(await snapshot(t.app)).toBe(before);
    }
  });

  it('works the same through /api/Features/{projectId}/bulk with geometry', async () => {
    const i = t.tables.indicators;
    const response = await bulk(
      [
        {
          opId: 'fb-1',
          kind: 'insert',
          tableId: i.id,
          geometry: { type: 'Point', coordinates: [16.155, 46.836] },
          properties: { [i.columns.parent]: own.forms[0], [i.columns.key]: 'flower_colours', [i.columns.value]: 4 },
        },
      ],
      undefined,
      '/api/Features/1/bulk',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0].record.geometry).toEqual({ type: 'Point', coordinates: [16.155, 46.836] });
  });
});

describe('one live link per path and season', () => {
  it('inserting an existing durationPath answers the live link, also inside a bulk call', async () => {
    const d = t.tables.durationPaths;
    const f = t.tables.forms;
    const seasons = await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1/search', payload: { tableId: t.tables.durations.id } });
    const season2026 = seasons.json().records[1].id;
    const link = { [d.columns.path_id]: own.paths[0], [d.columns.duration_id]: season2026 };
    const first = await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1', payload: { tableId: d.id, properties: link } });
    expect(first.statusCode).toBe(201);
    const before = await countRows(d.id);
    // A second phone created the same missing link offline, plus a form under it.
    const second = await bulk([
      { opId: 'link-2', kind: 'insert', tableId: d.id, localId: 501, properties: link },
      { opId: 'form-2', kind: 'insert', tableId: f.id, localId: 502, properties: { [f.columns.parent]: 501, [f.columns.form_id]: 1 } },
    ]);
    expect(second.statusCode).toBe(200);
    expect(second.json().results[0]).toMatchObject({ status: 'applied', id: first.json().id, localId: 501 });
    expect(second.json().results[1].record.properties[String(f.columns.parent)]).toBe(first.json().id);
    expect(await countRows(d.id)).toBe(before);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response and applies once (create, update, delete, bulk)', async () => {
    const f = t.tables.forms;
    const create = {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } },
      headers: { 'Idempotency-Key': 'k-create-1' },
    };
    const before = await countRows(f.id);
    const first = await t.as(USERS.farmer1, create);
    const second = await t.as(USERS.farmer1, create);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(f.id)).toBe(before + 1);

    const id = first.json().id;
    const update = {
      method: 'PUT',
      url: `/api/Records/1/${f.id}/${id}`,
      payload: { properties: { [f.columns.note]: 'enkrat' }, version: 1 },
      headers: { 'Idempotency-Key': 'k-update-1' },
    };
    expect((await t.as(USERS.farmer1, update)).json().version).toBe(2);
    // Without the key this retry would be a 409 (stale version); with it, the first answer.
    const replay = await t.as(USERS.farmer1, update);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().version).toBe(2);

    const del = { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: f.id, ids: [id] }, headers: { 'Idempotency-Key': 'k-delete-1' } };
    expect((await t.as(USERS.farmer1, del)).json()).toEqual({ ids: [id] });
    expect((await t.as(USERS.farmer1, del)).json()).toEqual({ ids: [id] });
    const history = await t.app.db.selectFrom('record_history').select('action').where('record_id', '=', id).orderBy('id').execute();
    expect(history.map((h) => h.action)).toEqual(['insert', 'update', 'delete']);
  });

  it('keys are per caller, a reused key for another request is 422, rejected requests store nothing', async () => {
    const f = t.tables.forms;
    const payload = { tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1 } };
    const a = await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1', payload, headers: { 'Idempotency-Key': 'shared-key' } });
    expect(a.statusCode).toBe(201);
    const reused = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { ...payload, properties: { ...payload.properties, [f.columns.note]: 'drugo' } },
      headers: { 'Idempotency-Key': 'shared-key' },
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ status: 422, message: 'Generic Error' });
    // The editor's key space is separate: same key, new request, applied.
    const editor = await t.as(USERS.editor, { method: 'POST', url: '/api/Records/1', payload, headers: { 'Idempotency-Key': 'shared-key' } });
    expect(editor.statusCode).toBe(201);
    expect(editor.json().id).not.toBe(a.json().id);
    // A rejected request keeps nothing: the corrected request may use the same key.
    const bad = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: f.id, properties: { [f.columns.score]: 'x' } },
      headers: { 'Idempotency-Key': 'k-bad' },
    });
    expect(bad.statusCode).toBe(400);
    const good = await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1', payload, headers: { 'Idempotency-Key': 'k-bad' } });
    expect(good.statusCode).toBe(201);
    const malformed = await t.as(USERS.farmer1, { method: 'POST', url: '/api/Records/1', payload, headers: { 'Idempotency-Key': 'bad key with spaces' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().detail).toMatch(/Idempotency-Key/);
  });

  it('replays bulk responses', async () => {
    const f = t.tables.forms;
    const ops = [{ opId: 'ik-bulk-1', kind: 'update', tableId: f.id, id: own.forms[0], properties: { [f.columns.note]: 'bulk' } }];
    const first = await bulk(ops, { 'Idempotency-Key': 'k-bulk-1' });
    const second = await bulk(ops, { 'Idempotency-Key': 'k-bulk-1' });
    expect(second.json()).toEqual(first.json());
    expect(second.json().results[0].status).toBe('applied');
    // The same key with a recomposed batch is applied (opIds dedup), not refused.
    const recomposed = await bulk(
      [...ops, { opId: 'ik-bulk-2', kind: 'update', tableId: f.id, id: own.forms[0], properties: { [f.columns.note]: 'bulk 2' } }],
      { 'Idempotency-Key': 'k-bulk-1' },
    );
    expect(recomposed.statusCode).toBe(200);
    expect(recomposed.json().results.map((r: { status: string }) => r.status)).toEqual(['duplicate', 'applied']);
  });
});

describe('version conflicts', () => {
  it('answers 409 with the current record for a stale version and changes nothing', async () => {
    const f = t.tables.forms;
    const id = own.forms[1] ?? own.forms[0]!;
    const current = (await t.as(USERS.farmer1, { method: 'GET', url: `/api/Records/1/${f.id}/${id}` })).json();
    const ok = await t.as(USERS.farmer1, {
      method: 'PUT',
      url: `/api/Records/1/${f.id}/${id}`,
      payload: { properties: { [f.columns.note]: 'prva' }, version: current.version },
    });
    expect(ok.statusCode).toBe(200);
    const before = await snapshot(t.app);
    const stale = await t.as(USERS.farmer1, {
      method: 'PUT',
      url: `/api/Records/1/${f.id}/${id}`,
      payload: { properties: { [f.columns.note]: 'druga' }, version: current.version },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      status: 409,
      message: 'Generic Error',
      current: { id, version: current.version + 1, properties: { [String(f.columns.note)]: 'prva' } },
    });
    expect(await snapshot(t.app)).toBe(before);
    const featureStale = await t.as(USERS.farmer1, {
      method: 'PUT',
      url: `/api/Features/1/${f.id}/${id}`,
      payload: { type: 'Feature', geometry: null, properties: {}, version: 1 },
    });
    expect(featureStale.statusCode).toBe(409);
    const bulkStale = await bulk([{ opId: 'v-1', kind: 'update', tableId: f.id, id, properties: {}, version: 1 }]);
    expect(bulkStale.statusCode).toBe(409);
    expect(bulkStale.json()).toMatchObject({ opId: 'v-1', current: { id } });
    expect(await snapshot(t.app)).toBe(before);
  });
});
