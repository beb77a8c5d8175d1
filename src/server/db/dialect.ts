/**
 * The dialect layer: everything SQL-dialect-specific lives behind this interface (JSON property
 * access, case folding, id sequences, expression indexes, full-text search, connection set-up).
 * Repositories and routes build queries with Kysely and these helpers only, so a PostgreSQL
 * implementation (`properties->>'12'`, tsvector + unaccent, identity columns starting at
 * 10,000,000) can be added as a sibling of sqlite-dialect.ts without touching them.
 */
import type { Geometry } from 'geojson';
import type { CreateTableBuilder, Insertable, Kysely, RawBuilder, Transaction as KyselyTransaction } from 'kysely';
import type { Database } from './types';

/** How a JSON property is compared: as text, as a number, as a boolean (0/1) or as whatever it is. */
export type ValueKind = 'text' | 'number' | 'boolean';

/** A value of a one-live-row rule's column (validated: a reference id, a text, a number or a boolean). */
export type LiveRuleValue = string | number | boolean;

export type Db = Kysely<Database>;
export type Transaction = KyselyTransaction<Database>;
export type Executor = Kysely<Database> | Transaction;

/** The tables bulk writes go to (insertRows). */
export type BulkInsertTable = 'records' | 'record_history' | 'applied_ops';

/**
 * Most values one statement binds in bulk writes: below SQLite's 32,766 (SQLITE_MAX_VARIABLE_NUMBER
 * of current builds) and PostgreSQL's 65,535, with room for a statement's other parameters.
 */
const MAX_BOUND_PARAMETERS = 30_000;

/**
 * Rows one multi-row statement writes in bulk calls (fewer when rows are wide): a 200-operation
 * call is one statement per kind, and the statement text repeats, so prepared statements are reused.
 */
export const BULK_STATEMENT_ROWS = 500;

/** Rows per multi-row statement for rows of `columns` bound values. */
export function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.min(BULK_STATEMENT_ROWS, Math.floor(MAX_BOUND_PARAMETERS / columns)));
}

/**
 * The column names of insertRows' rows: those of the first row; a row with other columns is
 * refused (its extra values would be dropped).
 */
export function insertColumns(table: BulkInsertTable, rows: ReadonlyArray<object>): string[] {
  const columns = Object.keys(rows[0] ?? {});
  for (const row of rows) if (Object.keys(row).length !== columns.length) throw new Error(`insertRows: rows of ${table} with different columns`);
  return columns;
}

/** insertRows' rows as their column names (insertColumns) and one list of values per row, in that order. */
export function columnsAndValues(table: BulkInsertTable, rows: ReadonlyArray<object>): { columns: string[]; values: unknown[][] } {
  const columns = insertColumns(table, rows);
  return { columns, values: rows.map((row) => columns.map((column) => (row as Record<string, unknown>)[column] ?? null)) };
}

