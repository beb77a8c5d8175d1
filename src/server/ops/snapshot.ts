/**
 * The snapshot folder that `npm run backup` writes and `npm run restore` reads:
 *
 *   manifest.json          what the snapshot holds (below)
 *   manifest.json.sha256   the SHA-256 of manifest.json, so a changed manifest is noticed too
 *   database.sqlite        SQLite: the online-backup copy (rollback journal, one self-contained file)
 *   database.dump          PostgreSQL: pg_dump's custom format
 *   attachments/<key>      local attachment files under their storage keys (thumbnails included)
 *
 * Every file is named in the manifest with its size and SHA-256; restore checks all of them and the
 * schema version before it writes anything.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { StaticMigrationProvider } from '../db/migrations';

const MANIFEST_FILE = 'manifest.json';
const MANIFEST_SUM_FILE = 'manifest.json.sha256';
const FORMAT = 'moj-travnik-backup';
const FORMAT_VERSION = 1;

export interface SnapshotFile {
  /** Relative to the snapshot folder, always with forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  createdAt: string;
  database: {
    kind: 'sqlite' | 'postgres';
    file: string;
    /** Schema version: the name of the last migration the snapshot's database ran. */
    lastMigration: string;
    /** Rows per table at the moment of the snapshot. */
    tables: Record<string, number>;
  };
  attachments: {
    store: 'local' | 's3';
    /** Live attachments (rows not deleted) and the sum of their sizes (originals, thumbnails not counted). */
    count: number;
    bytes: number;
    /**
     * S3: the bucket and key prefix the objects stay in; `objects` lists every storage key
     * (thumbnails included) with its size and the store's ETag (absent in snapshots taken before
     * it was recorded: those are checked by size alone).
     */
    bucket?: string;
    prefix?: string;
    objects?: Array<{ key: string; size: number; etag?: string }>;
    /** Attachments deleted by a user while the backup ran: marked deleted in the snapshot, as they are now live. */
    vanished?: number[];
  };
  files: SnapshotFile[];
}

/** A refusal or failure with a message meant for the operator; the CLIs print it and exit 1. */
export class OpsError extends Error {
  override name = 'OpsError';
}

/** The schema version this code runs: the last of its migrations. */
async function currentSchemaVersion(): Promise<string> {
  // The provider only keeps the dialect for running migrations; listing their names never uses it.
  const names = Object.keys(await new StaticMigrationProvider(undefined as never).getMigrations()).sort();
  return names[names.length - 1]!;
}

/** Copies `from` to `to` (its folder created), hashing on the way: size and SHA-256 of what was written. */
/**
 * Files up to this size (every thumbnail, most photos) are read whole and written in one call: for
 * thousands of small files a stream's set-up costs more than its bytes. Larger ones are streamed.
 */
const WHOLE_FILE_BYTES = 4 * 1024 * 1024;

/** Files copied or checked at once: the disk's and the store's latency overlap, memory stays bounded (≤ 8 × WHOLE_FILE_BYTES). */
export const FILES_AT_ONCE = 8;

