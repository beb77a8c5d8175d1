/**
 * `npm run restore -- <dir>`: checks the whole snapshot first (manifest checksum, schema version,
 * every file's size and SHA-256) and the target (an empty DATA_DIR; on PostgreSQL a database with
 * no tables), then, when the attachments stay in an object store, that every object the snapshot
 * lists is still there with the same size and ETag — and only then writes. A missing or changed
 * object refuses the restore (a restored server would have records whose photos are gone) unless
 * the operator accepts the loss (`acceptMissingAttachments`, the CLI's
 * `--accept-missing-attachments`); the objects are then listed. A failure half-way clears what it
 * wrote, so the target is empty again.
 */
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { S3Storage } from '../attachments/s3-storage';
import type { S3Settings } from '../env';
import { objectHead, PG_DUMP_FILE, runTool, type OpsTarget } from './backup';
import { clearDir, copyHashed, FILES_AT_ONCE, inParallel, isEmptyDir, OpsError, verifySnapshot, type Manifest } from './snapshot';

export interface RestoreOptions {
  /** Restore even when objects of the snapshot are gone from the bucket or changed (they are listed). */
  acceptMissingAttachments?: boolean;
}

export interface RestoreOutcome {
  manifest: Manifest;
  /** Storage keys of the snapshot's objects the bucket no longer has as they were (accepted losses). */
  missingAttachments: string[];
}

/** The CLI flag that accepts missing attachment objects; named in the refusal. */
export const ACCEPT_MISSING_FLAG = '--accept-missing-attachments';

export async function restore(dir: string, target: OpsTarget, options: RestoreOptions = {}): Promise<RestoreOutcome> {
  const { log } = target;
  log(`checking snapshot ${dir}`);
  const manifest = await verifySnapshot(dir, log);
  const onPostgres = Boolean(target.databaseUrl);
  if (manifest.database.kind !== (onPostgres ? 'postgres' : 'sqlite')) {
    throw new OpsError(
      `the snapshot holds a ${manifest.database.kind} database, but this server is configured for ${onPostgres ? 'PostgreSQL (DATABASE_URL)' : 'SQLite (DATABASE_URL unset)'}`,
    );
  }
  if (manifest.attachments.store !== (target.s3 ? 's3' : 'local')) {
    throw new OpsError(
      `the snapshot's attachments are in ${manifest.attachments.store === 's3' ? 'an object store' : 'DATA_DIR'}, but this server keeps them ${target.s3 ? 'in S3_BUCKET' : 'in DATA_DIR'}`,
    );
  }
  if (!(await isEmptyDir(target.dataDir))) throw new OpsError(`DATA_DIR ${target.dataDir} is not empty: restore into an empty folder (nothing was written)`);
  if (target.databaseUrl) await assertEmptyPostgres(target.databaseUrl);
  const missingAttachments = target.s3 ? await checkBucket(manifest, target.s3, log) : [];
  if (missingAttachments.length > 0) {
    const what = `${missingAttachments.length} attachment ${missingAttachments.length === 1 ? 'object of the snapshot is' : 'objects of the snapshot are'} missing from bucket ${target.s3!.bucket} or changed`;
    if (!options.acceptMissingAttachments) {
      const shown = missingAttachments.slice(0, 20).join(', ') + (missingAttachments.length > 20 ? `, … (${missingAttachments.length - 20} more)` : '');
      throw new OpsError(
        `${what}: ${shown}. Put them back into the bucket (from its object versions or another copy), or restore without them with ${ACCEPT_MISSING_FLAG} — nothing was written`,
      );
    }
    log(`${what}, accepted (${ACCEPT_MISSING_FLAG}): ${missingAttachments.join(', ')}`);
  }

  await mkdir(target.dataDir, { recursive: true });
  try {
    if (target.databaseUrl) {
      log('database: pg_restore');
      await runTool(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--no-comments',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${target.databaseUrl}`,
          path.join(dir, PG_DUMP_FILE),
        ],
        log,
      );
      await markVanished(target.databaseUrl, manifest.attachments.vanished ?? []);
    } else {
      // Into place by rename: a server started on a half-copied file is impossible.
      const temp = `${target.database}.restoring`;
      await copyChecked(dir, manifest.database.file, temp, manifest);
      await rename(temp, target.database);
    }
    log('database: restored');
    const attachmentFiles = manifest.files.filter((file) => file.path.startsWith('attachments/'));
    let done = 0;
    await inParallel(attachmentFiles, FILES_AT_ONCE, async (file) => {
      await copyChecked(dir, file.path, path.join(target.dataDir, file.path), manifest);
      done += 1;
      if (done % 500 === 0 || done === attachmentFiles.length) log(`attachments: ${done}/${attachmentFiles.length} files`);
    });
  } catch (error) {
    await clearDir(target.dataDir);
    throw error;
  }
  log(`restore complete: ${manifest.attachments.count} attachments, schema ${manifest.database.lastMigration}, snapshot of ${manifest.createdAt}`);
  return { manifest, missingAttachments };
}

const indexes = new WeakMap<Manifest, Map<string, Manifest['files'][number]>>();

/** The manifest's files by path (a snapshot lists thousands: no linear search per file). */
function fileIndex(manifest: Manifest): Map<string, Manifest['files'][number]> {
  let index = indexes.get(manifest);
  if (!index) {
    index = new Map(manifest.files.map((file) => [file.path, file]));
    indexes.set(manifest, index);
  }
  return index;
}

/** Copies one snapshot file and checks the copy against the manifest (a disk error would show here). */
async function copyChecked(dir: string, relative: string, to: string, manifest: Manifest): Promise<void> {
  const expected = fileIndex(manifest).get(relative);
  const copied = await copyHashed(path.join(dir, relative), to);
  if (!expected || copied.sha256 !== expected.sha256) throw new OpsError(`checksum mismatch while copying ${relative}`);
}

/** S3: the objects stay in the bucket; the keys of those the manifest lists that the bucket no longer has as they were (size, ETag). */
async function checkBucket(manifest: Manifest, s3: S3Settings, log: (line: string) => void): Promise<string[]> {
  const storage = new S3Storage(s3);
  const objects = manifest.attachments.objects ?? [];
  const missing: string[] = [];
  // Round trips to the store overlap, as in the backup's listing.
  await inParallel(objects, 16, async (object) => {
    const head = await objectHead(storage, object.key);
    const same = head !== null && head.size === object.size && (object.etag === undefined || head.etag === object.etag);
    if (!same) missing.push(object.key);
  });
  log(`attachments: ${manifest.attachments.count} stay in bucket ${s3.bucket}; ${objects.length - missing.length} objects checked there`);
  return missing.sort();
}

/** Attachments deleted while the backup ran: their files are not in the snapshot, so their rows are deleted too. */
async function markVanished(url: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('update attachments set deleted = 1 where id = any($1::bigint[])', [ids]);
  } finally {
    await client.end();
  }
}

async function assertEmptyPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new OpsError(`cannot connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    // Tables of extensions (PostGIS's spatial_ref_sys) do not count: the server may have created them.
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname = current_schema()
          and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')`,
    );
    if (Number(rows[0]!.n) > 0)
      throw new OpsError('the database of DATABASE_URL already has tables: restore into an empty database (createdb) — nothing was written');
  } finally {
    await client.end();
  }
}
