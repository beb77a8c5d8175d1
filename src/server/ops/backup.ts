/**
 * `npm run backup -- <dir>`: a consistent snapshot while the server runs and writes.
 *
 * SQLite: SQLite's online backup API (better-sqlite3 `backup()`) from a connection of our own, in
 * one step: the copy is taken inside one read transaction, so it is the database as of one commit
 * (WAL readers never block the server's writers, and a write between steps cannot restart it).
 * PostgreSQL: a repeatable-read transaction exports its snapshot; pg_dump dumps exactly that
 * snapshot (`--snapshot`) while the same transaction counts the rows and lists the attachments.
 *
 * Attachments: a file is stored before its row is committed and removed only after its row is
 * marked deleted, so every live row of the database snapshot has its files — unless a user deleted
 * the attachment while the backup ran: such a row is marked deleted in the snapshot too (listed as
 * `vanished` in the manifest), as it is in the live data by then (PostgreSQL: restore marks them).
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { S3Storage } from '../attachments/s3-storage';
import type { S3Settings } from '../env';
import { copyHashed, FILES_AT_ONCE, hashFile, inParallel, isEmptyDir, OpsError, writeManifest, type Manifest, type SnapshotFile } from './snapshot';

export interface OpsTarget {
  dataDir: string;
  /** The SQLite file (used when databaseUrl is unset). */
  database: string;
  databaseUrl?: string;
  /** Attachments in an object store: their bytes stay there, the manifest lists them. */
  s3?: S3Settings;
  log: (line: string) => void;
}

interface AttachmentRow {
  id: number;
  size: number;
  storage_key: string;
  thumb_key: string | null;
}

const SQLITE_FILE = 'database.sqlite';
export const PG_DUMP_FILE = 'database.dump';

export async function backup(dir: string, target: OpsTarget): Promise<Manifest> {
  if (!(await isEmptyDir(dir))) throw new OpsError(`${dir} is not empty: give a new folder for each snapshot`);
  await mkdir(dir, { recursive: true });
  const createdAt = new Date().toISOString();
  const result = target.databaseUrl ? await dumpPostgres(dir, target.databaseUrl, target.log) : await copySqlite(dir, target.database, target.log);
  const files: SnapshotFile[] = [];
  const attachments = target.s3
    ? await listS3(result.attachments, target.s3, target.log, result.markDeleted)
    : await copyAttachments(dir, target.dataDir, result.attachments, files, target.log, result.markDeleted);
  // Hashed last: marking vanished attachments may have changed the SQLite copy.
  files.unshift({ path: result.file, ...(await hashFile(path.join(dir, result.file))) });
  const manifest = await writeManifest(dir, {
    createdAt,
    database: { kind: result.kind, file: result.file, lastMigration: result.lastMigration, tables: result.tables },
    attachments,
    files,
  });
  target.log(
    `snapshot complete: ${Object.values(result.tables).reduce((a, b) => a + b, 0)} rows in ${Object.keys(result.tables).length} tables, ${attachments.count} attachments (${attachments.bytes} bytes), ${files.length} files`,
  );
  return manifest;
}

interface DatabaseCopy {
  kind: 'sqlite' | 'postgres';
  file: string;
  lastMigration: string;
  tables: Record<string, number>;
  attachments: AttachmentRow[];
  /** Marks attachments deleted in the snapshot (SQLite; a PostgreSQL dump is never changed: restore marks them). */
  markDeleted?: (ids: number[]) => void;
}

async function copySqlite(dir: string, file: string, log: (line: string) => void): Promise<DatabaseCopy> {
  const target = path.join(dir, SQLITE_FILE);
  let source: Database.Database;
  try {
    source = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new OpsError(`cannot open the database ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    source.pragma('busy_timeout = 5000');
    log(`database: online backup of ${file}`);
    await source.backup(target, {
      progress: ({ totalPages }) => {
        log(`database: copying ${totalPages} pages`);
        // Everything in the next step: one read transaction, so one consistent state.
        return 0x7fffffff;
      },
    });
  } finally {
    source.close();
  }
  const snapshot = new Database(target);
  // A self-contained file: no -wal beside it.
  snapshot.pragma('journal_mode = DELETE');
  const check = snapshot.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new OpsError(`the snapshot's database failed SQLite's integrity check: ${String(check)}`);
  const tableNames = snapshot
    .prepare("select name from sqlite_schema where type = 'table' and name not like 'sqlite_%' order by name")
    .pluck()
    .all() as string[];
  const tables: Record<string, number> = {};
  for (const name of tableNames) tables[name] = Number(snapshot.prepare(`select count(*) from "${name}"`).pluck().get());
  const lastMigration = snapshot.prepare('select name from kysely_migration order by name desc limit 1').pluck().get() as string;
  const attachments = snapshot.prepare('select id, size, storage_key, thumb_key from attachments where deleted = 0 order by id').all() as AttachmentRow[];
  snapshot.close();
  log(`database: ${tableNames.length} tables, schema ${lastMigration}`);
  return {
    kind: 'sqlite',
    file: SQLITE_FILE,
    lastMigration,
    tables,
    attachments,
    markDeleted: (ids) => {
      const copy = new Database(target);
      const mark = copy.prepare('update attachments set deleted = 1 where id = ?');
      copy.transaction(() => ids.forEach((id) => mark.run(id)))();
      copy.close();
    },
  };
}

/** Runs a PostgreSQL client tool found on the PATH; a missing tool is a clear OpsError. */
export function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line.trim()) log(`${tool}: ${line.trim()}`);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new OpsError(
              `${tool} not found on the PATH: install the PostgreSQL client tools of the server's major version or newer (Debian/Ubuntu: apt-get install postgresql-client)`,
            )
          : error,
      );
    });
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new OpsError(`${tool} failed (exit ${String(code)}): ${errors.trim().split('\n').pop() ?? ''}`)),
    );
  });
}

