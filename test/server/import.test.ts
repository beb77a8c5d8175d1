/**
 * Bulk import over HTTP (POST /api/Import/preview, /dry-run, /commit): farmers from CSV, meadows
 * from GeoPackage, zipped Shapefile and GeoJSON in WGS84 or D96/TM — files generated here. Dry run
 * reports each row, commit is all or nothing, re-import updates in place; only editors import.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Polygon } from 'geojson';
import { buildTestApp, snapshot, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { multipart } from '../fixtures/uploads';
import { D96_TM_PRJ, farmersCsv, geoJsonFile, geoPackageFile, squareMeadow, zippedShapefile, type MeadowFixture } from '../fixtures/geo-files';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ limits: { fileSize: 256 * 1024 } });
});

afterAll(async () => {
  await t.close();
});

interface Report {
  created: number;
  updated: number;
  refused: number;
  rows: Array<{ row: number; action: string; reason?: string; key?: string }>;
}

async function send(
  step: 'preview' | 'dry-run' | 'commit',
  kind: string,
  file: Buffer,
  options: { mapping?: unknown; user?: string | null; fileName?: string } = {},
) {
  const user = options.user === undefined ? USERS.editor : options.user;
  const { body, contentType } = multipart([
    { name: 'kind', value: kind },
    ...(options.mapping !== undefined ? [{ name: 'mapping', value: JSON.stringify(options.mapping) }] : []),
    { name: 'file', file: { fileName: options.fileName ?? 'file', contentType: 'application/octet-stream', content: file } },
  ]);
  const response = await fetch(`${t.origin}/api/Import/${step}`, {
    method: 'POST',
    headers: { ...(user ? { [TEST_USER_HEADER]: user } : {}), 'content-type': contentType },
    body: new Uint8Array(body),
  });
  const text = await response.text();
  return { status: response.status, json: <T = Report>() => JSON.parse(text) as T };
}

async function rowsOf(tableKey: 'farmers' | 'areas') {
  const table = t.tables[tableKey];
  const rows = await t.app.db
    .selectFrom('records')
    .select(['id', 'version', 'properties', 'geometry'])
    .where('table_id', '=', table.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    props: JSON.parse(r.properties) as Record<string, unknown>,
    geometry: r.geometry ? (JSON.parse(r.geometry) as Polygon) : null,
  }));
}

const FARMERS = [
  { name: 'Ana Kmetič', email: 'ana.kmetic@example.si', phone: '041 111 111', kmgMid: '500000001' },
  { name: 'Bojan Polje', email: 'bojan.polje@example.si', kmgMid: '500000002' },
];

describe('farmers from CSV', () => {
  it('preview: Slovenian headers with BOM and ";" map to the columns', async () => {
    const response = await send('preview', 'farmers', farmersCsv(FARMERS));
    expect(response.status).toBe(200);
    const c = t.tables.farmers.columns;
    expect(response.json()).toEqual({
      columns: ['Ime in priimek', 'E-pošta', 'Telefon', 'KMG-MID'],
      targets: expect.arrayContaining([
        { id: c.name, name: 'name' },
        { id: c.email, name: 'email' },
        { id: c.phone, name: 'phone' },
        { id: c.kmg_mid, name: 'kmg_mid' },
      ]),
      suggested: { 'Ime in priimek': c.name, 'E-pošta': c.email, Telefon: c.phone, 'KMG-MID': c.kmg_mid },
      sample: [
        { 'Ime in priimek': 'Ana Kmetič', 'E-pošta': 'ana.kmetic@example.si', Telefon: '041 111 111', 'KMG-MID': '500000001' },
        { 'Ime in priimek': 'Bojan Polje', 'E-pošta': 'bojan.polje@example.si', Telefon: '', 'KMG-MID': '500000002' },
      ],
    });
  });

  it('dry run writes nothing; commit creates; the same file again updates in place', async () => {
    const before = await snapshot(t.app);
    const dry = await send('dry-run', 'farmers', farmersCsv(FARMERS));
    expect(dry.json()).toEqual({
      created: 2,
      updated: 0,
      refused: 0,
      rows: [
        { row: 1, action: 'create', key: '500000001' },
        { row: 2, action: 'create', key: '500000002' },
      ],
    });
    expect(await snapshot(t.app)).toBe(before);

    const committed = await send('commit', 'farmers', farmersCsv(FARMERS));
    expect(committed.status).toBe(200);
    expect(committed.json()).toMatchObject({ created: 2, updated: 0, refused: 0 });
    const after = await rowsOf('farmers');
    const c = t.tables.farmers.columns;
    const ana = after.find((f) => f.props[c.kmg_mid] === '500000001')!;
    expect(ana.props).toEqual({ [c.name]: 'Ana Kmetič', [c.email]: 'ana.kmetic@example.si', [c.phone]: '041 111 111', [c.kmg_mid]: '500000001' });

    // The same farmers as ","-separated English headers: matched by KMG-MID, nothing new.
    const again = await send('commit', 'farmers', farmersCsv([{ ...FARMERS[0]!, phone: '031 222 222' }, FARMERS[1]!], 'en'));
    expect(again.json()).toMatchObject({ created: 0, updated: 2, refused: 0 });
    const final = await rowsOf('farmers');
    expect(final.length).toBe(after.length);
    const anaAgain = final.find((f) => f.id === ana.id)!;
    expect(anaAgain.props[c.phone]).toBe('031 222 222');
    // Bojan did not change: no new version.
    const bojan = after.find((f) => f.props[c.kmg_mid] === '500000002')!;
    expect(final.find((f) => f.id === bojan.id)!.version).toBe(bojan.version);
  });

  it('refuses each bad row with a reason; a commit with any refused row writes nothing', async () => {
    const csv = farmersCsv([
      { name: 'Brez MID', email: 'brez@example.si', kmgMid: '' },
      { name: 'Cene', email: 'cene@example.si', kmgMid: '500000010' },
      { name: 'Cene dvojnik', email: 'cene2@example.si', kmgMid: '500000010' },
      { name: 'Slab naslov', email: 'ni-naslov', kmgMid: '500000011' },
      { name: 'Tuji naslov', email: USERS.farmer1, kmgMid: '500000012' },
      { name: 'Isti naslov', email: 'cene@example.si', kmgMid: '500000013' },
    ]);
    const before = await snapshot(t.app);
    const dry = (await send('dry-run', 'farmers', csv)).json();
    expect(dry).toMatchObject({ created: 1, updated: 0, refused: 5 });
    expect(dry.rows.map((r) => [r.row, r.action])).toEqual([
      [1, 'refuse'],
      [2, 'create'],
      [3, 'refuse'],
      [4, 'refuse'],
      [5, 'refuse'],
      [6, 'refuse'],
    ]);
    expect(dry.rows[0]!.reason).toBe('Manjka KMG-MID.');
    expect(dry.rows[2]!.reason).toBe('KMG-MID 500000010 se v datoteki ponovi (tudi v vrstici 2).');
    expect(dry.rows[3]!.reason).toMatch(/»ni-naslov« ni veljaven/);
    expect(dry.rows[4]!.reason).toMatch(/kmet1@example\.si že obstaja \(»KMG-MID 100234567«\)/);
    expect(dry.rows[5]!.reason).toMatch(/E-pošta cene@example\.si se v datoteki ponovi/);
    const commit = await send('commit', 'farmers', csv);
    expect(commit.status).toBe(400);
    expect(commit.json<Report & { detail: string }>()).toMatchObject({
      status: 400,
      detail: 'Uvoz ni izveden: 5 vrstic je zavrnjenih. Popravite jih in poskusite znova.',
      refused: 5,
    });
    expect(await snapshot(t.app)).toBe(before);
  });

  it('refuses a file that is not UTF-8 CSV, a bad kind and a bad mapping', async () => {
    const before = await snapshot(t.app);
    const latin2 = await send(
      'preview',
      'farmers',
      Buffer.from([0x49, 0x6d, 0x65, 0x3b, 0x4b, 0x4d, 0x47, 0x0a, 0x8a, 0x74, 0x65, 0x66, 0x61, 0x6e, 0x3b, 0x31, 0x0a]),
    );
    expect(latin2.status).toBe(400);
    expect(latin2.json<{ detail: string }>().detail).toMatch(/UTF-8/);
    expect((await send('dry-run', 'gozdovi', farmersCsv(FARMERS))).json<{ detail: string }>().detail).toMatch(/Vrsta uvoza/);
    const badMapping = await send('dry-run', 'farmers', farmersCsv(FARMERS), { mapping: { Neznan: t.tables.farmers.columns.name } });
    expect(badMapping.status).toBe(400);
    expect(badMapping.json<{ detail: string }>().detail).toMatch(/stolpca »Neznan« ni v datoteki/);
    expect(await snapshot(t.app)).toBe(before);
  });
});

/** Five meadows of Ana (500000001) near Goričko, in the given CRS. */
function meadows(crs: 'wgs84' | 'd96', gerkBase: number, owner = '500000001'): MeadowFixture[] {
  return Array.from({ length: 5 }, (_, i) => squareMeadow(16.1 + i * 0.01, 46.8, { ime: `Travnik ${i + 1}`, GERK_PID: gerkBase + i, KMG_MID: owner }, { crs }));
}

