/**
 * SQLite implementation of the dialect layer (better-sqlite3, WAL mode). JSON properties are read
 * with json_extract; full-text search uses an FTS5 table with the unicode61 tokenizer and
 * remove_diacritics 2, so "travnik" finds "Travník".
 */
import Database from 'better-sqlite3';
import type { Geometry } from 'geojson';
import { Kysely, SqliteDialect, sql, type CreateTableBuilder, type Insertable, type RawBuilder } from 'kysely';
import { startCheckpointer, type Checkpointer, type CheckpointerOptions } from './sqlite-checkpointer';
import { insertColumns, type BulkInsertTable, type DialectLayer, type Executor, type LiveRuleValue, type TextSearchHit, type ValueKind } from './dialect';
import type { Database as Schema } from './types';
import { queryWords } from '../../common/text-search';

function assertColumnId(columnId: number): void {
  // Column ids are written into SQL as literals (so expression indexes apply): integers only.
  if (!Number.isSafeInteger(columnId) || columnId <= 0) throw new Error(`invalid column id ${String(columnId)}`);
}

function assertIdentifier(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid identifier ${name}`);
}

/**
 * The id of the live row of table `tableId` holding the bound values in `columnIds`: its terms are
 * those of the table's partial unique index (createLiveUniqueIndex: the literal table id, `deleted
 * = 0`, and `=` implies the index's `is not null`), so SQLite answers it from that index.
 */
export function liveRowLookupSql(tableId: number, columnIds: readonly number[]): string {
  assertColumnId(tableId);
  columnIds.forEach(assertColumnId);
  return `select id from records where table_id = ${tableId} and deleted = 0 and ${columnIds.map((id) => `json_extract(properties, '$."${id}"') = ?`).join(' and ')}`;
}

/** Rows per statement of the bulk writer's multi-row INSERTs, a power of two (records: 16 values a row, 8,192 a statement, far below SQLite's 32,766 parameters). */
const INSERT_ROWS = 512;

/** FTS5 query from plain user text: each word becomes a quoted prefix term, all words required (common/text-search.ts). */
function ftsQuery(text: string): string | null {
  const words = queryWords(text);
  if (words.length === 0) return null;
  return words.map((word) => `"${word}"*`).join(' ');
}

class SqliteDialectLayer implements DialectLayer {
  readonly name = 'sqlite' as const;
  readonly types = { json: 'text', double: 'real' } as const;

  constructor(
    private readonly connection: Database.Database,
    /** Prepared statements by SQL text, shared with Kysely's queries (withStatementCache). */
    private readonly prepare: (text: string) => Database.Statement,
    private readonly checkpointer?: Checkpointer,
  ) {}

  prop(columnId: number, _kind: ValueKind, alias = 'records'): RawBuilder<unknown> {
    assertColumnId(columnId);
    assertIdentifier(alias);
    // One expression for every kind: json_extract yields SQL integer/real/text (booleans as 1/0),
    // and writes are validated against the column type, so values compare natively.
    return sql`json_extract(${sql.ref(`${alias}.properties`)}, ${sql.lit(`$."${columnId}"`)})`;
  }

  propAsText(columnId: number, alias = 'records'): RawBuilder<string | null> {
    return sql<string | null>`cast(${this.prop(columnId, 'text', alias)} as text)`;
  }

  param(value: string | number | boolean, kind: ValueKind): RawBuilder<unknown> {
    if (kind === 'boolean') return sql`${value ? 1 : 0}`;
    return sql`${value}`;
  }

  lower(expression: RawBuilder<unknown>): RawBuilder<string | null> {
    return sql<string | null>`mt_lower(${expression})`;
  }

  like(expression: RawBuilder<unknown>, pattern: string): RawBuilder<boolean> {
    return sql<boolean>`${expression} like ${pattern} escape '\\'`;
  }

  addIdColumn<T extends string>(builder: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'> {
    return builder.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
  }

  async setSequenceStart(db: Executor, table: string, start: number): Promise<void> {
    assertIdentifier(table);
    await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values (${table}, ${start - 1})`.execute(db);
  }

  async createPropertyIndex(db: Executor, columnId: number, _kind: ValueKind): Promise<void> {
    assertColumnId(columnId);
    // prop() is one json_extract for every kind (typed values), so one index serves them all.
    // Partial: only rows that have the property (its own table's), so the index stays small, a
    // write touches only its own table's indexes, and ANALYZE sees real values. SQLite uses it for
    // any comparison on the expression (`=`, `in`, ranges imply "is not null"). deleted and
    // project_id (the rest of visibleRows' predicate) make a totalCount of index-only filters a
    // covering-index count (≈ 6× faster than reading the rows); rows of one value stay in id order.
    const expression = `json_extract(properties, '$."${columnId}"')`;
    await sql
      .raw(`create index if not exists records_prop_${columnId} on records (table_id, ${expression}, deleted, project_id) where ${expression} is not null`)
      .execute(db);
  }

  async createLiveUniqueIndex(db: Executor, tableId: number, columnIds: readonly number[]): Promise<void> {
    assertColumnId(tableId);
    columnIds.forEach(assertColumnId);
    const values = columnIds.map((id) => `json_extract(properties, '$."${id}"')`);
    await sql
      .raw(
        `create unique index if not exists records_live_unique_${tableId} on records (${values.join(', ')}) where table_id = ${tableId} and deleted = 0 and ${values.map((v) => `${v} is not null`).join(' and ')}`,
      )
      .execute(db);
  }

  async liveRowIds(_db: Executor, tableId: number, columnIds: readonly number[], keys: ReadonlyArray<readonly LiveRuleValue[]>): Promise<Array<number | null>> {
    if (keys.length === 0) return [];
    // One prepared point look-up per key: the unique index answers each in a few microseconds,
    // whatever else the rows' parents hold. Runs on the one connection, in the caller's transaction.
    const statement = this.prepare(liveRowLookupSql(tableId, columnIds));
    return keys.map(
      (values) => (statement.get(values.map((value) => (typeof value === 'boolean' ? Number(value) : value))) as { id: number } | undefined)?.id ?? null,
    );
  }

  async createTextSearch(db: Executor): Promise<void> {
    await sql`create virtual table records_fts using fts5(body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  }

  async indexText(db: Executor, recordId: number, text: string): Promise<void> {
    await sql`delete from records_fts where rowid = ${recordId}`.execute(db);
    if (text.trim()) await sql`insert into records_fts (rowid, body) values (${recordId}, ${text})`.execute(db);
  }

  async removeText(db: Executor, recordId: number): Promise<void> {
    await sql`delete from records_fts where rowid = ${recordId}`.execute(db);
  }

  async indexTexts(_db: Executor, entries: ReadonlyArray<{ recordId: number; text: string; fresh: boolean }>): Promise<void> {
    this.assertInTransaction();
    const remove = this.prepare('delete from records_fts where rowid = ?');
    for (const entry of entries) if (!entry.fresh) remove.run(entry.recordId);
    const indexed = entries.filter((entry) => entry.text.trim());
    this.insertMany('insert into records_fts (rowid, body)', 2, indexed.length, (i, values, at) => {
      values[at] = indexed[i]!.recordId;
      values[at + 1] = indexed[i]!.text;
    });
  }

  async insertRows<T extends BulkInsertTable>(_db: Executor, table: T, rows: ReadonlyArray<Insertable<Schema[T]>>): Promise<void> {
    if (rows.length === 0) return;
    const columns = insertColumns(table, rows);
    this.insertMany(`insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')})`, columns.length, rows.length, (i, values, at) => {
      const row = rows[i] as Record<string, unknown>;
      for (let c = 0; c < columns.length; c++) values[at + c] = row[columns[c]!] ?? null;
    });
  }

  /** Bulk writes run in the caller's transaction: the one connection is inside it (Kysely runs one transaction at a time on it). */
  private assertInTransaction(): void {
    if (!this.connection.inTransaction) throw new Error('bulk writes run inside a transaction');
  }

  /**
   * Inserts rows of values (`head`: `insert into t (columns)`) in the caller's transaction, in
   * statements of INSERT_ROWS rows and then, for the rest, of the powers of two below it (at most
   * one each): any number of rows takes a few calls into SQLite, through at most ten prepared
   * statements per table (cached). Larger statements cost less per row (bench/README.md); the
   * rest going one row per statement made a call's last few hundred rows as dear as thousands.
   * `fill(i, values, at)` puts row i's `width` values into `values` from `at`: one array of
   * values per statement size, reused, not an array per row.
   */
  private insertMany(head: string, width: number, count: number, fill: (i: number, values: unknown[], at: number) => void): void {
    if (count === 0) return;
    this.assertInTransaction();
    const tuple = `(${Array.from({ length: width }, () => '?').join(', ')})`;
    let i = 0;
    for (let rows = INSERT_ROWS; rows >= 1 && i < count; rows >>= 1) {
      if (count - i < rows) continue;
      const statement = this.prepare(`${head} values ${Array.from({ length: rows }, () => tuple).join(', ')}`);
      const values = new Array<unknown>(rows * width);
      for (; count - i >= rows; i += rows) {
        for (let r = 0; r < rows; r++) fill(i + r, values, r * width);
        statement.run(values);
      }
    }
  }

  async nextRecordIds(db: Executor, count: number): Promise<number[]> {
    // AUTOINCREMENT hands out one more than the largest id ever used (sqlite_sequence) and moves
    // the sequence on when a larger id is inserted explicitly, so these are the ids it would give.
    const result = await sql<{
      last: number;
    }>`select max(coalesce((select seq from sqlite_sequence where name = 'records'), 0), coalesce((select max(id) from records), 0)) as last`.execute(db);
    const last = Number(result.rows[0]?.last ?? 0);
    return Array.from({ length: count }, (_, i) => last + 1 + i);
  }

  textSearchSql(query: string): RawBuilder<TextSearchHit> | null {
    const match = ftsQuery(query);
    if (!match) return null;
    return sql<TextSearchHit>`select rowid as id, rank from records_fts where records_fts match ${match}`;
  }

  intersectsSql(_geometry: Geometry): RawBuilder<boolean> | null {
    // No spatial extension: the bbox index prefilters, geometry.ts tests exactly.
    return null;
  }

  async createSpatial(): Promise<void> {
    // The bbox columns and records_bbox index (migration 0001) are SQLite's spatial index.
  }

  async lockWrites(): Promise<void> {
    // Kysely's SqliteDialect runs one transaction at a time on the one connection.
  }

  async optimize(db: Executor, options: { full?: boolean } = {}): Promise<void> {
    if (options.full) {
      // Every index read whole (≈ 1 s per million records): see below why samples mislead here.
      await sql`pragma analysis_limit = 0`.execute(db);
      await sql`analyze records`.execute(db);
    }
    // Bounded sampling keeps this fast on big files; 0x10002 also analyses tables never analysed.
    // A sample is the first rows of each index, so on the shared records table it sees one
    // table_id and one property value: with it the planner can prefer records_table over a
    // property index. Hence a whole-table analysis after bulk loads and new indexes (full).
    await sql`pragma analysis_limit = 1000`.execute(db);
    await sql`pragma optimize = 0x10002`.execute(db);
  }

  async destroy(): Promise<void> {
    if (this.connection.open) this.connection.close();
    await this.checkpointer?.stop();
  }

  /** Copies the write-ahead log into the database file now, off this connection (a file database). */
  async checkpoint(): Promise<void> {
    await this.checkpointer?.checkpoint();
  }

  /** As PostgreSQL's pool reports it (/metrics): one connection, busy while a transaction is open. */
  get poolStats(): { total: number; idle: number } {
    if (!this.connection.open) return { total: 0, idle: 0 };
    return { total: 1, idle: this.connection.inTransaction ? 0 : 1 };
  }
}

