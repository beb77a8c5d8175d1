/**
 * Opens the database the options name, runs pending migrations and hands back the Kysely
 * instance with its dialect layer. Only this module picks a dialect (SQLite today; PostgreSQL
 * when DATABASE_URL support lands, issue 9).
 */
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { Migrator } from 'kysely';
import type { Db, DialectLayer } from './dialect';
import { StaticMigrationProvider } from './migrations';
import { openSqlite } from './sqlite-dialect';

export interface DatabaseOptions {
  /** A file path (relative paths are resolved inside dataDir) or ':memory:'. */
  database?: string;
  dataDir: string;
}

export interface DatabaseHandle {
  db: Db;
  dialect: DialectLayer;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_FILE = 'moj-travnik.sqlite';

export function resolveDatabasePath(options: DatabaseOptions): string {
  const name = options.database ?? DEFAULT_DATABASE_FILE;
  if (name === ':memory:') return name;
  return isAbsolute(name) ? name : join(options.dataDir, name);
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
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
    },
  };
}

export async function migrateToLatest(db: Db, dialect: DialectLayer): Promise<void> {
  const migrator = new Migrator({ db, provider: new StaticMigrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
