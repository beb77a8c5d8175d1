/**
 * PostgreSQL implementation of the dialect layer (docs/deploy.md), selected by DATABASE_URL. Properties
 * are jsonb read with `->`/`->>`; full-text search is a tsvector table (the `simple` configuration
 * over unaccent()ed text, GIN index) so "travnik" finds "Travník" as SQLite's FTS5 does; spatial
 * queries use PostGIS (geometry column kept in step with the GeoJSON text by a trigger, GiST index,
 * ST_Intersects) when the extension can be created, the bbox columns otherwise.
 */
import { CompiledQuery, Kysely, sql, type CreateTableBuilder, type Insertable, type RawBuilder } from 'kysely';
import pg from 'pg';
import { OwnSchemasPostgresDialect } from './postgres-introspector';
import type { Geometry } from 'geojson';
import {
  chunksOf,
  columnsAndValues,
  rowsPerStatement,
  type BulkInsertTable,
  type DialectLayer,
  type Executor,
  type LiveRuleValue,
  type TextSearchHit,
  type ValueKind,
} from './dialect';
import type { Database as Schema } from './types';
import { queryWords, searchWords } from '../../common/text-search';

function assertColumnId(columnId: number): void {
  // Column ids are written into SQL as literals (so expression indexes apply): integers only.
  if (!Number.isSafeInteger(columnId) || columnId <= 0) throw new Error(`invalid column id ${String(columnId)}`);
}

