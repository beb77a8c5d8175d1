/**
 * The database layer on a real file: WAL mode, migrations recorded and not re-run, the demo
 * project loaded once (realistic, in Goričko, ids from 10,000,000), config tables built from it,
 * the accent-insensitive text index, and the query-string parser's nesting and safety.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { LOCAL_ID_BOUND } from '../../src/common/constants';
import { TABLES, TABLE_KEYS } from '../../src/common/schemas/project';
import { openDatabase } from '../../src/server/db/database';
import { DEMO_FARMERS, DEMO_PROJECT_ID, loadDemoData } from '../../src/server/seed/seed-demo';
import { parseQueryString } from '../../src/server/http/querystring';
import { buildProjectConfig, buildTablesConfig } from '../../src/server/repositories/project-repository';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'travnik-db-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('database on a file', () => {
  it('uses WAL, migrates once and loads the demo project once', async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(await loadDemoData(first.db, first.dialect)).toBe(true);
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(first.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    // Reads through a memory map (counts over scattered rows of big tables; sqlite-dialect.ts).
    const mmap = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(first.db);
    expect(mmap.rows[0]?.mmap_size).toBe(1024 * 1024 * 1024);
    const count = async (db: typeof first.db) =>
      Number(
        (
          await db
            .selectFrom('records')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const records = await count(first.db);
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    expect(await loadDemoData(second.db, second.dialect)).toBe(false);
    expect(await count(second.db)).toBe(records);
    const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(second.db);
    expect(migrations.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['0001_core', '0002_text_search']));
    await second.close();
  });

  it('the demo project is complete and realistic', async () => {
    const handle = await openDatabase({ dataDir: dir });
    try {
      const tables = await buildTablesConfig(handle.db, DEMO_PROJECT_ID);
      for (const key of TABLE_KEYS) {
        expect(Object.keys(tables[key].columns).sort()).toEqual(Object.keys(TABLES[key].columns).sort());
      }
      const config = await buildProjectConfig(handle.db, DEMO_PROJECT_ID);
      expect(config).toMatchObject({ projectId: 1, searchProfileId: 1 });
      expect(tables.indicators.attachments).toEqual({ photos: expect.any(Number) });
      const rows = await handle.db.selectFrom('records').selectAll().execute();
      expect(Math.min(...rows.map((r) => r.id))).toBe(LOCAL_ID_BOUND);
      const byTable = (id: number) => rows.filter((r) => r.table_id === id);
      expect(byTable(tables.farmers.id)).toHaveLength(DEMO_FARMERS.length);
      const emails = byTable(tables.farmers.id).map((r) => JSON.parse(r.properties)[String(tables.farmers.columns.email)]);
      expect(emails).toEqual(expect.arrayContaining(['kmet1@example.si', 'kmet2@example.si']));
      // Meadows are polygons in Goričko (north-east Slovenia), paths are lines.
      for (const area of byTable(tables.areas.id)) {
        expect(JSON.parse(area.geometry!).type).toBe('Polygon');
        expect(area.min_x).toBeGreaterThan(16.0);
        expect(area.max_x).toBeLessThan(16.4);
        expect(area.min_y).toBeGreaterThan(46.7);
        expect(area.max_y).toBeLessThan(46.9);
      }
      for (const p of byTable(tables.paths.id)) expect(JSON.parse(p.geometry!).type).toBe('LineString');
      const seasons = byTable(tables.durations.id).map((r) => JSON.parse(r.properties)[String(tables.durations.columns.name)]);
      expect(seasons).toEqual(['Sezona 2025', 'Sezona 2026']);
      expect(byTable(tables.forms.id).length).toBeGreaterThanOrEqual(byTable(tables.paths.id).length);
      expect(byTable(tables.indicators.id).length).toBeGreaterThan(byTable(tables.forms.id).length);
      const roles = await handle.db.selectFrom('project_roles').select(['email', 'role']).orderBy('email').execute();
      expect(roles).toEqual([
        { email: 'bralec@example.si', role: 'reader' },
        { email: 'urednik@example.si', role: 'editor' },
      ]);
    } finally {
      await handle.close();
    }
  });

  it('the text index is accent-insensitive: "travnik" finds "Travník", "kosenica" finds "Košenica"', async () => {
    const handle = await openDatabase({ dataDir: dir, database: ':memory:' });
    try {
      await handle.dialect.indexText(handle.db, 1, 'Travník za kapelo');
      await handle.dialect.indexText(handle.db, 2, 'Košenica pri Gradu');
      const ids = async (q: string) =>
        (await sql<{ id: number }>`select id from (${handle.dialect.textSearchSql(q)!}) as hits order by id`.execute(handle.db)).rows.map((r) => r.id);
      expect(await ids('travnik')).toEqual([1]);
      expect(await ids('KOSENICA gra')).toEqual([2]);
      expect(await ids('kapelo gradu')).toEqual([]);
      expect(handle.dialect.textSearchSql('  ** "" ')).toBeNull();
    } finally {
      await handle.close();
    }
  });
});

describe('query-string parser', () => {
  it('nests bracketed keys and repeats keys into arrays', () => {
    expect(parseQueryString('extent%5BminX%5D=16.1&extent[maxY]=46.9&tableIds=1&tableIds=2&q=a+b')).toEqual({
      extent: { minX: '16.1', maxY: '46.9' },
      tableIds: ['1', '2'],
      q: 'a b',
    });
    expect(parseQueryString('ids[]=1&ids[]=2')).toEqual({ ids: ['1', '2'] });
    expect(parseQueryString('')).toEqual({});
    expect(parseQueryString('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });

  it('drops keys that could reach prototypes', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&constructor[prototype][x]=1&a[__proto__]=2');
    expect(parsed).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