/**
 * Runs `work` over `items`, `limit` at a time. On the first failure no new item is started, and the
 * promise settles (with that failure) only once every started item has: a restore clearing its
 * target after a failure must not race a copy still writing into it.
 */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const workers = await Promise.allSettled(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length && !failed) {
        const index = next++;
        try {
          await work(items[index]!, index);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
  const failure = workers.find((worker): worker is PromiseRejectedResult => worker.status === 'rejected');
  if (failure) throw failure.reason;
}

export async function copyHashed(from: string, to: string): Promise<{ size: number; sha256: string }> {
  await mkdir(path.dirname(to), { recursive: true });
  const source = await open(from, 'r');
  try {
    const { size: length } = await source.stat();
    if (length <= WHOLE_FILE_BYTES) {
      const bytes = await source.readFile();
      await writeFile(to, bytes);
      return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    const hash = createHash('sha256');
    let size = 0;
    const stream = source.createReadStream({ autoClose: false });
    stream.on('data', (chunk) => {
      hash.update(chunk);
      size += chunk.length;
    });
    await pipeline(stream, createWriteStream(to));
    return { size, sha256: hash.digest('hex') };
  } finally {
    await source.close();
  }
}

export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const source = await open(file, 'r');
  try {
    const { size: length } = await source.stat();
    if (length <= WHOLE_FILE_BYTES) {
      const bytes = await source.readFile();
      return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of source.createReadStream({ autoClose: false })) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { size, sha256: hash.digest('hex') };
  } finally {
    await source.close();
  }
}

/** True when `dir` is missing or holds nothing. */
export async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

export async function writeManifest(dir: string, manifest: Omit<Manifest, 'format' | 'formatVersion'>): Promise<Manifest> {
  const full: Manifest = { format: FORMAT, formatVersion: FORMAT_VERSION, ...manifest };
  const text = `${JSON.stringify(full, null, 2)}\n`;
  // The checksum file last: a snapshot interrupted before it is refused as incomplete.
  await writeFile(path.join(dir, MANIFEST_FILE), text);
  const temp = path.join(dir, `${MANIFEST_SUM_FILE}.part`);
  await writeFile(temp, `${createHash('sha256').update(text).digest('hex')}  ${MANIFEST_FILE}\n`);
  await rename(temp, path.join(dir, MANIFEST_SUM_FILE));
  return full;
}

/**
 * Reads the manifest and checks the whole snapshot: the manifest's own checksum, its format, the
 * schema version against this code's, and the size and SHA-256 of every file it names. Throws an
 * OpsError naming the first problem; reads only.
 */
export async function verifySnapshot(dir: string, log: (line: string) => void): Promise<Manifest> {
  let text: string;
  let sum: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
    sum = (await readFile(path.join(dir, MANIFEST_SUM_FILE), 'utf8')).trim().split(/\s+/)[0] ?? '';
  } catch {
    throw new OpsError(`${dir} is not a complete snapshot: ${MANIFEST_FILE} or ${MANIFEST_SUM_FILE} is missing`);
  }
  if (createHash('sha256').update(text).digest('hex') !== sum)
    throw new OpsError(`${MANIFEST_FILE} does not match its checksum: the snapshot was changed or damaged`);
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== FORMAT || manifest.formatVersion !== FORMAT_VERSION) {
    throw new OpsError(`${MANIFEST_FILE} is not a Moj travnik snapshot of format ${FORMAT_VERSION}`);
  }
  const expected = await currentSchemaVersion();
  if (manifest.database.lastMigration !== expected) {
    throw new OpsError(
      `schema version mismatch: the snapshot's database is at migration ${manifest.database.lastMigration}, this server version expects ${expected}; restore it with the server version that made it`,
    );
  }
  let checked = 0;
  const root = path.resolve(dir) + path.sep;
  for (const file of manifest.files) {
    if (!path.resolve(dir, file.path).startsWith(root)) throw new OpsError(`${MANIFEST_FILE} names a file outside the snapshot: ${file.path}`);
  }
  await inParallel(manifest.files, FILES_AT_ONCE, async (file) => {
    let actual: { size: number; sha256: string };
    try {
      actual = await hashFile(path.resolve(dir, file.path));
    } catch {
      throw new OpsError(`snapshot file missing: ${file.path}`);
    }
    if (actual.size !== file.size || actual.sha256 !== file.sha256)
      throw new OpsError(`checksum mismatch: ${file.path} is not the file the backup wrote (damaged or changed)`);
    checked += 1;
    if (checked % 1000 === 0 || checked === manifest.files.length) log(`verified ${checked}/${manifest.files.length} files`);
  });
  return manifest;
}

/** Removes what a failed restore wrote, so the target is empty again for the next attempt. */
export async function clearDir(dir: string): Promise<void> {
  for (const entry of await readdir(dir).catch(() => [] as string[])) await rm(path.join(dir, entry), { recursive: true, force: true });
}