describe('meadows from GeoPackage, Shapefile and GeoJSON', () => {
  it('a D96/TM GeoPackage: preview names the CRS; commit reprojects, computes area_ha and links the farmer', async () => {
    const file = geoPackageFile(meadows('d96', 7000000), 3794);
    const preview = (await send('preview', 'areas', file)).json<{
      columns: string[];
      targets: Array<{ id: number; name: string }>;
      suggested: Record<string, number | null>;
      crs: string;
    }>();
    const a = t.tables.areas.columns;
    expect(preview.crs).toBe('EPSG:3794');
    expect(preview.columns).toEqual(['ime', 'GERK_PID', 'KMG_MID']);
    expect(preview.suggested).toEqual({ ime: a.name, GERK_PID: a.gerk_pid, KMG_MID: a.user });
    // What the editor picks from: the importable columns (the owner, not the computed area).
    expect(preview.targets).toEqual(
      expect.arrayContaining([
        { id: a.gerk_pid, name: 'gerk_pid' },
        { id: a.user, name: 'user' },
      ]),
    );
    expect(preview.targets.map((c) => c.name)).not.toContain('area_ha');

    const committed = await send('commit', 'areas', file);
    expect(committed.json()).toMatchObject({ created: 5, updated: 0, refused: 0 });
    const ana = (await rowsOf('farmers')).find((f) => f.props[t.tables.farmers.columns.kmg_mid] === '500000001')!;
    const first = (await rowsOf('areas')).find((r) => r.props[a.gerk_pid] === '7000000')!;
    expect(first.props[a.user]).toBe(ana.id);
    expect(first.props[a.name]).toBe('Travnik 1');
    const [lon, lat] = first.geometry!.coordinates[0]![0]!;
    expect(lon).toBeCloseTo(16.1, 6);
    expect(lat).toBeCloseTo(46.8, 6);
    // 0.002° × 0.002° at 46.8° N ≈ 152 m × 222 m ≈ 3.4 ha.
    expect(first.props[a.area_ha]).toBeGreaterThan(3.3);
    expect(first.props[a.area_ha]).toBeLessThan(3.5);
  });

  it('re-importing the same GeoPackage updates in place: no duplicates, no new versions', async () => {
    const file = geoPackageFile(meadows('d96', 7000000), 3794);
    const before = await rowsOf('areas');
    expect((await send('commit', 'areas', file)).json()).toMatchObject({ created: 0, updated: 5, refused: 0 });
    expect(await rowsOf('areas')).toEqual(before);
  });

  it('a zipped Shapefile with a D96/TM .prj, and one in WGS84 without .prj', async () => {
    const d96 = await zippedShapefile(meadows('d96', 7100000), D96_TM_PRJ);
    expect((await send('preview', 'areas', d96)).json<{ crs: string }>().crs).toBe('EPSG:3794');
    expect((await send('commit', 'areas', d96)).json()).toMatchObject({ created: 5, refused: 0 });
    const wgs = await zippedShapefile(meadows('wgs84', 7200000));
    expect((await send('commit', 'areas', wgs)).json()).toMatchObject({ created: 5, refused: 0 });
    const a = t.tables.areas.columns;
    const shp = (await rowsOf('areas')).find((r) => r.props[a.gerk_pid] === '7100002')!;
    expect(shp.geometry!.coordinates[0]![0]![0]).toBeCloseTo(16.12, 6);
  });

  it('GeoJSON honours a crs member; D96/TM coordinates without one are an unknown CRS', async () => {
    const withCrs = geoJsonFile(meadows('d96', 7300000), 'urn:ogc:def:crs:EPSG::3794');
    expect((await send('commit', 'areas', withCrs)).json()).toMatchObject({ created: 5, refused: 0 });
    const without = (await send('dry-run', 'areas', geoJsonFile(meadows('d96', 7400000)))).json();
    expect(without.refused).toBe(5);
    expect(without.rows[0]!.reason).toMatch(/^Neznan koordinatni sistem \(ni podan\)/);
    const otherCrs = (await send('dry-run', 'areas', geoJsonFile(meadows('d96', 7400000), 'EPSG:3912'))).json();
    expect(otherCrs.rows[0]!.reason).toMatch(/^Neznan koordinatni sistem EPSG:3912/);
  });

  it('refuses bad geometry, a missing farmer, a duplicate GERK-PID, no geometry and a wrong type — and commits nothing', async () => {
    const good = squareMeadow(16.3, 46.7, { ime: 'Dober', GERK_PID: 7500000, KMG_MID: '500000002' });
    const bowtie: MeadowFixture = {
      properties: { ime: 'Metulj', GERK_PID: 7500001, KMG_MID: '500000002' },
      geometry: {
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
      },
    };
    const orphan = squareMeadow(16.4, 46.7, { ime: 'Sirota', GERK_PID: 7500002, KMG_MID: '999999999' });
    const twin = squareMeadow(16.5, 46.7, { ime: 'Dvojček', GERK_PID: 7500000, KMG_MID: '500000002' });
    const file = Buffer.from(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          ...[good, bowtie, orphan, twin].map((m) => ({ type: 'Feature', properties: m.properties, geometry: m.geometry })),
          { type: 'Feature', properties: { ime: 'Prazen', GERK_PID: 7500003, KMG_MID: '500000002' }, geometry: null },
          { type: 'Feature', properties: { ime: 'Čuden', GERK_PID: true, KMG_MID: '500000002' }, geometry: good.geometry },
        ],
      }),
    );
    const before = await snapshot(t.app);
    const dry = (await send('dry-run', 'areas', file)).json();
    expect(dry).toMatchObject({ created: 1, refused: 5 });
    expect(dry.rows.map((r) => r.reason ?? r.action)).toEqual([
      'create',
      'Neveljavna geometrija: Meja travnika seka samo sebe (pri 16.000500, 46.000500). Popravite oglišča.',
      'Kmet s KMG-MID 999999999 ne obstaja (ne v bazi ne v uvozu kmetov).',
      'GERK-PID 7500000 se v datoteki ponovi (tudi v vrstici 1).',
      'Vrstica nima geometrije.',
      'Stolpec gerk_pid: vrednost »true« ni besedilo.',
    ]);
    const commit = await send('commit', 'areas', file);
    expect(commit.status).toBe(400);
    expect(commit.json().refused).toBe(5);
    expect(await snapshot(t.app)).toBe(before);
  });

  it('an explicit mapping names other attributes', async () => {
    const a = t.tables.areas.columns;
    const file = geoJsonFile([squareMeadow(16.6, 46.7, { Oznaka: 'G-1', Lastnik: '500000002', Opomba: 'x' })]);
    const preview = (await send('preview', 'areas', file)).json<{ suggested: Record<string, number | null> }>();
    expect(preview.suggested).toEqual({ Oznaka: null, Lastnik: a.user, Opomba: null });
    const report = (await send('commit', 'areas', file, { mapping: { Oznaka: a.gerk_pid, Lastnik: a.user, Opomba: null } })).json();
    expect(report).toMatchObject({ created: 1, refused: 0, rows: [{ row: 1, action: 'create', key: 'G-1' }] });
  });
});

describe('who may import, and limits', () => {
  it('readers and farmers get 403, nobody 401, and nothing changes', async () => {
    const before = await snapshot(t.app);
    const file = farmersCsv([{ name: 'X', email: 'x@example.si', kmgMid: '600' }]);
    for (const step of ['preview', 'dry-run', 'commit'] as const) {
      expect((await send(step, 'farmers', file, { user: USERS.reader })).status).toBe(403);
      expect((await send(step, 'farmers', file, { user: USERS.farmer1 })).status).toBe(403);
      expect((await send(step, 'farmers', file, { user: null })).status).toBe(401);
    }
    expect(await snapshot(t.app)).toBe(before);
  });

  it('a file over the upload limit is a 413', async () => {
    const big = Buffer.concat([farmersCsv(FARMERS, 'en'), Buffer.alloc(300 * 1024, 0x20)]);
    expect((await send('dry-run', 'farmers', big)).status).toBe(413);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.as(null, { method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/Import/preview',
        '/api/Import/dry-run',
        '/api/Import/commit',
        '/api/Accounts/{farmerId}',
        '/api/Accounts/{farmerId}/activation',
      ]),
    );
  });
});
