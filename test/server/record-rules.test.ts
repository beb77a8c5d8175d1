/**
 * Rules of record writes for the season set-up (repositories/record-rules.ts), through every
 * writer: single POST/PUT, bulk, and `full`. Each refusal is a 400 with the Slovenian text and
 * changes nothing; farmers and readers keep getting 403/404 for these tables before any rule runs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { slSeasonServer } from '../../src/common/i18n/sl';
import { buildTestApp, snapshot, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';
import { multipart } from '../fixtures/uploads';

let t: TestApp;
let other: FarmerRows;

beforeAll(async () => {
  t = await buildTestApp();
  other = await farmerRows(t.app, t.tables, USERS.farmer2);
});

afterAll(async () => {
  await t.close();
});

let seq = 0;
const opId = () => `rules-${++seq}`;
const season = () => t.tables.durations;
const farmers = () => t.tables.farmers;
const areas = () => t.tables.areas;

const create = (user: string, tableId: number, properties: Record<string, unknown>, geometry?: unknown) =>
  t.as(user, { method: 'POST', url: '/api/Records/1', payload: { tableId, properties, ...(geometry !== undefined ? { geometry } : {}) } });
const update = (user: string, tableId: number, id: number, properties: Record<string, unknown>, geometry?: unknown) =>
  t.as(user, { method: 'PUT', url: `/api/Records/1/${tableId}/${id}`, payload: { properties, ...(geometry !== undefined ? { geometry } : {}) } });
const bulk = (user: string, operations: unknown[]) => t.as(user, { method: 'POST', url: '/api/Records/1/bulk', payload: { operations } });

function seasonProps(name: string, start: string, end: string) {
  const c = season().columns;
  return { [c.name]: name, [c.filter_start]: start, [c.filter_end]: end };
}

function farmerProps(name: string, email: string | null, kmgMid: string | null) {
  const c = farmers().columns;
  return { [c.name]: name, [c.email]: email, [c.kmg_mid]: kmgMid };
}

/** A square of `side` degrees at (lon, lat). */
function square(lon: number, lat: number, side = 0.001) {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [lon, lat],
        [lon + side, lat],
        [lon + side, lat + side],
        [lon, lat + side],
        [lon, lat],
      ],
    ],
  };
}
const bowtie = {
  type: 'Polygon',
  coordinates: [
    [
      [16, 46],
      [16.001, 46.001],
      [16.001, 46],
      [16, 46.001],
      [16, 46],
    ],
  ],
};

async function expectRefused(response: { statusCode: number; json<T>(): T }, before: string, text: RegExp) {
  expect(response.statusCode).toBe(400);
  expect(response.json<{ detail: string }>().detail).toMatch(text);
  expect(await snapshot(t.app)).toBe(before);
}

