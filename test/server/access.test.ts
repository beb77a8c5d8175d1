/**
 * Roles enforced on the server (docs/architecture.md, Roles): authentication required, the roles call,
 * farmers confined to their own chain (another farmer's row is a 404 on every route family,
 * filters cannot widen the scope), readers never write, only editors archive, mass assignment
 * impossible. Every denied write is checked to have changed nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FilterNode } from '../../src/common/filter';
import { resolveAccess } from '../../src/server/access/access';
import { assertRecordAccess } from '../../src/server/repositories/record-repository';
import { DomainError, unauthenticated } from '../../src/server/domain-errors';
import { buildTestApp, snapshot, USERS, type TestApp, type TestResponse } from './helpers/build-test-app';
import { demoFormsAsDrafts, durationIds, farmerRows, type FarmerRows } from './helpers/demo-ids';

let t: TestApp;
let own: FarmerRows;
let other: FarmerRows;
let durations: number[];

beforeAll(async () => {
  t = await buildTestApp();
  await demoFormsAsDrafts(t.app, t.tables);
  own = await farmerRows(t.app, t.tables, USERS.farmer1);
  other = await farmerRows(t.app, t.tables, USERS.farmer2);
  durations = await durationIds(t.app, t.tables);
});

afterAll(async () => {
  await t.close();
});

const search = (user: string, tableId: number, filters?: FilterNode) =>
  t.as(user, { method: 'POST', url: '/api/Records/1/search', payload: { tableId, filters } });
const idsOf = (response: { json(): { records: Array<{ id: number }> } }) =>
  response
    .json()
    .records.map((r) => r.id)
    .sort();

async function expectUnchanged(action: () => Promise<TestResponse>, status: number): Promise<TestResponse> {
  const before = await snapshot(t.app);
  const response = await action();
  expect({ status: response.statusCode, body: response.body }).toEqual({ status, body: expect.any(String) });
  expect(await snapshot(t.app)).toBe(before);
  return response;
}

describe('authentication and roles', () => {
  it('answers 401 without credentials on /api/* but not on /api/Test', async () => {
    const response = await t.as(null, { method: 'POST', url: '/api/Records/1/search', payload: { tableId: t.tables.areas.id } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ status: 401, message: 'Unauthorized', detail: 'authentication required' });
    expect((await t.as(null, { method: 'GET', url: '/api/PublicApp/1/roles' })).statusCode).toBe(401);
    expect((await t.as(null, { method: 'GET', url: '/api/Test' })).statusCode).toBe(200);
  });

  it('answers 401 with the catalogue body when the credentials are bad (authenticate throws)', async () => {
    const strict = await buildTestApp({
      authenticate: async () => {
        throw unauthenticated('token expired');
      },
    });
    try {
      const before = await snapshot(strict.app);
      const response = await strict.as(USERS.editor, { method: 'POST', url: '/api/Records/1', payload: { tableId: strict.tables.forms.id, properties: {} } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: 401, message: 'Unauthorized', detail: 'token expired' });
      expect(await snapshot(strict.app)).toBe(before);
      expect((await strict.as(null, { method: 'GET', url: '/api/Test' })).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('reports roles per project: editor, reader, farmer (none)', async () => {
    const roles = async (user: string) => (await t.as(user, { method: 'GET', url: '/api/PublicApp/1/roles' })).json();
    expect(await roles(USERS.editor)).toEqual({ roles: ['editor'], editor: true, reader: false });
    expect(await roles(USERS.reader)).toEqual({ roles: ['reader'], editor: false, reader: true });
    expect(await roles(USERS.farmer1)).toEqual({ roles: [], editor: false, reader: false });
    expect(await roles(USERS.stranger)).toEqual({ roles: [], editor: false, reader: false });
    expect((await t.as(USERS.editor, { method: 'GET', url: '/api/PublicApp/99/roles' })).statusCode).toBe(404);
  });

  it('refuses data to a user with no role and no farmer record (403, clear message)', async () => {
    const response = await search(USERS.stranger, t.tables.farmers.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ status: 403, message: 'Forbidden', detail: 'No farmer record for this user' });
  });
});

describe('farmers see only their own chain', () => {
  it('search returns exactly the own rows of every chain table, and all durations', async () => {
    const u = USERS.farmer1;
    expect(idsOf(await search(u, t.tables.farmers.id))).toEqual([own.farmer]);
    expect(idsOf(await search(u, t.tables.areas.id))).toEqual(own.areas);
    expect(idsOf(await search(u, t.tables.paths.id))).toEqual(own.paths);
    expect(idsOf(await search(u, t.tables.durationPaths.id))).toEqual(own.durationPaths);
    expect(idsOf(await search(u, t.tables.forms.id))).toEqual(own.forms);
    expect(idsOf(await search(u, t.tables.indicators.id))).toEqual(own.indicators.sort());
    expect(idsOf(await search(u, t.tables.durations.id))).toEqual(durations);
    expect(own.indicators.length).toBeGreaterThan(0);
  });

  it('filters cannot widen the scope', async () => {
    const escape: FilterNode = {
      kind: 'expression',
      operator: 'Or',
      nodes: [
        { kind: 'filter', columnId: t.tables.areas.columns.user, comparison: 'Equals', value: other.farmer },
        { kind: 'filter', columnId: 'id', comparison: 'IsNotNull' },
        { kind: 'filter', columnId: 'deleted', comparison: 'In', value: [true, false] },
      ],
    };
    expect(idsOf(await search(USERS.farmer1, t.tables.areas.id, escape))).toEqual(own.areas);
    const ids = await t.as(USERS.farmer1, {
      method: 'POST',
      url: '/api/Records/1/search/ids',
      payload: { tableId: t.tables.areas.id, filters: escape, includeDeleted: true },
    });
    expect(ids.json().ids.sort()).toEqual(own.areas);
  });

  it("another farmer's rows are 404 on single reads and absent from ids, text, spatial and extent queries", async () => {
    const u = USERS.farmer1;
    expect((await t.as(u, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${other.areas[0]}` })).statusCode).toBe(404);
    expect((await t.as(u, { method: 'GET', url: `/api/Features/1/${t.tables.areas.id}/${other.areas[0]}` })).statusCode).toBe(404);
    expect((await t.as(u, { method: 'GET', url: `/api/Features/1/${t.tables.forms.id}/${other.forms[0]}/detailed` })).statusCode).toBe(404);
    expect((await t.as(u, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${own.areas[0]}` })).statusCode).toBe(200);
    const byIds = await t.as(u, { method: 'POST', url: '/api/Records/1/ids', payload: { tableId: t.tables.areas.id, ids: [...other.areas, own.areas[0]] } });
    expect(idsOf(byIds)).toEqual([own.areas[0]]);
    const text = await t.as(u, { method: 'GET', url: '/api/Records/1/search/1/100/1/gradu' });
    expect(text.json()).toEqual({ records: [], totalCount: 0 });
    const ownText = await t.as(u, { method: 'GET', url: '/api/Records/1/search/1/100/1/kuzmo' });
    expect(ownText.json().totalCount).toBeGreaterThan(0);
    const region = 'extent[minX]=15.9&extent[minY]=46.6&extent[maxX]=16.5&extent[maxY]=47';
    const extent = await t.as(u, { method: 'GET', url: `/api/Records/1/extenttables?${region}&tableIds=${t.tables.areas.id}&tableIds=${t.tables.paths.id}` });
    expect(idsOf(extent)).toEqual([...own.areas, ...own.paths].sort());
    const features = await t.as(u, { method: 'GET', url: `/api/Features/1/extenttables?${region}&tableIds=${t.tables.areas.id}` });
    expect(
      features
        .json()
        .features.map((f: { id: number }) => f.id)
        .sort(),
    ).toEqual(own.areas);
    const spatial = await t.as(u, {
      method: 'POST',
      url: '/api/Records/1/spatial',
      payload: {
        tableIds: [t.tables.areas.id],
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [15.9, 46.6],
              [16.5, 46.6],
              [16.5, 47],
              [15.9, 47],
              [15.9, 46.6],
            ],
          ],
        },
      },
    });
    expect(idsOf(spatial)).toEqual(own.areas);
    const editorSpatial = await t.as(USERS.editor, {
      method: 'POST',
      url: '/api/Records/1/spatial',
      payload: {
        tableIds: [t.tables.areas.id],
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [15.9, 46.6],
              [16.5, 46.6],
              [16.5, 47],
              [15.9, 47],
              [15.9, 46.6],
            ],
          ],
        },
      },
    });
    expect(editorSpatial.json().totalCount).toBeGreaterThan(own.areas.length + other.areas.length - 1);
  });

  it("updating, deleting or bulk-changing another farmer's rows is a 404 and changes nothing", async () => {
    const u = USERS.farmer1;
    const formId = other.forms[0]!;
    await expectUnchanged(
      () => t.as(u, { method: 'PUT', url: `/api/Records/1/${t.tables.forms.id}/${formId}`, payload: { properties: { [t.tables.forms.columns.note]: 'x' } } }),
      404,
    );
    await expectUnchanged(
      () => t.as(u, { method: 'PUT', url: `/api/Features/1/${t.tables.forms.id}/${formId}`, payload: { type: 'Feature', geometry: null, properties: {} } }),
      404,
    );
    await expectUnchanged(
      () => t.as(u, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.indicators.id, ids: [other.indicators[0]] } }),
      404,
    );
    await expectUnchanged(
      () => t.as(u, { method: 'POST', url: '/api/Features/1/delete', payload: { tableId: t.tables.forms.id, ids: [own.forms[0], formId] } }),
      404,
    );
    await expectUnchanged(
      () =>
        t.as(u, {
          method: 'POST',
          url: '/api/Records/1/bulk',
          payload: {
            operations: [
              { opId: 'own-ok', kind: 'update', tableId: t.tables.forms.id, id: own.forms[0], properties: { [t.tables.forms.columns.note]: 'moje' } },
              { opId: 'theirs', kind: 'update', tableId: t.tables.forms.id, id: formId, properties: { [t.tables.forms.columns.note]: 'tuje' } },
            ],
          },
        }),
      404,
    );
  });

  it('cannot attach new rows to, or move own rows under, rows of another farmer (mass assignment)', async () => {
    const u = USERS.farmer1;
    const formCols = t.tables.forms.columns;
    const attach = await expectUnchanged(
      () =>
        t.as(u, {
          method: 'POST',
          url: '/api/Records/1',
          payload: { tableId: t.tables.forms.id, properties: { [formCols.parent]: other.durationPaths[0], [formCols.form_id]: 1 } },
        }),
      400,
    );
    expect(attach.body).toMatch(/not found in table durationPaths/);
    await expectUnchanged(
      () =>
        t.as(u, {
          method: 'PUT',
          url: `/api/Records/1/${t.tables.forms.id}/${own.forms[0]}`,
          payload: { properties: { [formCols.parent]: other.durationPaths[0] } },
        }),
      400,
    );
    const orphan = await expectUnchanged(
      () => t.as(u, { method: 'POST', url: '/api/Records/1', payload: { tableId: t.tables.forms.id, properties: { [formCols.form_id]: 1 } } }),
      400,
    );
    expect(orphan.body).toMatch(/parent\): is required/);
    for (const field of [{ id: 5 }, { version: 9 }, { createdAt: '2020-01-01T00:00:00Z' }, { deleted: true }]) {
      const response = await expectUnchanged(
        () =>
          t.as(u, {
            method: 'POST',
            url: '/api/Records/1',
            payload: { tableId: t.tables.forms.id, properties: { [formCols.parent]: own.durationPaths[0] }, ...field },
          }),
        400,
      );
      expect(response.body).toMatch(/is not allowed/);
    }
  });

  it('may do the field work: create a season link, forms and indicators, record a walk, delete own indicators', async () => {
    const u = USERS.farmer1;
    const dp = await t.as(u, {
      method: 'POST',
      url: '/api/Records/1',
      payload: {
        tableId: t.tables.durationPaths.id,
        properties: { [t.tables.durationPaths.columns.path_id]: own.paths[0], [t.tables.durationPaths.columns.duration_id]: durations[1] },
      },
    });
    expect(dp.statusCode).toBe(201);
    const form = await t.as(u, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: t.tables.forms.id, properties: { [t.tables.forms.columns.parent]: dp.json().id, [t.tables.forms.columns.form_id]: 1 } },
    });
    expect(form.statusCode).toBe(201);
    const indicator = await t.as(u, {
      method: 'POST',
      url: `/api/Features/1/${t.tables.indicators.id}`,
      payload: {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [16.155, 46.836] },
        properties: {
          [t.tables.indicators.columns.parent]: form.json().id,
          [t.tables.indicators.columns.key]: 'salvia_pratensis',
          [t.tables.indicators.columns.value]: true,
        },
      },
    });
    expect(indicator.statusCode).toBe(201);
    const walk = await t.as(u, {
      method: 'PUT',
      url: `/api/Features/1/${t.tables.paths.id}/${own.paths[0]}`,
      payload: {
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [16.154, 46.835],
            [16.156, 46.837],
          ],
        },
        properties: { [t.tables.paths.columns.length_m]: 260 },
      },
    });
    expect(walk.statusCode).toBe(200);
    // The phone sends the whole path back: unchanged columns it may not edit are fine.
    const whole = await t.as(u, {
      method: 'PUT',
      url: `/api/Features/1/${t.tables.paths.id}/${own.paths[0]}`,
      payload: { type: 'Feature', geometry: walk.json().geometry, properties: { ...walk.json().properties, [t.tables.paths.columns.walk]: { points: 42 } } },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.json().version).toBe(walk.json().version + 1);
    const removed = await t.as(u, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.indicators.id, ids: [indicator.json().id] } });
    expect(removed.json()).toEqual({ ids: [indicator.json().id] });
  });

  it("may add a transect to an own meadow, never to another farmer's (nothing changed)", async () => {
    const u = USERS.farmer1;
    const cols = t.tables.paths.columns;
    const line = {
      type: 'LineString',
      coordinates: [
        [16.154, 46.835],
        [16.156, 46.837],
      ],
    };
    const created = await t.as(u, {
      method: 'POST',
      url: `/api/Features/1/${t.tables.paths.id}`,
      payload: { type: 'Feature', geometry: line, properties: { [cols.name]: 'Nova pot', [cols.parent]: own.areas[0], [cols.length_m]: 260 } },
    });
    expect(created.statusCode).toBe(201);
    expect((await search(u, t.tables.paths.id)).json().records.map((r: { id: number }) => r.id)).toContain(created.json().id);
    const foreign = await expectUnchanged(
      () =>
        t.as(u, {
          method: 'POST',
          url: `/api/Features/1/${t.tables.paths.id}`,
          payload: { type: 'Feature', geometry: line, properties: { [cols.name]: 'Tuja', [cols.parent]: other.areas[0] } },
        }),
      400,
    );
    expect(foreign.body).toMatch(/not found in table areas/);
  });

  it('may not create areas, rename paths, delete paths or archive anything (403, nothing changed)', async () => {
    const u = USERS.farmer1;
    const area = await expectUnchanged(
      () =>
        t.as(u, { method: 'POST', url: '/api/Records/1', payload: { tableId: t.tables.areas.id, properties: { [t.tables.areas.columns.user]: own.farmer } } }),
      403,
    );
    expect(area.json()).toEqual({ status: 403, message: 'Forbidden', detail: 'farmers may not insert records of table areas' });
    await expectUnchanged(
      () =>
        t.as(u, {
          method: 'PUT',
          url: `/api/Records/1/${t.tables.paths.id}/${own.paths[0]}`,
          payload: { properties: { [t.tables.paths.columns.name]: 'Nova' } },
        }),
      403,
    );
    await expectUnchanged(() => t.as(u, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.paths.id, ids: [own.paths[0]] } }), 403);
    await expectUnchanged(() => t.as(u, { method: 'POST', url: '/api/Records/1/archive', payload: { tableId: t.tables.forms.id, ids: [own.forms[0]] } }), 403);
    await expectUnchanged(() => t.as(u, { method: 'PUT', url: `/api/Records/1/${t.tables.durations.id}/${durations[0]}`, payload: { properties: {} } }), 403);
  });
});

describe('readers and editors', () => {
  it('readers see everything and change nothing', async () => {
    const r = USERS.reader;
    expect(idsOf(await search(r, t.tables.areas.id))).toEqual(expect.arrayContaining([...own.areas, ...other.areas]));
    const attempts = [
      { method: 'POST', url: '/api/Records/1', payload: { tableId: t.tables.forms.id, properties: {} } },
      { method: 'PUT', url: `/api/Records/1/${t.tables.forms.id}/${own.forms[0]}`, payload: { properties: {} } },
      { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.forms.id, ids: [own.forms[0]] } },
      { method: 'POST', url: '/api/Records/1/archive', payload: { tableId: t.tables.forms.id, ids: [own.forms[0]] } },
      { method: 'POST', url: '/api/Records/1/bulk', payload: { operations: [{ opId: 'r1', kind: 'delete', tableId: t.tables.forms.id, id: own.forms[0] }] } },
      { method: 'POST', url: `/api/Features/1/${t.tables.areas.id}`, payload: { type: 'Feature', geometry: null, properties: {} } },
      { method: 'POST', url: '/api/Features/1/bulk', payload: { operations: [{ opId: 'r2', kind: 'archive', tableId: t.tables.forms.id, id: own.forms[0] }] } },
    ];
    for (const attempt of attempts) {
      const response = await expectUnchanged(() => t.as(r, attempt), 403);
      expect(response.body).toMatch(/readers may not change data/);
    }
  });

  it('editors change anything, archive and restore, and delete', async () => {
    const e = USERS.editor;
    const archived = await t.as(e, { method: 'POST', url: '/api/Records/1/archive', payload: { tableId: t.tables.areas.id, ids: [other.areas[0]] } });
    expect(archived.json()).toEqual({ ids: [other.areas[0]] });
    const record = await t.as(e, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${other.areas[0]}` });
    expect(record.json()).toMatchObject({ archived: true, version: 2 });
    const restored = await t.as(e, {
      method: 'POST',
      url: '/api/Records/1/archive',
      payload: { tableId: t.tables.areas.id, ids: [other.areas[0]], archived: false },
    });
    expect(restored.statusCode).toBe(200);
    expect((await t.as(e, { method: 'GET', url: `/api/Records/1/${t.tables.areas.id}/${other.areas[0]}` })).json()).toMatchObject({
      archived: false,
      version: 3,
    });
    const renamed = await t.as(e, {
      method: 'PUT',
      url: `/api/Records/1/${t.tables.paths.id}/${other.paths[0]}`,
      payload: { properties: { [t.tables.paths.columns.name]: 'Preimenovana pot' } },
    });
    expect(renamed.statusCode).toBe(200);
    const deleted = await t.as(e, { method: 'POST', url: '/api/Records/1/delete', payload: { tableId: t.tables.indicators.id, ids: [other.indicators[0]] } });
    expect(deleted.statusCode).toBe(200);
  });
});

describe('assertRecordAccess (for attachment routes)', () => {
  it('finds visible records, 404s others, 403s disallowed writes', async () => {
    const schema = (await t.app.projects.get(1))!;
    const access = await resolveAccess(t.app.db, t.app.dialect, schema, { subject: 's', email: USERS.farmer1, via: 'token' });
    const ctx = { db: t.app.db, dialect: t.app.dialect, schema, access, now: new Date().toISOString() };
    await expect(assertRecordAccess(ctx, own.forms[0]!, 'update')).resolves.toMatchObject({ id: own.forms[0] });
    await expect(assertRecordAccess(ctx, other.forms[0]!)).rejects.toMatchObject({ kind: 'not-found' });
    await expect(assertRecordAccess(ctx, own.areas[0]!, 'update')).rejects.toBeInstanceOf(DomainError);
    await expect(assertRecordAccess(ctx, own.areas[0]!, 'update')).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
