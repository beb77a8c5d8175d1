/**
 * Opens the database the options name, runs pending migrations and hands back the Kysely
 * instance with its dialect layer. Only this module picks a dialect: PostgreSQL when a
 * `postgres://` URL is given (DATABASE_URL), the SQLite file under dataDir otherwise.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { Migrator, sql } from 'kysely';
import type { Db, DialectLayer } from './dialect';
import { StaticMigrationProvider } from './migrations';
import { dropSchema, openPostgres } from './postgres-dialect';
import { openSqlite } from './sqlite-dialect';

export interface DatabaseOptions {
  /** A file path (relative paths are resolved inside dataDir) or ':memory:'. */
  database?: string;
  dataDir: string;
  /**
   * `postgres://…` selects PostgreSQL. With `database: ':memory:'` (tests) the app then works in a
   * throwaway schema of that database, dropped on close — the PostgreSQL twin of an in-memory SQLite.
   */
  databaseUrl?: string;
  /** PostgreSQL: a named schema to work in (created if missing, kept on close). */
  schema?: string;
  /** Pool size and statement timeout (PG_POOL_SIZE, PG_STATEMENT_TIMEOUT in env.ts). */
  postgres?: { poolSize?: number; statementTimeoutMs?: number; postgis?: boolean };
}

export interface DatabaseHandle {
  db: Db;
  dialect: DialectLayer;
  close(): Promise<void>;
}

const DEFAULT_DATABASE_FILE = 'moj-travnik.sqlite';

function resolveDatabasePath(options: DatabaseOptions): string {
  const name = options.database ?? DEFAULT_DATABASE_FILE;
  if (name === ':memory:') return name;
  return isAbsolute(name) ? name : join(options.dataDir, name);
}

function isPostgresUrl(url: string | undefined): url is string {
  return typeof url === 'string' && /^postgres(ql)?:\/\//i.test(url);
}

async function openPostgresDatabase(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const throwaway = options.database === ':memory:';
  const schema = throwaway ? `mt_tmp_${process.pid}_${randomBytes(4).toString('hex')}` : options.schema;
  const { db, dialect } = await openPostgres({ connectionString: url, schema, ...options.postgres });
  try {
    // Always a named schema for the migrator, the default one too (see migrateToLatest).
    const migrationSchema = schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
    await migrateToLatest(db, dialect, migrationSchema);
    // PostGIS installed after the first migration: add its column and index now (idempotent).
    if (dialect.spatial) await dialect.createSpatial(db);
    await dialect.optimize(db);
  } catch (error) {
    await db.destroy();
    if (throwaway && schema) await dropSchema(url, schema).catch(() => undefined);
    throw error;
  }
  return {
    db,
    dialect,
    close: async () => {
      await db.destroy();
      if (throwaway && schema) await dropSchema(url, schema);
    },
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl !== undefined) {
    if (!isPostgresUrl(options.databaseUrl)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
    return openPostgresDatabase(options.databaseUrl, options);
  }
  const path = resolveDatabasePath(options);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const { db, dialect } = openSqlite(path);
  try {
    await migrateToLatest(db, dialect);
    await dialect.optimize(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    db,
    dialect,
    close: async () => {
      await db.destroy();
      // Kysely closes the connection without waiting for the checkpoint worker: wait for it here.
      await dialect.destroy();
    },
  };
}

export async function migrateToLatest(db: Db, dialect: DialectLayer, schema?: string): Promise<void> {
  // PostgreSQL: Kysely's "does the migration table exist" check looks at every schema unless told
  // which one is ours, and would take another schema's tables (a test schema, another
  // installation in the same database) for the default schema's own.
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