function assertIdentifier(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid identifier ${name}`);
}

/** tsquery text from plain user text: every word a prefix, all required (common/text-search.ts, as SQLite's ftsQuery). */
export function tsQuery(text: string): string | null {
  const words = queryWords(text);
  if (words.length === 0) return null;
  // Words hold letters and digits only, so no tsquery operator can be smuggled in.
  return words.map((word) => `${word}:*`).join(' & ');
}

/**
 * The live rows of table `tableId` holding each key (the text values of `columnIds`), as `n` (the
 * key's 1-based position) and `id`: the keys arrive as one text array per column and are joined
 * to the rows on the table's partial unique index (createLiveUniqueIndex: the same `->>`
 * expressions, the literal table id and `deleted = 0`), one statement for any number of keys.
 */
export function liveRowLookupSql(tableId: number, columnIds: readonly number[]): string {
  assertColumnId(tableId);
  columnIds.forEach(assertColumnId);
  const arrays = columnIds.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const names = columnIds.map((_, i) => `v${i}`).join(', ');
  const terms = columnIds.map((id, i) => `(r.properties->>'${id}') = k.v${i}`).join(' and ');
  // The index's own predicate spelled out (`=` implies it, but PostgreSQL proves a partial index's
  // predicate from the rows' own conditions, not from join conditions).
  const present = columnIds.map((id) => `(r.properties->>'${id}') is not null`).join(' and ');
  return `select k.n, r.id from unnest(${arrays}) with ordinality as k(${names}, n) join records r on r.table_id = ${tableId} and r.deleted = 0 and ${present} and ${terms}`;
}

/** liveRowLookupSql's parameters: one text array per column (`->>` yields a value's JSON text, e.g. true → 'true'). */
export function liveRowLookupParameters(columnIds: readonly number[], keys: ReadonlyArray<readonly LiveRuleValue[]>): string[][] {
  return columnIds.map((_, i) => keys.map((values) => String(values[i])));
}

export interface PostgresOptions {
  connectionString: string;
  /** Connections per process (default 10). */
  poolSize?: number;
  /** statement_timeout in milliseconds, 0 = none (default 30,000). */
  statementTimeoutMs?: number;
  /** false: never use PostGIS even when installed (the bbox path; tests compare both). */
  postgis?: boolean;
  /** Work in this schema (created if missing) instead of the URL's default: a throwaway schema per test app. */
  schema?: string;
}

class PostgresDialectLayer implements DialectLayer {
  readonly name = 'postgres' as const;
  readonly types = { json: 'jsonb', double: 'double precision' } as const;
  /** PostGIS is installed in this database and records.geom exists (set at start-up). */
  spatial = false;

  constructor(private readonly pool: pg.Pool) {}

  prop(columnId: number, kind: ValueKind, alias = 'records'): RawBuilder<unknown> {
    assertColumnId(columnId);
    assertIdentifier(alias);
    const json = sql`${sql.ref(`${alias}.properties`)}->${sql.lit(String(columnId))}`;
    const text = sql`${sql.ref(`${alias}.properties`)}->>${sql.lit(String(columnId))}`;
    // SQLite's json_extract yields the JSON value's own type; a plain cast here would fail on a
    // value of another type (json columns may hold anything), so only matching values convert —
    // the others compare as null, i.e. never match (SQLite never finds 5 = '5' either).
    if (kind === 'number') return sql`(case when jsonb_typeof(${json}) = 'number' then (${text})::double precision end)`;
    if (kind === 'boolean') return sql`(case when jsonb_typeof(${json}) = 'boolean' then (${text})::boolean end)`;
    return sql`(${text})`;
  }

  propAsText(columnId: number, alias = 'records'): RawBuilder<string | null> {
    assertColumnId(columnId);
    assertIdentifier(alias);
    const json = sql`${sql.ref(`${alias}.properties`)}->${sql.lit(String(columnId))}`;
    const text = sql`${sql.ref(`${alias}.properties`)}->>${sql.lit(String(columnId))}`;
    // As SQLite's cast(json_extract(…) as text): booleans read as 1/0.
    return sql<string | null>`(case jsonb_typeof(${json}) when 'boolean' then (case when (${text})::boolean then '1' else '0' end) else ${text} end)`;
  }

  param(value: string | number | boolean, kind: ValueKind): RawBuilder<unknown> {
    if (kind === 'boolean') return sql`${Boolean(value)}::boolean`;
    if (kind === 'number') return sql`${value}::double precision`;
    return sql`${String(value)}::text`;
  }

  lower(expression: RawBuilder<unknown>): RawBuilder<string | null> {
    // The database's locale folds all of Unicode (Č → č), unlike SQLite's ASCII-only lower().
    return sql<string | null>`lower(${expression})`;
  }

  like(expression: RawBuilder<unknown>, pattern: string): RawBuilder<boolean> {
    return sql<boolean>`${expression} like ${pattern} escape '\\'`;
  }

  addIdColumn<T extends string>(builder: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
    return builder.addColumn('id', 'integer', (column) => column.primaryKey().generatedByDefaultAsIdentity());
  }

  async setSequenceStart(db: Executor, table: string, start: number): Promise<void> {
    assertIdentifier(table);
    if (!Number.isSafeInteger(start)) throw new Error(`invalid sequence start ${start}`);
    await sql.raw(`alter table ${table} alter column id restart with ${start}`).execute(db);
  }

  async createPropertyIndex(db: Executor, columnId: number, kind: ValueKind): Promise<void> {
    assertColumnId(columnId);
    // The very expression prop(id, kind) produces (compiled here without the table alias), so the
    // farmer scope's `in (…)` and the filter compiler's comparisons on that column use it.
    const json = `properties->'${columnId}'`;
    const text = `properties->>'${columnId}'`;
    const expression =
      kind === 'number'
        ? `(case when jsonb_typeof(${json}) = 'number' then (${text})::double precision end)`
        : kind === 'boolean'
          ? `(case when jsonb_typeof(${json}) = 'boolean' then (${text})::boolean end)`
          : `(${text})`;
    // Partial (rows that have the property): small, written only by its own table's rows; any
    // strict comparison on the expression (`=`, `= any`, ranges) implies "is not null".
    await sql.raw(`create index if not exists records_prop_${columnId} on records (table_id, ${expression}) where ${expression} is not null`).execute(db);
  }

  async createLiveUniqueIndex(db: Executor, tableId: number, columnIds: readonly number[]): Promise<void> {
    assertColumnId(tableId);
    columnIds.forEach(assertColumnId);
    // Text values (->>): a number and its digits are the same value here, as for the writers' check.
    const values = columnIds.map((id) => `(properties->>'${id}')`);
    await sql
      .raw(
        `create unique index if not exists records_live_unique_${tableId} on records (${values.join(', ')}) where table_id = ${tableId} and deleted = 0 and ${values.map((v) => `${v} is not null`).join(' and ')}`,
      )
      .execute(db);
  }

  async liveRowIds(db: Executor, tableId: number, columnIds: readonly number[], keys: ReadonlyArray<readonly LiveRuleValue[]>): Promise<Array<number | null>> {
    const ids: Array<number | null> = keys.map(() => null);
    if (keys.length === 0) return ids;
    const { rows } = await db.executeQuery<{ n: number; id: number }>(
      CompiledQuery.raw(liveRowLookupSql(tableId, columnIds), liveRowLookupParameters(columnIds, keys)),
    );
    for (const row of rows) ids[Number(row.n) - 1] = Number(row.id);
    return ids;
  }

  async createTextSearch(db: Executor): Promise<void> {
    await sql`create table records_fts (record_id integer primary key, body tsvector not null)`.execute(db);
    await sql`create index records_fts_body on records_fts using gin (body)`.execute(db);
  }

  async indexText(db: Executor, recordId: number, text: string): Promise<void> {
    const words = searchWords(text).join(' ');
    if (!words) {
      await this.removeText(db, recordId);
      return;
    }
    await sql`insert into records_fts (record_id, body) values (${recordId}, to_tsvector('simple', unaccent(${words}::text)))
      on conflict (record_id) do update set body = excluded.body`.execute(db);
  }

  async removeText(db: Executor, recordId: number): Promise<void> {
    await sql`delete from records_fts where record_id = ${recordId}`.execute(db);
  }

  async indexTexts(db: Executor, entries: ReadonlyArray<{ recordId: number; text: string; fresh: boolean }>): Promise<void> {
    const rows: Array<{ recordId: number; words: string }> = [];
    const cleared: number[] = [];
    for (const entry of entries) {
      const words = searchWords(entry.text).join(' ');
      if (words) rows.push({ recordId: entry.recordId, words });
      else if (!entry.fresh) cleared.push(entry.recordId);
    }
    for (const ids of chunksOf(cleared, rowsPerStatement(1))) await sql`delete from records_fts where record_id in (${sql.join(ids)})`.execute(db);
    for (const chunk of chunksOf(rows, rowsPerStatement(2))) {
      await sql`insert into records_fts (record_id, body) values ${sql.join(chunk.map((row) => sql`(${row.recordId}::integer, to_tsvector('simple', unaccent(${row.words}::text)))`))}
        on conflict (record_id) do update set body = excluded.body`.execute(db);
    }
  }

  async insertRows<T extends BulkInsertTable>(db: Executor, table: T, rows: ReadonlyArray<Insertable<Schema[T]>>): Promise<void> {
    if (rows.length === 0) return;
    const { columns, values } = columnsAndValues(table, rows);
    const head = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values `;
    for (const chunk of chunksOf(values, rowsPerStatement(columns.length))) {
      const parameters: unknown[] = [];
      const tuples = chunk.map((row) => `(${row.map((value) => `$${parameters.push(value)}`).join(', ')})`);
      await db.executeQuery(CompiledQuery.raw(head + tuples.join(', '), parameters));
    }
  }

  async nextRecordIds(db: Executor, count: number): Promise<number[]> {
    if (count <= 0) return [];
    const result = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('records', 'id')) as id from generate_series(1, ${count}::integer)`.execute(
      db,
    );
    return result.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  }

  textSearchSql(query: string): RawBuilder<TextSearchHit> | null {
    const match = tsQuery(query);
    if (!match) return null;
    // FTS5's rank is "smaller is better" (negated bm25); negate ts_rank to sort the same way.
    return sql<TextSearchHit>`select f.record_id as id, -ts_rank(f.body, q.query) as rank
      from records_fts f, to_tsquery('simple', unaccent(${match}::text)) as q(query) where f.body @@ q.query`;
  }

  /**
   * The exact intersection test in the database (PostGIS), or null when PostGIS is absent and
   * the repository filters the bbox candidates itself.
   */
  intersectsSql(geometry: Geometry, alias = 'records'): RawBuilder<boolean> | null {
    if (!this.spatial) return null;
    assertIdentifier(alias);
    return sql<boolean>`ST_Intersects(${sql.ref(`${alias}.geom`)}, ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(geometry)}::text), 4326))`;
  }

  async lockWrites(db: Executor, caller: string): Promise<void> {
    // One caller's writes run one at a time across every API node, so a retry sent to another
    // node while the first attempt is still running waits for it and then replays its answer.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`mt-writes:${caller}`}::text, 0))`.execute(db);
  }

  async createSpatial(db: Executor): Promise<void> {
    if (!this.spatial) return;
    const present = await sql<{ n: number }>`select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname = 'records_geom' and c.oid = 'records'::regclass`.execute(db);
    if (present.rows[0]!.n > 0) return;
    await sql`alter table records add column if not exists geom geometry(Geometry, 4326)`.execute(db);
    // A trigger keeps geom in step with the GeoJSON text, so writers stay dialect-neutral.
    await sql
      .raw(
        `create or replace function mt_records_geom() returns trigger language plpgsql as $$
      begin
        new.geom := case when new.geometry is null then null else ST_SetSRID(ST_GeomFromGeoJSON(new.geometry), 4326) end;
        return new;
      end $$`,
      )
      .execute(db);
    await sql`drop trigger if exists records_geom on records`.execute(db);
    await sql`create trigger records_geom before insert or update of geometry on records for each row execute function mt_records_geom()`.execute(db);
    await sql`create index if not exists records_geom_gist on records using gist (geom)`.execute(db);
    await sql`update records set geom = ST_SetSRID(ST_GeomFromGeoJSON(geometry), 4326) where geom is null and geometry is not null`.execute(db);
  }

  async optimize(db: Executor, _options: { full?: boolean } = {}): Promise<void> {
    // Only the tables whose statistics matter (a bare ANALYZE would visit every schema of the database).
    await sql`analyze records`.execute(db);
    await sql`analyze records_fts`.execute(db);
  }

  async destroy(): Promise<void> {
    // Kysely's destroy ends the pool; nothing else is held.
  }

  get poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }
}