describe('seasons (durations) may not overlap', () => {
  it('creates a season after the demo ones and refuses one that overlaps it, naming it', async () => {
    const created = await create(USERS.editor, season().id, seasonProps('Sezona 2027', '2027-01-01', '2027-12-31'));
    expect(created.statusCode).toBe(201);
    const before = await snapshot(t.app);
    await expectRefused(
      await create(USERS.editor, season().id, seasonProps('Poletje 2027', '2027-06-01', '2027-08-31')),
      before,
      /prekriva s sezono »Sezona 2027« \(2027-01-01 – 2027-12-31\)/,
    );
    // Touching on one shared day is an overlap too (both would be "current" on that day).
    await expectRefused(await create(USERS.editor, season().id, seasonProps('2028', '2027-12-31', '2028-12-31')), before, /Sezona 2027/);
  });

  it('refuses an end before the start', async () => {
    const before = await snapshot(t.app);
    await expectRefused(await create(USERS.editor, season().id, seasonProps('Narobe', '2030-05-01', '2030-04-01')), before, /po njenem koncu/);
  });

  it('checks a change of dates against the others but not against the season itself', async () => {
    const created = (await create(USERS.editor, season().id, seasonProps('Sezona 2031', '2031-01-01', '2031-12-31'))).json<{ id: number }>();
    expect((await update(USERS.editor, season().id, created.id, { [season().columns.filter_end]: '2031-11-30' })).statusCode).toBe(200);
    const before = await snapshot(t.app);
    await expectRefused(await update(USERS.editor, season().id, created.id, { [season().columns.filter_start]: '2027-03-01' }), before, /Sezona 2027/);
    // A rename does not re-check dates.
    expect((await update(USERS.editor, season().id, created.id, { [season().columns.name]: 'Sezona 2031 (skrajšana)' })).statusCode).toBe(200);
  });

  it('an archived season no longer blocks its dates', async () => {
    const old = (await create(USERS.editor, season().id, seasonProps('Stara 2040', '2040-01-01', '2040-12-31'))).json<{ id: number }>();
    const archived = await t.as(USERS.editor, { method: 'POST', url: '/api/Records/1/archive', payload: { tableId: season().id, ids: [old.id] } });
    expect(archived.statusCode).toBe(200);
    expect((await create(USERS.editor, season().id, seasonProps('Nova 2040', '2040-03-01', '2040-10-31'))).statusCode).toBe(201);
  });

  it('two overlapping seasons in one bulk call: the call is refused whole', async () => {
    const before = await snapshot(t.app);
    const response = await bulk(USERS.editor, [
      { opId: opId(), kind: 'insert', tableId: season().id, properties: seasonProps('A 2050', '2050-01-01', '2050-06-30') },
      { opId: opId(), kind: 'insert', tableId: season().id, properties: seasonProps('B 2050', '2050-06-01', '2050-12-31') },
    ]);
    await expectRefused(response, before, /operations\[1\].*prekriva s sezono »A 2050«/);
  });
});

