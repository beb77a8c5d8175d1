/**
 * The dialect layer: everything SQL-dialect-specific lives behind this interface (JSON property
 * access, case folding, id sequences, expression indexes, full-text search, connection set-up).
 * Repositories and routes build queries with Kysely and these helpers only, so a PostgreSQL
 * implementation (issue 9: `properties->>'12'`, tsvector + unaccent, identity columns starting at
 * 10,000,000) can be added as a sibling of sqlite-dialect.ts without touching them.
 */
import type { Geometry } from 'geojson';
import type { CreateTableBuilder, Kysely, RawBuilder, Transaction as KyselyTransaction } from 'kysely';
import type { Database } from './types';

/** How a JSON property is compared: as text, as a number, as a boolean (0/1) or as whatever it is. */
export type ValueKind = 'text' | 'number' | 'boolean';

export type Db = Kysely<Database>;
export type Transaction = KyselyTransaction<Database>;
export type Executor = Kysely<Database> | Transaction;

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
  /** Makes the next generated id of `table` be `start` (records start at SERVER_ID_START). */
  setSequenceStart(db: Executor, table: string, start: number): Promise<void>;
  /**
   * An expression index on one JSON property within a table: `(table_id, prop(columnId, kind))`,
   * the very expression the filter compiler and the farmer scope emit for that column, so the
   * planner uses it for `=`, `in (…)`, ranges, and (SQLite) `order by id` within one value.
   * Named records_prop_<columnId>; idempotent. Which columns get one: property-indexes.ts.
   */
  createPropertyIndex(db: Executor, columnId: number, kind: ValueKind): Promise<void>;
  /** Creates the full-text structure (called by migration 0002). */
  createTextSearch(db: Executor): Promise<void>;
  /** Replaces the indexed text of a record. */
  indexText(db: Executor, recordId: number, text: string): Promise<void>;
  removeText(db: Executor, recordId: number): Promise<void>;
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