const STATEMENT_CACHE_SIZE = 500;

/** The connection as Kysely sees it, with prepared statements reused by SQL text (LRU). */
function withStatementCache(connection: Database.Database, beforeClose: () => void): { close(): void; prepare(sql: string): Database.Statement } {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => {
      beforeClose();
      connection.close();
    },
    prepare: (text: string) => {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = connection.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

export interface SqliteOpenResult {
  db: Kysely<Schema>;
  dialect: SqliteDialectLayer;
}

/** Size of the read memory map of a database file (1 GiB). */
const SQLITE_MMAP_BYTES = 1024 * 1024 * 1024;

/** Opens (creating if needed) the SQLite file, or ':memory:', with the pragmas the server relies on. */
export function openSqlite(path: string, options: { checkpoints?: CheckpointerOptions } = {}): SqliteOpenResult {
  const connection = new Database(path);
  let checkpointer: Checkpointer | undefined;
  if (path !== ':memory:') {
    connection.pragma('journal_mode = WAL');
    // Checkpoints run beside the server, not inside one of its commits.
    checkpointer = startCheckpointer(connection, path, options.checkpoints);
    // Reads through a memory map instead of a read() per page: a totalCount that visits the
    // scattered rows of one indexed value (50,000 of 1M records) runs ≈ 4× faster. Writes still
    // go through the WAL; files beyond 1 GiB read the rest as before.
    connection.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  }
  // NORMAL is durable in WAL mode except for the last transactions on power loss (not on crash).
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  connection.function('mt_lower', { deterministic: true }, (value: unknown) => (value === null || value === undefined ? null : String(value).toLowerCase()));
  const statements = withStatementCache(connection, () => void checkpointer?.stop());
  const dialect = new SqliteDialectLayer(connection, statements.prepare, checkpointer);
  // Kysely's SqliteDialect serialises all queries on this one connection (a mutex), so a
  // transaction never interleaves with another request's statements — which also makes it safe
  // to reuse prepared statements: Kysely prepares on every execution, and preparing costs about
  // as much as running a small statement (a 10,000-operation bulk call runs ~50,000 of them).
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: statements }) });
  return { db, dialect };
}
