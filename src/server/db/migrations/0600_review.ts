/**
 * The scheme's review loop in existing projects: the columns the tables' description gained
 * (forms: review_state, review_reason, review_indicator, reviewed_by, reviewed_at, return_until; durations:
 * submit_until, review_until, appeal_days) and the `comments` table, added to every project that
 * lacks them (`ensureDescribedTables`), then indexed like a new project's (review_state, the
 * comments' parent). New projects get them from createProject. A form without review_state is a
 * draft, so existing rows need no change.
 */
import type { Kysely } from 'kysely';
import type { DialectLayer, Executor } from '../dialect';
import { ensurePropertyIndexes } from '../property-indexes';
import { ensureDescribedTables } from '../described-tables';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, dialect: DialectLayer): Promise<void> {
  await ensureDescribedTables(db as Executor);
  await ensurePropertyIndexes(db as Executor, dialect);
}