/** Splits `items` into runs of at most `size`. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

export interface TextSearchHit {
  id: number;
  rank: number;
}

export interface DialectLayer {
  readonly name: 'sqlite' | 'postgres';
  /** Column types that differ: the properties object (text / jsonb) and coordinates (real / double precision). */
  readonly types: { readonly json: 'text' | 'jsonb'; readonly double: 'real' | 'double precision' };
  /**
   * The value of property `columnId` of the row `alias` (a records row). `columnId` must be a
   * validated integer: it is written into the SQL as a literal (so expression indexes match);
   * values compared with it are always bound parameters.
   */
  prop(columnId: number, kind: ValueKind, alias?: string): RawBuilder<unknown>;
  /** A property as text (for LIKE comparisons on any column type). */
  propAsText(columnId: number, alias?: string): RawBuilder<string | null>;
  /** A value bound as a parameter in the form `prop(…, kind)` yields. */
  param(value: string | number | boolean, kind: ValueKind): RawBuilder<unknown>;
  /** Unicode lower-casing of a text expression (SQLite's lower() folds ASCII only). */
  lower(expression: RawBuilder<unknown>): RawBuilder<string | null>;
  /** `expression LIKE pattern` with backslash as escape character. */
  like(expression: RawBuilder<unknown>, pattern: string): RawBuilder<boolean>;
  /** Adds an auto-increment integer primary key named `id`. */
  addIdColumn<T extends string>(builder: CreateTableBuilder<T, never>): CreateTableBuilder<T, 'id'>;
  /** Makes the next generated id of `table` be `start` (records start at LOCAL_ID_BOUND). */
  setSequenceStart(db: Executor, table: string, start: number): Promise<void>;
  /**
   * An expression index on one JSON property within a table: `(table_id, prop(columnId, kind))`,
   * the very expression the filter compiler and the farmer scope emit for that column, so the
   * planner uses it for `=`, `in (…)`, ranges, and (SQLite) `order by id` within one value.
   * Named records_prop_<columnId>; idempotent. Which columns get one: property-indexes.ts.
   */
  createPropertyIndex(db: Executor, columnId: number, kind: ValueKind): Promise<void>;
  /**
   * A partial unique index over the live (not deleted) rows of one table on the text values of
   * `columnIds` (rows lacking any of them are outside it). Named records_live_unique_<tableId>;
   * idempotent. Which tables get one: live-unique-rules.ts.
   */
  createLiveUniqueIndex(db: Executor, tableId: number, columnIds: readonly number[]): Promise<void>;
  /**
   * The ids of the live rows of table `tableId` holding each of `keys` (the values of `columnIds`,
   * as in the rule of createLiveUniqueIndex), null where none does: answers in the order of `keys`,
   * each looked up in that index (a bulk call checks each of its inserts against them).
   */
  liveRowIds(db: Executor, tableId: number, columnIds: readonly number[], keys: ReadonlyArray<readonly LiveRuleValue[]>): Promise<Array<number | null>>;
  /** Creates the full-text structure (called by migration 0002). */
  createTextSearch(db: Executor): Promise<void>;
  /** Replaces the indexed text of a record. */
  indexText(db: Executor, recordId: number, text: string): Promise<void>;
  removeText(db: Executor, recordId: number): Promise<void>;
  /**
   * indexText for many records in a few statements (bulk calls): one entry per record; `fresh`
   * marks records inserted by this transaction (nothing indexed yet, so nothing to replace).
   */
  indexTexts(db: Executor, entries: ReadonlyArray<{ recordId: number; text: string; fresh: boolean }>): Promise<void>;
  /**
   * Ids for `count` new records, ascending, for rows a bulk call inserts with explicit ids (it
   * needs them before the rows are written: later operations refer to them). SQLite: the ids after
   * the highest one ever used, which the caller must insert before anything else inserts records
   * in the transaction; PostgreSQL: drawn from the identity sequence (unused ones leave a gap).
   */
  nextRecordIds(db: Executor, count: number): Promise<number[]>;
  /**
   * Inserts rows (each with the same columns, in the same order) into `table`, in the transaction
   * `db` is: the bulk writer's buffered rows. Not through the query builder, which builds a node
   * per value (a bulk call writes hundreds of thousands of values). Multi-row statements (SQLite:
   * prepared ones of 512 rows and, for the rest, of the powers of two below).
   */
  insertRows<T extends BulkInsertTable>(db: Executor, table: T, rows: ReadonlyArray<Insertable<Database[T]>>): Promise<void>;
  /**
   * Record ids matching a user query (accent- and case-insensitive, every word a prefix), best
   * first. `query` is plain user text; the dialect turns it into its own match syntax safely.
   */
  textSearchSql(query: string): RawBuilder<TextSearchHit> | null;
  /**
   * An exact "geometry of row `alias` intersects `geometry`" test the database evaluates (PostGIS),
   * or null: then the caller prefilters on the bbox columns and tests the candidates itself.
   */
  intersectsSql(geometry: Geometry, alias?: string): RawBuilder<boolean> | null;
  /** Spatial structures (PostGIS geometry column, trigger, GiST index) where the database has them; migration 0003. */
  createSpatial(db: Executor): Promise<void>;
  /**
   * Serialises one caller's idempotent writes (called first in the write transaction). SQLite runs
   * one transaction at a time anyway; PostgreSQL takes a transaction-scoped advisory lock, so a
   * retry that reaches another API node waits for the first attempt and then replays its answer.
   */
  lockWrites(db: Executor, caller: string): Promise<void>;
  /**
   * Refreshes the planner's statistics (cheap; after start-up and after bulk seeding). `full`:
   * analyse the whole records table, not a sample (after new indexes and bulk loads; SQLite).
   */
  optimize(db: Executor, options?: { full?: boolean }): Promise<void>;
  /** Closes the underlying connection(s). */
  destroy(): Promise<void>;
}
