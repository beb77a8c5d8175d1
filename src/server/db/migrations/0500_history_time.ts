/**
 * The editors' audit trail selects history entries by time (a day, a week): without an index on
 * `changed_at` such a window, and its total, read the whole history.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('record_history_changed_at').ifNotExists().on('record_history').column('changed_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('record_history_changed_at').ifExists().execute();
}
