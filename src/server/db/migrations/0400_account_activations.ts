/**
 * One-time activation links for farmers' sign-in accounts (embedded identity provider): an editor
 * creates a farmer, the farmer gets an account with no usable password, and the editor hands over
 * a link where the farmer sets one. Only the SHA-256 of a link's token is stored, so the table
 * leaks no usable link. A new link for the same account deletes the unused ones; a used link keeps
 * its row (`used_at`) so "already used" can be told from "never existed".
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_activations')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_activations_user_id').ifNotExists().on('account_activations').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_activations').ifExists().execute();
}
