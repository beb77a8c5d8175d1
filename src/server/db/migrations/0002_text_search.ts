/** Full-text search over the records' text columns (SQLite: FTS5, accent-insensitive). */
import type { Kysely } from 'kysely';
import type { DialectLayer } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, dialect: DialectLayer): Promise<void> {
  await dialect.createTextSearch(db);
}
