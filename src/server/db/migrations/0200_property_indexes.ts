/**
 * Expression indexes on the filtered properties of existing projects (docs/deploy.md, Indexed properties): the
 * flagged text columns (farmers.email, indicators.key) and, on PostgreSQL and SQLite alike, every
 * reference column. The reference columns' indexes of older projects covered every record of
 * the database; they are rebuilt as partial indexes (rows that have the property). New projects
 * get them from createProject. See property-indexes.ts.
 */
import type { Kysely } from 'kysely';
import type { DialectLayer, Executor } from '../dialect';
import { ensurePropertyIndexes } from '../property-indexes';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, dialect: DialectLayer): Promise<void> {
  const indexed = await ensurePropertyIndexes(db as Executor, dialect, { rebuild: true });
  // Statistics of the whole table for the new indexes, so the planner weighs them from the first query.
  if (indexed.length > 0) await dialect.optimize(db as Executor, { full: true });
}
