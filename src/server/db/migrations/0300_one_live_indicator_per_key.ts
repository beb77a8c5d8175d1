/**
 * One live indicator row per indicator key on a form, enforced by the database (see
 * live-unique-rules.ts): settles rows that already break the rule (the most recently written row
 * of each group stays live, the others are marked deleted), then creates the partial unique
 * indexes. New projects get them from createProject.
 */
import type { Kysely } from 'kysely';
import type { DialectLayer, Executor } from '../dialect';
import { ensureLiveUniqueRules } from '../live-unique-rules';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, dialect: DialectLayer): Promise<void> {
  await ensureLiveUniqueRules(db as Executor, dialect);
}