describe('seasons: the review deadlines', () => {
  it('keeps the review deadline on or after the submission deadline, and the appeal period whole days up to a year', async () => {
    const c = season().columns;
    const created = await create(USERS.editor, season().id, {
      ...seasonProps('Sezona 2060', '2060-01-01', '2060-12-31'),
      [c.submit_until]: '2060-10-31',
      [c.review_until]: '2060-11-30',
      [c.appeal_days]: 15,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    const before = await snapshot(t.app);
    await expectRefused(
      await update(USERS.editor, season().id, id, { [c.review_until]: '2060-10-30' }),
      before,
      /Rok za pregled \(2060-10-30\) je pred rokom za oddajo \(2060-10-31\)/,
    );
    await expectRefused(await update(USERS.editor, season().id, id, { [c.submit_until]: '2060-12-01' }), before, /pred rokom za oddajo/);
    for (const days of [-1, 2.5, 366])
      await expectRefused(
        await update(USERS.editor, season().id, id, { [c.appeal_days]: days }),
        before,
        new RegExp(`Dni za pritožbo .* ne »${String(days).replace('.', '\\.')}«`),
      );
    await expectRefused(
      await bulk(USERS.editor, [{ opId: opId(), kind: 'update', tableId: season().id, id, properties: { [c.appeal_days]: 400 } }]),
      before,
      /Dni za pritožbo/,
    );
    // Cleared: no limit.
    expect((await update(USERS.editor, season().id, id, { [c.appeal_days]: null, [c.review_until]: null })).statusCode).toBe(200);
  });
});

describe('farmers: e-mail and KMG-MID unique per project', () => {
  it('creates a farmer, then refuses the same e-mail (any case) and the same KMG-MID', async () => {
    expect((await create(USERS.editor, farmers().id, farmerProps('Ana Kovač', 'ana.kovac@example.si', '200100100'))).statusCode).toBe(201);
    const before = await snapshot(t.app);
    await expectRefused(
      await create(USERS.editor, farmers().id, farmerProps('Druga Ana', ' ANA.Kovac@example.si', '200100999')),
      before,
      /e-poštnim naslovom ANA\.Kovac@example\.si že obstaja \(»Ana Kovač«\)/,
    );
    await expectRefused(
      await create(USERS.editor, farmers().id, farmerProps('Tretja', 'tretja@example.si', '200100100')),
      before,
      /KMG-MID 200100100 že obstaja \(»Ana Kovač«\)/,
    );
    // A demo farmer's e-mail is taken too.
    await expectRefused(await create(USERS.editor, farmers().id, farmerProps('Kopija', USERS.farmer2, null)), before, /Marija Horvat/);
  });

  it('refuses an e-mail that is not one', async () => {
    const before = await snapshot(t.app);
    await expectRefused(
      await create(USERS.editor, farmers().id, farmerProps('Brez', 'ni-naslov', null)),
      before,
      new RegExp(slSeasonServer.rules.farmerEmailInvalid.slice(0, 15)),
    );
  });

  it('an update may keep its own values, and may not take another farmer’s', async () => {
    const own = (await create(USERS.editor, farmers().id, farmerProps('Boris', 'boris@example.si', '200200200'))).json<{ id: number }>();
    const c = farmers().columns;
    expect((await update(USERS.editor, farmers().id, own.id, { [c.email]: 'boris@example.si', [c.phone]: '041 000 000' })).statusCode).toBe(200);
    const before = await snapshot(t.app);
    await expectRefused(await update(USERS.editor, farmers().id, own.id, { [c.kmg_mid]: '100345678' }), before, /Marija Horvat/);
  });

  it('duplicates within one bulk call are refused whole (the first is not written either)', async () => {
    const before = await snapshot(t.app);
    const response = await bulk(USERS.editor, [
      { opId: opId(), kind: 'insert', tableId: farmers().id, properties: farmerProps('C1', 'c@example.si', '300') },
      { opId: opId(), kind: 'insert', tableId: farmers().id, properties: farmerProps('C2', 'c@example.si', '301') },
    ]);
    await expectRefused(response, before, /operations\[1\].*c@example\.si že obstaja/);
  });

  it('through `full` (multipart) the same rule answers', async () => {
    const before = await snapshot(t.app);
    const { body, contentType } = multipart([
      { name: 'record', value: JSON.stringify({ tableId: farmers().id, properties: farmerProps('D', USERS.farmer1, null) }) },
    ]);
    const response = await fetch(`${t.origin}/api/Records/1/full`, {
      method: 'POST',
      headers: { [TEST_USER_HEADER]: USERS.editor, 'content-type': contentType },
      body: new Uint8Array(body),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/Janez Novak/);
    expect(await snapshot(t.app)).toBe(before);
  });
});

describe('meadows (areas): simple polygons, area in hectares', () => {
  it('computes area_ha from the boundary, overriding what was sent', async () => {
    const c = areas().columns;
    const created = await create(USERS.editor, areas().id, { [c.name]: 'Nov travnik', [c.user]: other.farmer, [c.area_ha]: 999 }, square(16.1, 46.8));
    expect(created.statusCode).toBe(201);
    const record = created.json<{ id: number; properties: Record<string, number> }>();
    // 0.001° × 0.001° at 46.8° N ≈ 76 m × 111 m ≈ 0.85 ha.
    expect(record.properties[c.area_ha]).toBeGreaterThan(0.8);
    expect(record.properties[c.area_ha]).toBeLessThan(0.9);
    const moved = await update(USERS.editor, areas().id, record.id, {}, square(16.1, 46.8, 0.002));
    expect(moved.json<{ properties: Record<string, number> }>().properties[c.area_ha]).toBeCloseTo(record.properties[c.area_ha]! * 4, 1);
  });

  it('refuses a self-intersecting boundary, a line and a boundary without area', async () => {
    const c = areas().columns;
    const before = await snapshot(t.app);
    const props = { [c.name]: 'Slab', [c.user]: other.farmer };
    await expectRefused(await create(USERS.editor, areas().id, props, bowtie), before, /seka samo sebe \(pri 16\.000500, 46\.000500\)/);
    await expectRefused(
      await create(USERS.editor, areas().id, props, {
        type: 'LineString',
        coordinates: [
          [16, 46],
          [16.1, 46.1],
        ],
      }),
      before,
      /mnogokotnik .*ne LineString/,
    );
    const flat = {
      type: 'Polygon',
      coordinates: [
        [
          [16, 46],
          [16.001, 46],
          [16.002, 46],
          [16, 46],
        ],
      ],
    };
    await expectRefused(await create(USERS.editor, areas().id, props, flat), before, /nima površine/);
    // Ring structure stays geometry.ts's check (English detail naming the position).
    const open = await create(USERS.editor, areas().id, props, {
      type: 'Polygon',
      coordinates: [
        [
          [16, 46],
          [16.001, 46],
          [16.001, 46.001],
          [16, 46.001],
        ],
      ],
    });
    expect(open.statusCode).toBe(400);
    expect(await snapshot(t.app)).toBe(before);
  });

  it('refuses a bad boundary in an update and in a bulk call', async () => {
    const before = await snapshot(t.app);
    await expectRefused(await update(USERS.editor, areas().id, other.areas[0]!, {}, bowtie), before, /seka samo sebe/);
    const response = await bulk(USERS.editor, [{ opId: opId(), kind: 'update', tableId: areas().id, id: other.areas[0]!, properties: {}, geometry: bowtie }]);
    await expectRefused(response, before, /seka samo sebe/);
  });
});

describe('farmers and readers are refused before any rule', () => {
  it('readers get 403 on every such write', async () => {
    const before = await snapshot(t.app);
    expect((await create(USERS.reader, season().id, seasonProps('R', '2060-01-01', '2060-12-31'))).statusCode).toBe(403);
    expect((await create(USERS.reader, farmers().id, farmerProps('R', 'r@example.si', '1'))).statusCode).toBe(403);
    expect((await create(USERS.reader, areas().id, { [areas().columns.user]: other.farmer }, square(16, 46))).statusCode).toBe(403);
    expect((await update(USERS.reader, areas().id, other.areas[0]!, {}, square(16, 46))).statusCode).toBe(403);
    expect(await snapshot(t.app)).toBe(before);
  });

  it('farmers get 403 for seasons, farmers and meadows (own or another farmer’s)', async () => {
    const before = await snapshot(t.app);
    expect((await create(USERS.farmer1, season().id, seasonProps('F', '2061-01-01', '2061-12-31'))).statusCode).toBe(403);
    expect((await create(USERS.farmer1, farmers().id, farmerProps('F', 'f@example.si', '2'))).statusCode).toBe(403);
    const own = await farmerRows(t.app, t.tables, USERS.farmer1);
    expect((await create(USERS.farmer1, areas().id, { [areas().columns.user]: own.farmer }, square(16, 46))).statusCode).toBe(403);
    expect((await update(USERS.farmer1, areas().id, own.areas[0]!, {}, square(16, 46))).statusCode).toBe(403);
    expect((await update(USERS.farmer1, areas().id, other.areas[0]!, {}, square(16, 46))).statusCode).toBe(403);
    expect(
      (
        await bulk(USERS.farmer1, [
          { opId: opId(), kind: 'update', tableId: farmers().id, id: other.farmer, properties: { [farmers().columns.email]: USERS.farmer1 } },
        ])
      ).statusCode,
    ).toBe(403);
    // Another farmer's row is invisible (404) where the table is theirs to write at all.
    expect(
      (
        await update(
          USERS.farmer1,
          t.tables.paths.id,
          other.paths[0]!,
          {},
          {
            type: 'LineString',
            coordinates: [
              [16, 46],
              [16.1, 46.1],
            ],
          },
        )
      ).statusCode,
    ).toBe(404);
    expect(await snapshot(t.app)).toBe(before);
  });
});