async function dumpPostgres(dir: string, url: string, log: (line: string) => void): Promise<DatabaseCopy> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const tableNames = (
      await client.query<{ name: string }>(
        `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and n.nspname = current_schema()
            and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
          order by c.relname`,
      )
    ).rows.map((row) => row.name);
    if (!tableNames.includes('kysely_migration')) throw new OpsError('the database of DATABASE_URL holds no Moj travnik schema (no kysely_migration table)');
    const tables: Record<string, number> = {};
    for (const name of tableNames) tables[name] = Number((await client.query<{ n: string }>(`select count(*) as n from "${name}"`)).rows[0]!.n);
    const lastMigration = (await client.query<{ name: string }>('select name from kysely_migration order by name desc limit 1')).rows[0]!.name;
    const attachments = (await client.query<AttachmentRow>('select id, size, storage_key, thumb_key from attachments where deleted = 0 order by id')).rows.map(
      (row) => ({
        ...row,
        id: Number(row.id),
        size: Number(row.size),
      }),
    );
    log(`database: pg_dump of snapshot ${rows[0]!.snapshot}, ${tableNames.length} tables, schema ${lastMigration}`);
    // The whole database (extensions included): DATABASE_URL names a database of its own.
    await runTool(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--snapshot=${rows[0]!.snapshot}`, `--file=${path.join(dir, PG_DUMP_FILE)}`, `--dbname=${url}`],
      log,
    );
    await client.query('commit');
    log('database: dump written');
    return { kind: 'postgres', file: PG_DUMP_FILE, lastMigration, tables, attachments };
  } finally {
    await client.end();
  }
}

/**
 * An object's size and ETag (the store's checksum of its bytes: the MD5 for objects stored in one
 * part, as attachments are), or null when the store does not have it.
 */
export async function objectHead(storage: S3Storage, key: string): Promise<{ size: number; etag?: string } | null> {
  try {
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: storage.config.bucket, Key: storage.objectKey(key) }));
    return { size: Number(head.ContentLength ?? 0), ...(head.ETag ? { etag: head.ETag } : {}) };
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404) return null;
    throw error;
  }
}

/** S3: the bytes stay in the bucket; every object of a live attachment is checked there and listed with its size. */
async function listS3(
  rows: AttachmentRow[],
  s3: S3Settings,
  log: (line: string) => void,
  markDeleted?: (ids: number[]) => void,
): Promise<Manifest['attachments']> {
  const storage = new S3Storage(s3);
  const objects: NonNullable<Manifest['attachments']['objects']> = [];
  const vanished: number[] = [];
  let count = 0;
  let bytes = 0;
  await inParallel(rows, 16, async (row) => {
    const keys = [row.storage_key, ...(row.thumb_key ? [row.thumb_key] : [])];
    const heads = await Promise.all(keys.map((key) => objectHead(storage, key)));
    if (heads.some((head) => head === null)) {
      vanished.push(row.id);
      return;
    }
    keys.forEach((key, i) => objects.push({ key, ...heads[i]! }));
    count += 1;
    bytes += row.size;
  });
  objects.sort((a, b) => a.key.localeCompare(b.key));
  log(
    `attachments: ${count} in bucket ${s3.bucket} listed (${objects.length} objects)${vanished.length ? `, ${vanished.length} deleted while the backup ran` : ''}`,
  );
  if (vanished.length) markDeleted?.(vanished);
  return {
    store: 's3',
    count,
    bytes,
    bucket: s3.bucket,
    prefix: s3.prefix ?? '',
    objects,
    ...(vanished.length ? { vanished: vanished.sort((a, b) => a - b) } : {}),
  };
}

async function copyAttachments(
  dir: string,
  dataDir: string,
  rows: AttachmentRow[],
  files: SnapshotFile[],
  log: (line: string) => void,
  markDeleted?: (ids: number[]) => void,
): Promise<Manifest['attachments']> {
  const vanished: number[] = [];
  let count = 0;
  let bytes = 0;
  // Copied FILES_AT_ONCE at a time; the manifest lists them in the rows' order all the same.
  const copiedPerRow: SnapshotFile[][] = [];
  await inParallel(rows, FILES_AT_ONCE, async (row, index) => {
    const copied: SnapshotFile[] = [];
    try {
      for (const key of [row.storage_key, row.thumb_key]) {
        if (!key) continue;
        const relative = `attachments/${key}`;
        copied.push({ path: relative, ...(await copyHashed(path.join(dataDir, 'attachments', key), path.join(dir, relative))) });
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      vanished.push(row.id);
      return;
    }
    copiedPerRow[index] = copied;
    count += 1;
    bytes += row.size;
    if (count % 500 === 0) log(`attachments: ${count}/${rows.length}`);
  });
  for (const copied of copiedPerRow) if (copied) files.push(...copied);
  vanished.sort((a, b) => a - b);
  log(`attachments: ${count} copied (${bytes} bytes)${vanished.length ? `, ${vanished.length} deleted while the backup ran` : ''}`);
  if (vanished.length) markDeleted?.(vanished);
  return { store: 'local', count, bytes, ...(vanished.length ? { vanished } : {}) };
}
