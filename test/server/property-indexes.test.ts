/**
 * Indexed property filters (docs/deploy.md, Indexed properties): every column the screens filter on (the reference
 * chain areas.user → paths.parent → durationPaths.duration_id/path_id → forms.parent →
 * indicators.parent, plus farmers.email and indicators.key) has an expression index, and the SQL
 * the search route runs — rows and totalCount, editor filters and the farmer scope — is planned
 * over that index (EXPLAIN QUERY PLAN on SQLite; EXPLAIN on PostgreSQL with sequential scans
 * priced out, as the tables here are small). Results on typed values (numbers stored as numbers,
 * numbers stored as strings, nulls, missing properties) are the same with and without the index,
 * and migration 0004 adds the indexes to an existing database. Runs on SQLite and, in the
 * PostgreSQL pass, on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CompiledQuery, sql, type Compilable } from 'kysely';
import type { FilterNode, SearchRequest } from '../../src/common/filter';
import { resolveAccess } from '../../src/server/access/access';
import type { Principal } from '../../src/server/auth/principal';
import { migrateToLatest } from '../../src/server/db/database';
import { INDEXED_COLUMNS } from '../../src/server/db/property-indexes';
import type { RepoContext } from '../../src/server/repositories/context';
import { searchQueries, searchRecords } from '../../src/server/repositories/record-repository';
import { liveRowLookupParameters, liveRowLookupSql as pgLiveRowLookupSql } from '../../src/server/db/postgres-dialect';
import { liveRowLookupSql as sqliteLiveRowLookupSql } from '../../src/server/db/sqlite-dialect';
import { buildTestApp, USERS, type TestApp } from './helpers/build-test-app';

let t: TestApp;
const EDITOR: Principal = { subject: 'test|urednik', email: USERS.editor, via: 'token' };
const FARMER: Principal = { subject: 'test|kmet1', email: USERS.farmer1, via: 'token' };
/** Ids of the typed-value rows inserted into indicators (P1…P7). */
const typed: Record<string, number> = {};

/** Generated indicators (bench-like rows). */
const BULK = 4000;

const isPg = () => t.app.dialect.name === 'postgres';

async function context(principal = EDITOR): Promise<RepoContext> {
  const schema = (await t.app.projects.get(1))!;
  const access = await resolveAccess(t.app.db, t.app.dialect, schema, principal);
  return { db: t.app.db, dialect: t.app.dialect, schema, access, now: new Date().toISOString() };
}

let plans = 0;

