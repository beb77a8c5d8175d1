/**
 * Tables of the embedded identity provider: sign-in accounts, the provider's signing keys and
 * cookie secrets (kept so a restart does not invalidate issued tokens), and oidc-provider's
 * artefacts (sessions, grants, refresh tokens...) so sign-ins survive restarts and are shared by
 * several server processes. Portable between SQLite and PostgreSQL: text ids (UUIDs) rather than
 * auto-increment, epoch seconds in bigint columns.
 */
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('username', 'text', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('identity_secrets')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oidc_payloads')
    .ifNotExists()
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('user_code', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant_id').ifNotExists().on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_uid').ifNotExists().on('oidc_payloads').column('uid').execute();
  await db.schema.createIndex('oidc_payloads_expires_at').ifNotExists().on('oidc_payloads').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oidc_payloads').ifExists().execute();
  await db.schema.dropTable('identity_secrets').ifExists().execute();
  await db.schema.dropTable('users').ifExists().execute();
}
