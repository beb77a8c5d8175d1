/**
 * The PostgreSQL dialect's own parts. The query text builders are checked everywhere;
 * the database checks need PostgreSQL and run in the PostgreSQL pass (DATABASE_URL: project
 * server-pg in jest.config.js) — the rest of the server suite runs there unchanged, which is what
 * shows the two dialects answer alike. Here: PostGIS and the bbox fallback give the same spatial
 * and extent answers, the GiST/geometry structures exist only with PostGIS, jsonb comparisons
 * never fail on values of another JSON type, text search ignores accents and case.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Point } from 'geojson';
import { sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database';
import { tsQuery } from '../../src/server/db/postgres-dialect';
import { searchWords } from '../../src/common/text-search';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';

describe('tsquery text', () => {
  it('makes every word a required prefix, splitting as SQLite unicode61 does', () => {
    expect(tsQuery('Travník  kmet1@example.si')).toBe('Travník:* & kmet1:* & example:* & si:*');
    expect(searchWords("o'Brien & (x | !y) <-> z:*")).toEqual(['o', 'Brien', 'x', 'y', 'z']);
    expect(tsQuery(' !&|() ')).toBeNull();
  });
});

const onPostgres = Boolean(process.env.DATABASE_URL);
(onPostgres ? describe : describe.skip)('on PostgreSQL', () => {
  let withGis: TestApp;
  let bboxOnly: TestApp;

  beforeAll(async () => {
    withGis = await buildTestApp();
    bboxOnly = await buildTestApp({ postgres: { postgis: false } });
  }, 60_000);
  afterAll(async () => {
    await withGis?.close();
    await bboxOnly?.close();
  });

  it("lists only its own schema's tables: another app's schema dropped meanwhile cannot fail its start", async () => {
    // Kysely's own introspection scanned every schema and asked has_schema_privilege of each: a
    // schema dropped during that query (another test app closing) failed the migrator's check
    // and with it the start ("schema … does not exist").
    const own = async (t: TestApp) => (await sql<{ name: string }>`select current_schema() as name`.execute(t.app.db)).rows[0]!.name;
    const [gisSchema, bboxSchema] = [await own(withGis), await own(bboxOnly)];
    expect(gisSchema).not.toBe(bboxSchema);
    const tables = await withGis.app.db.introspection.getTables({ withInternalKyselyTables: true });
    const schemas = new Set(tables.map((table) => table.schema));
    expect(schemas.has(gisSchema)).toBe(true);
    expect(schemas.has(bboxSchema)).toBe(false);
    expect(tables.find((table) => table.schema === gisSchema && table.name === 'records')?.columns.map((column) => column.name)).toContain('properties');
    expect(tables.some((table) => table.name === 'kysely_migration')).toBe(true);
    expect((await withGis.app.db.introspection.getTables()).some((table) => table.name === 'kysely_migration')).toBe(false);
  });

  it('uses PostGIS where installed (geom column, exact test in the database), else the bbox path; the bbox path when told not to', async () => {
    expect(withGis.app.dialect.name).toBe('postgres');
    // Asked of the database itself, not of the app: an app that failed to set PostGIS up where
    // it is installed must fail here, not pass as "bbox only".
    const available =
      (await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'postgis'`.execute(withGis.app.db)).rows[0]!.n > 0;
    // This app's own schema (Kysely's introspection lists every schema's tables).
    const columns = async (t: TestApp) =>
      (
        await sql<{
          column_name: string;
        }>`select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'records'`.execute(t.app.db)
      ).rows.map((r) => r.column_name);
    const point: Point = { type: 'Point', coordinates: [16.2, 46.8] };
    if (available) {
      expect(await columns(withGis)).toContain('geom');
      expect(withGis.app.dialect.intersectsSql(point)).not.toBeNull();
    } else {
      expect(await columns(withGis)).not.toContain('geom');
      expect(withGis.app.dialect.intersectsSql(point)).toBeNull();
    }
    expect(await columns(bboxOnly)).not.toContain('geom');
    expect(bboxOnly.app.dialect.intersectsSql(point)).toBeNull();
  });

  it('answers spatial and extent queries identically with and without PostGIS', async () => {
    const p = withGis.tables.paths;
    const a = withGis.tables.areas;
    const queries = [
      {
        method: 'POST',
        url: '/api/Records/1/spatial',
        payload: {
          tableIds: [p.id, a.id],
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [16.1, 46.75],
                [16.3, 46.75],
                [16.3, 46.9],
                [16.1, 46.9],
                [16.1, 46.75],
              ],
            ],
          },
        },
      },
      { method: 'POST', url: '/api/Records/1/spatial', payload: { tableIds: [p.id], geometry: { type: 'Point', coordinates: [16.2, 46.8] } } },
      {
        method: 'GET',
        url: `/api/Records/1/extenttables?extent[minX]=16.15&extent[minY]=46.8&extent[maxX]=16.25&extent[maxY]=46.85&tableIds=${a.id}&tableIds=${p.id}`,
      },
    ];
    let found = 0;
    for (const query of queries) {
      const gis = await withGis.as(USERS.editor, query);
      const bbox = await bboxOnly.as(USERS.editor, query);
      expect(gis.statusCode).toBe(200);
      expect(bbox.statusCode).toBe(200);
      const ids = (r: typeof gis) => (r.json().records as Array<{ id: number }>).map((x) => x.id);
      expect(ids(gis)).toEqual(ids(bbox));
      found += ids(gis).length;
    }
    expect(found).toBeGreaterThan(0);
  });

  it("compares a mixed-type json column without cast errors: only values of the filter's type match", async () => {
    const i = withGis.tables.indicators;
    const search = (comparison: string, value: unknown) =>
      withGis.as(USERS.editor, {
        method: 'POST',
        url: '/api/Records/1/search',
        payload: { tableId: i.id, page: 1, perPage: 500, filters: { kind: 'filter', columnId: i.columns.value, comparison, value } },
      });
    const all = await withGis.as(USERS.editor, { method: 'POST', url: '/api/Records/1/search', payload: { tableId: i.id, page: 1, perPage: 500 } });
    const values = (all.json().records as Array<{ properties: Record<string, unknown> }>).map((r) => r.properties[String(i.columns.value)]);
    // The demo indicators hold booleans, numbers and strings in the same column.
    expect(new Set(values.map((v) => typeof v)).size).toBeGreaterThan(1);
    const numbers = await search('GreaterThanOrEqual', 0);
    expect(numbers.statusCode).toBe(200);
    expect(numbers.json().totalCount).toBe(values.filter((v) => typeof v === 'number').length);
    const trues = await search('Equals', true);
    expect(trues.statusCode).toBe(200);
    expect(trues.json().totalCount).toBe(values.filter((v) => v === true).length);
  });

  it('finds "Travník" for "travnik" and "TRAVN" (accents and case ignored, prefix words)', async () => {
    const a = withGis.tables.areas;
    const created = await withGis.as(USERS.editor, {
      method: 'POST',
      url: '/api/Records/1',
      payload: { tableId: a.id, properties: { [a.columns.name]: 'Zgornji Travník pod Šmarno' } },
    });
    expect(created.statusCode).toBe(201);
    for (const query of ['travnik', 'TRAVN', 'smarno travnik']) {
      const hits = await withGis.as(USERS.editor, { method: 'GET', url: `/api/Records/1/search/1/50/1/${encodeURIComponent(query)}` });
      expect(hits.statusCode).toBe(200);
      expect((hits.json().records as Array<{ id: number }>).map((r) => r.id)).toContain(created.json().id);
    }
  });
});

(onPostgres ? describe : describe.skip)('the default schema on PostgreSQL', () => {
  const name = `mt_default_${process.pid}_${randomBytes(3).toString('hex')}`;
  let url: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const parsed = new URL(process.env.DATABASE_URL!);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('migrates its own schema when another schema of the database already holds the migration tables', async () => {
    // Another installation (or a test) in schema "other" of the same database: its migration
    // tables must not be taken for the default schema's own.
    const other = await openDatabase({ dataDir: 'unused', databaseUrl: url, schema: 'other' });
    await other.close();
    const main = await openDatabase({ dataDir: 'unused', databaseUrl: url });
    try {
      const { rows } = await sql<{
        schema: string;
      }>`select table_schema as schema from information_schema.tables where table_name = 'kysely_migration_lock' order by 1`.execute(main.db);
      expect(rows.map((row) => row.schema)).toEqual(['other', 'public']);
    } finally {
      await main.close();
    }
  }, 60_000);
});