/** The plan of a statement as text (one line per node), on the test app's database or `app`'s. */
async function plan(query: Compilable, { app } = t): Promise<string> {
  const compiled = query.compile();
  if (!isPg()) {
    // A fresh statement each time: an EXPLAIN statement reused from the connection's statement
    // cache is not re-prepared after an index is dropped or created (it never reads the schema).
    plans += 1;
    const text = `explain query plan /* ${plans} */ ${compiled.sql}`;
    const result = await app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(text, [...compiled.parameters]));
    return result.rows.map((r) => r.detail).join('\n');
  }
  return app.db.transaction().execute(async (trx) => {
    // The test tables hold a few thousand rows: a sequential scan would win on cost alone.
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

async function indexNames(): Promise<string[]> {
  const rows = isPg()
    ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'records'`.execute(t.app.db)
    : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'records'`.execute(t.app.db);
  return rows.rows.map((r) => r.name).sort();
}

const leaf = (columnId: number | string, comparison: string, value?: unknown): FilterNode =>
  ({ kind: 'filter', columnId, comparison, ...(value === undefined ? {} : { value }) }) as FilterNode;

beforeAll(async () => {
  t = await buildTestApp();
  const ind = t.tables.indicators;
  const c = ind.columns;
  const form = (await t.app.db.selectFrom('records').select('id').where('table_id', '=', t.tables.forms.id).orderBy('id').executeTakeFirstOrThrow()).id;
  const now = new Date().toISOString();
  const row = (properties: Record<string, unknown>) => ({
    project_id: 1,
    table_id: ind.id,
    properties: JSON.stringify(properties),
    created_at: now,
    updated_at: now,
    version: 1,
    archived: 0,
    deleted: 0,
  });
  // Bench-like indicators (20 keys; four per form, each key once per form as the one-live-row
  // rule wants, forms that are not the demo's), so the planners weigh statistics where this table
  // outweighs the others, as it does in real projects.
  const bulk = Array.from({ length: BULK }, (_, n) =>
    row({
      [c.parent]: form + 1_000_000 + Math.floor(n / 4),
      [c.key]: `k${n % 20}`,
      [c.value]: n % 100,
      [c.note]: n % 7 === 0 ? `opomba travnik ${n}` : `zapis ${n}`,
    }),
  );
  for (let i = 0; i < bulk.length; i += 250)
    await t.app.db
      .insertInto('records')
      .values(bulk.slice(i, i + 250))
      .execute();
  // The other indexed tables get 1,000 rows each too (distinct values, as references are), or the
  // planners rightly read their few demo rows through records_table.
  for (const [key, columns] of INDEXED_COLUMNS) {
    if (key === 'indicators') continue;
    const table = (t.tables as unknown as Record<string, { id: number; columns: Record<string, number> }>)[key]!;
    const rows = Array.from({ length: 1000 }, (_, n) => ({
      ...row(Object.fromEntries(columns.map((name) => [table.columns[name]!, key === 'farmers' ? `kmet${n}@velik.example.si` : 30_000_000 + n]))),
      table_id: table.id,
    }));
    for (let i = 0; i < rows.length; i += 250)
      await t.app.db
        .insertInto('records')
        .values(rows.slice(i, i + 250))
        .execute();
  }
  // Typed values, written straight to the table (the API would refuse a string in a reference column).
  const values: Record<string, Record<string, unknown>> = {
    P1: { [c.parent]: 7, [c.key]: 'a' },
    P2: { [c.parent]: '7', [c.key]: 'b' },
    P3: { [c.parent]: null, [c.key]: null },
    P4: {},
    P5: { [c.parent]: 7.5, [c.key]: 'a b' },
    P6: { [c.parent]: 8, [c.key]: 'c' },
    P7: { [c.parent]: -1, [c.key]: '' },
  };
  for (const [name, properties] of Object.entries(values)) {
    typed[name] = (await t.app.db.insertInto('records').values(row(properties)).returning('id').executeTakeFirstOrThrow()).id;
  }
  // Statistics of the whole table, as migration 0200 and the bulk loaders take them.
  await t.app.dialect.optimize(t.app.db, { full: true });
});

afterAll(async () => {
  await t.close();
});

describe('the filtered columns are indexed', () => {
  it('every reference column and the flagged ones (farmers.email, forms.review_state, indicators.key) has records_prop_<columnId>', async () => {
    expect(Object.fromEntries(INDEXED_COLUMNS)).toEqual({
      farmers: ['email'],
      areas: ['user'],
      paths: ['parent'],
      durationPaths: ['duration_id', 'path_id'],
      // The advisers' review queue filters forms by their state.
      forms: ['parent', 'review_state'],
      indicators: ['parent', 'key'],
      comments: ['parent'],
    });
    const names = await indexNames();
    for (const [table, columns] of INDEXED_COLUMNS) {
      for (const column of columns) {
        const id = (t.tables as unknown as Record<string, { columns: Record<string, number> }>)[table]!.columns[column]!;
        expect(names).toContain(`records_prop_${id}`);
      }
    }
  });

  const cases: Array<[string, string, (tables: TestApp['tables']) => { tableId: number; columnId: number; value: number | string }]> = [
    ['areas', 'user', (x) => ({ tableId: x.areas.id, columnId: x.areas.columns.user, value: 10_000_000 })],
    ['paths', 'parent', (x) => ({ tableId: x.paths.id, columnId: x.paths.columns.parent, value: 10_000_001 })],
    ['durationPaths', 'duration_id', (x) => ({ tableId: x.durationPaths.id, columnId: x.durationPaths.columns.duration_id, value: 10_000_002 })],
    ['durationPaths', 'path_id', (x) => ({ tableId: x.durationPaths.id, columnId: x.durationPaths.columns.path_id, value: 10_000_003 })],
    ['forms', 'parent', (x) => ({ tableId: x.forms.id, columnId: x.forms.columns.parent, value: 10_000_004 })],
    ['indicators', 'parent', (x) => ({ tableId: x.indicators.id, columnId: x.indicators.columns.parent, value: 10_000_005 })],
    ['farmers', 'email', (x) => ({ tableId: x.farmers.id, columnId: x.farmers.columns.email, value: 'kmet1@example.si' })],
    ['indicators', 'key', (x) => ({ tableId: x.indicators.id, columnId: x.indicators.columns.key, value: 'k3' })],
  ];
  it.each(cases)('a search on %s.%s is planned over its index (rows and totalCount)', async (_table, _column, pick) => {
    const { tableId, columnId, value } = pick(t.tables);
    const index = `records_prop_${columnId}`;
    for (const filters of [leaf(columnId, 'Equals', value), leaf(columnId, 'In', [value, typeof value === 'number' ? value + 1 : 'x'])]) {
      const request: SearchRequest = { tableId, page: 1, perPage: 50, filters, sorts: [{ columnId: 'id', direction: 'asc' }] };
      const { rows, count } = searchQueries(await context(), request);
      expect(await plan(rows)).toContain(index);
      expect(await plan(count)).toContain(index);
    }
  });

  it('the bench search (key = k3 And value > 50 And note contains travnik) is planned over indicators.key', async () => {
    const c = t.tables.indicators.columns;
    const request: SearchRequest = {
      tableId: t.tables.indicators.id,
      page: 1,
      perPage: 50,
      filters: {
        kind: 'expression',
        operator: 'And',
        nodes: [leaf(c.key, 'Equals', 'k3'), leaf(c.value, 'GreaterThan', 50), leaf(c.note, 'Contains', 'travnik')],
      },
      sorts: [{ columnId: 'id', direction: 'asc' }],
    };
    const { rows, count } = searchQueries(await context(), request);
    const rowsPlan = await plan(rows);
    expect(rowsPlan).toContain(`records_prop_${c.key}`);
    // SQLite reads the index's rows of key = 'k3' in id order: the page needs no sort of every match.
    if (!isPg()) expect(rowsPlan).not.toContain('TEMP B-TREE');
    expect(await plan(count)).toContain(`records_prop_${c.key}`);
    const result = await searchRecords(await context(), request);
    // n % 20 = 3, n % 100 > 50 and n % 7 = 0 among the generated rows.
    const expected = Array.from({ length: BULK }, (_, n) => n).filter((n) => n % 20 === 3 && n % 100 > 50 && n % 7 === 0).length;
    expect(result.totalCount).toBe(expected);
  });

  it('a totalCount of an index-only filter reads the index alone (SQLite: covering index)', async () => {
    const c = t.tables.indicators.columns;
    const request: SearchRequest = { tableId: t.tables.indicators.id, filters: leaf(c.key, 'Equals', 'k3') };
    const countPlan = await plan(searchQueries(await context(), request).count);
    expect(countPlan).toContain(`records_prop_${c.key}`);
    if (!isPg()) expect(countPlan).toContain('COVERING INDEX');
    expect((await searchRecords(await context(), { ...request, perPage: 10 })).totalCount).toBe(BULK / 20);
  });

  it('a range on indicators.key is planned over its index', async () => {
    const c = t.tables.indicators.columns;
    const request: SearchRequest = { tableId: t.tables.indicators.id, filters: leaf(c.key, 'SelectInRange', ['k3', 'k4']) };
    expect(await plan(searchQueries(await context(), request).count)).toContain(`records_prop_${c.key}`);
  });

  it("a farmer's indicators (scope: parent in the farmer's forms) are planned over indicators.parent", async () => {
    const ctx = await context(FARMER);
    expect(ctx.access.role).toBe('farmer');
    const { rows, count } = searchQueries(ctx, { tableId: t.tables.indicators.id, page: 1, perPage: 50 });
    expect(await plan(rows)).toContain(`records_prop_${t.tables.indicators.columns.parent}`);
    expect(await plan(count)).toContain(`records_prop_${t.tables.indicators.columns.parent}`);
  });
});

describe('the writers look live rows up by index', () => {
  /** The statement dialect.liveRowIds runs for `keys` (parent, key) of indicators, as a plannable query. */
  const liveLookup = (app: TestApp, keys: Array<[number, string]>): Compilable => {
    const table = app.tables.indicators;
    const columnIds = [table.columns.parent, table.columns.key];
    return {
      compile: () =>
        app.app.dialect.name === 'postgres'
          ? CompiledQuery.raw(pgLiveRowLookupSql(table.id, columnIds), liveRowLookupParameters(columnIds, keys))
          : CompiledQuery.raw(sqliteLiveRowLookupSql(table.id, columnIds), keys[0]!),
    };
  };

  it("a bulk call looks each of its inserts' keys up in the one-live-row index", async () => {
    const planned = await plan(
      liveLookup(
        t,
        Array.from({ length: 300 }, (_, n) => [40_000_000 + n, `k${n}`]),
      ),
    );
    // PostgreSQL weighs its indexes by cost on these few thousand rows (another may win); it never
    // walks the whole table either.
    if (!isPg()) expect(planned).toContain(`records_live_unique_${t.tables.indicators.id}`);
    expect(planned).not.toMatch(/SCAN records\b|Seq Scan on records/);
  });

  it('…also where the statistics are those of a young database, taken while its indicators were few', async () => {
    // The demo's statistics and then thousands of indicators, as on a server in its first season.
    const young = await buildTestApp();
    try {
      const table = young.tables.indicators;
      const c = table.columns;
      const now = new Date().toISOString();
      const rows = Array.from({ length: 3000 }, (_, n) => ({
        project_id: 1,
        table_id: table.id,
        properties: JSON.stringify({ [c.parent]: 50_000_000 + Math.floor(n / 5), [c.key]: `k${n % 5}`, [c.value]: true }),
        created_at: now,
        updated_at: now,
        version: 1,
        archived: 0,
        // Every tenth row deleted: it holds its key no more.
        deleted: n % 10 === 9 ? 1 : 0,
      }));
      for (let i = 0; i < rows.length; i += 250)
        await young.app.db
          .insertInto('records')
          .values(rows.slice(i, i + 250))
          .execute();
      const planned = await plan(
        liveLookup(
          young,
          Array.from({ length: 300 }, (_, n) => [50_000_000 + n, 'k1']),
        ),
        young,
      );
      expect(planned).not.toMatch(/SCAN records\b/);
      const idOf = async (parent: number, key: string) =>
        (
          await young.app.db
            .selectFrom('records')
            .select('id')
            .where('table_id', '=', table.id)
            .where('deleted', '=', 0)
            .where('properties', '=', JSON.stringify({ [c.parent]: parent, [c.key]: key, [c.value]: true }))
            .executeTakeFirst()
        )?.id ?? null;
      // Row 9 (50,000,001, k4) is deleted; k9 and 49,999,999 were never written.
      const keys: Array<[number, string]> = [
        [50_000_000, 'k0'],
        [50_000_001, 'k4'],
        [50_000_001, 'k9'],
        [50_000_000, 'k0'],
        [50_000_001, 'k3'],
        [49_999_999, 'k0'],
      ];
      const ids = await young.app.dialect.liveRowIds(young.app.db, table.id, [c.parent, c.key], keys);
      const [k0, k3] = [await idOf(50_000_000, 'k0'), await idOf(50_000_001, 'k3')];
      expect(k0).toEqual(expect.any(Number));
      expect(k3).toEqual(expect.any(Number));
      expect(ids).toEqual([k0, null, null, k0, k3, null]);
    } finally {
      await young.close();
    }
  });
});

describe('results on typed values are the same with and without the index', () => {
  const expectations = (c: { parent: number; key: number }): Array<[string, FilterNode, string[]]> => [
    ['parent = 7', leaf(c.parent, 'Equals', 7), ['P1']],
    // A string in a number column (only a direct write can store one) never equals a number; in
    // ranges SQLite orders every text after every number, PostgreSQL skips it (pre-existing).
    ['parent > 7', leaf(c.parent, 'GreaterThan', 7), isPg() ? ['P5', 'P6'] : ['P2', 'P5', 'P6']],
    ['parent <= 7', leaf(c.parent, 'LessThanOrEqual', 7), ['P1', 'P7']],
    ['parent in (7, 8)', leaf(c.parent, 'In', [7, 8]), ['P1', 'P6']],
    ['parent in [7, 8]', leaf(c.parent, 'SelectInRange', [7, 8]), ['P1', 'P5', 'P6']],
    ['parent <> 7', leaf(c.parent, 'NotEqual', 7), ['P2', 'P3', 'P4', 'P5', 'P6', 'P7']],
    ['parent not in (7, 8)', leaf(c.parent, 'NotIn', [7, 8]), ['P2', 'P3', 'P4', 'P5', 'P7']],
    ['parent is null', leaf(c.parent, 'IsNull'), ['P3', 'P4']],
    ['parent is not null', leaf(c.parent, 'IsNotNull'), ['P1', 'P2', 'P5', 'P6', 'P7']],
    ['key = a', leaf(c.key, 'Equals', 'a'), ['P1']],
    ['key in (a, c)', leaf(c.key, 'In', ['a', 'c']), ['P1', 'P6']],
    ['key > a', leaf(c.key, 'GreaterThan', 'a'), ['P2', 'P5', 'P6']],
    ['key = empty', leaf(c.key, 'Equals', ''), ['P7']],
    ['key starts with a', leaf(c.key, 'StartsWith', 'a'), ['P1', 'P5']],
    ['key <> a', leaf(c.key, 'NotEqual', 'a'), ['P2', 'P3', 'P4', 'P5', 'P6', 'P7']],
    ['key is null', leaf(c.key, 'IsNull'), ['P3', 'P4']],
  ];

  async function matches(filters: FilterNode): Promise<string[]> {
    const ids = new Set<number>();
    for (let page = 1; ; page += 1) {
      const result = await searchRecords(await context(), { tableId: t.tables.indicators.id, filters, page, perPage: 200 });
      for (const r of result.records) ids.add(r.id);
      if (result.records.length < 200) break;
    }
    return Object.entries(typed)
      .filter(([, id]) => ids.has(id))
      .map(([name]) => name)
      .sort();
  }

  it('equality, ranges, In, negations and nulls on a reference (number) and a text column', async () => {
    const c = t.tables.indicators.columns;
    const cases = expectations(c);
    const withIndex = await Promise.all(cases.map(([, filters]) => matches(filters)));
    expect(Object.fromEntries(cases.map(([label], i) => [label, withIndex[i]]))).toEqual(Object.fromEntries(cases.map(([label, , want]) => [label, want])));
    expect(await plan(searchQueries(await context(), { tableId: t.tables.indicators.id, filters: leaf(c.key, 'Equals', 'a') }).count)).toContain(
      `records_prop_${c.key}`,
    );

    // The same searches with the two indexes gone (the plan then scans): identical answers.
    await sql.raw(`drop index records_prop_${c.parent}`).execute(t.app.db);
    await sql.raw(`drop index records_prop_${c.key}`).execute(t.app.db);
    try {
      expect(await plan(searchQueries(await context(), { tableId: t.tables.indicators.id, filters: leaf(c.key, 'Equals', 'a') }).count)).not.toContain(
        `records_prop_${c.key}`,
      );
      const without = await Promise.all(cases.map(([, filters]) => matches(filters)));
      expect(without).toEqual(withIndex);
    } finally {
      await t.app.dialect.createPropertyIndex(t.app.db, c.parent, 'number');
      await t.app.dialect.createPropertyIndex(t.app.db, c.key, 'text');
    }
  });
});

describe('migration 0200_property_indexes', () => {
  it('adds the missing indexes to an existing database with data, and searches then use them', async () => {
    const c = t.tables;
    // The database as it was before 0200: reference indexes only, 0200 and later not recorded.
    await sql.raw(`drop index records_prop_${c.indicators.columns.key}`).execute(t.app.db);
    await sql.raw(`drop index records_prop_${c.farmers.columns.email}`).execute(t.app.db);
    // Kysely runs migrations in name order only: the later ones are forgotten too and run again
    // (they are idempotent), as on a database that stopped at 0100.
    await sql`delete from kysely_migration where name >= '0200_property_indexes'`.execute(t.app.db);
    expect(await indexNames()).not.toContain(`records_prop_${c.indicators.columns.key}`);
    const keySearch: SearchRequest = { tableId: c.indicators.id, filters: leaf(c.indicators.columns.key, 'Equals', 'k3') };
    expect(await plan(searchQueries(await context(), keySearch).count)).not.toContain(`records_prop_${c.indicators.columns.key}`);
    const before = await searchRecords(await context(), { ...keySearch, perPage: 200 });

    const schema = isPg() ? (await sql<{ s: string }>`select current_schema() as s`.execute(t.app.db)).rows[0]!.s : undefined;
    await migrateToLatest(t.app.db, t.app.dialect, schema);

    const names = await indexNames();
    expect(names).toContain(`records_prop_${c.indicators.columns.key}`);
    expect(names).toContain(`records_prop_${c.farmers.columns.email}`);
    const applied = await sql<{ name: string }>`select name from kysely_migration where name = '0200_property_indexes'`.execute(t.app.db);
    expect(applied.rows).toHaveLength(1);
    expect(await plan(searchQueries(await context(), keySearch).count)).toContain(`records_prop_${c.indicators.columns.key}`);
    const after = await searchRecords(await context(), { ...keySearch, perPage: 200 });
    expect(after).toEqual(before);
    expect(after.totalCount).toBe(BULK / 20);
  });
});