// Numbers as numbers, not strings: ids and counts (int8 from count(*) and sum()) are well below
// 2^53; jsonb and json stay text so rows map the same as SQLite's (the mapper parses them).
const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  20: (value) => Number(value), // int8
  1700: (value) => Number(value), // numeric
  114: (value) => value, // json
  3802: (value) => value, // jsonb
};

const types = {
  getTypeParser: ((oid: number, format?: string) => TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresOpenResult {
  db: Kysely<Schema>;
  dialect: PostgresDialectLayer;
  pool: pg.Pool;
}

function quoteIdent(name: string): string {
  assertIdentifier(name);
  return `"${name}"`;
}

/** Creates an extension unless present; races between processes creating it at once are harmless. */
async function ensureExtension(pool: pg.Pool, name: 'unaccent' | 'postgis'): Promise<boolean> {
  const installed = await pool.query<{ n: number }>('select count(*)::int as n from pg_extension where extname = $1', [name]);
  if (installed.rows[0]!.n > 0) return true;
  const available = await pool.query<{ n: number }>('select count(*)::int as n from pg_available_extensions where name = $1', [name]);
  if (available.rows[0]!.n === 0) return false;
  try {
    await pool.query(`create extension if not exists ${name} schema public`);
  } catch (error) {
    const again = await pool.query<{ n: number }>('select count(*)::int as n from pg_extension where extname = $1', [name]);
    if (again.rows[0]!.n === 0) throw error;
  }
  return true;
}

/** Opens a pool on DATABASE_URL (optionally inside its own schema) and prepares the extensions. */
export async function openPostgres(options: PostgresOptions): Promise<PostgresOpenResult> {
  const schema = options.schema;
  if (schema) {
    // The schema must exist before pooled connections put it on their search_path.
    const admin = new pg.Client({ connectionString: options.connectionString });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${quoteIdent(schema)}`);
    } finally {
      await admin.end();
    }
  }
  const timeout = options.statementTimeoutMs ?? 30_000;
  const settings = [`-c statement_timeout=${Math.max(0, Math.floor(timeout))}`];
  // public stays on the path: the extensions (unaccent, PostGIS types and functions) live there.
  if (schema) settings.push(`-c search_path=${quoteIdent(schema)},public`);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    options: settings.join(' '),
    types,
  });
  try {
    if (!(await ensureExtension(pool, 'unaccent'))) throw new Error('PostgreSQL: the unaccent extension is not available (install postgresql-contrib)');
    const dialect = new PostgresDialectLayer(pool);
    dialect.spatial = options.postgis === false ? false : await ensureExtension(pool, 'postgis').catch(() => false);
    const db = new Kysely<Schema>({ dialect: new OwnSchemasPostgresDialect({ pool }) });
    return { db, dialect, pool };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/** Drops a throwaway schema (test apps) after its pool has closed. */
export async function dropSchema(connectionString: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(`drop schema if exists ${quoteIdent(schema)} cascade`);
  } finally {
    await admin.end();
  }
}
