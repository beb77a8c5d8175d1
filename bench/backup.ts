/**
 * Backup and restore figures (`npm run bench -- ops.`) on a generated project of realistic size:
 * the large seed with 1,000 farmers (about 2,000 meadows, 3,000 transects and their seasons' forms
 * and indicators) plus one photo per transect (a ~60 kB original and a ~8 kB thumbnail, random
 * bytes as a JPEG's are), in a SQLite DATA_DIR on local disk, the server closed (idle):
 *
 * - ops.backup_1k_farmers_ms         `backup()` (src/server/ops/backup.ts): SQLite's online backup,
 *                                    every attachment file copied and hashed, the manifest
 * - ops.backup_1k_farmers_floor_ms   the floor: the same database file and attachment files copied
 *                                    plainly (copyFile, no checksum, no manifest)
 * - ops.restore_1k_farmers_ms        `restore()` of that snapshot into an empty DATA_DIR: every
 *                                    file checked, then copied and checked again
 * - ops.restore_1k_farmers_floor_ms  the floor: the snapshot's files copied plainly into an empty folder
 * - ops.snapshot_1k_farmers_mb       the snapshot's size
 *
 * Each time is the median of OPS_RUNS (default 3) runs, one after another, each into a new folder;
 * the floors are measured between them in the same way, so page-cache effects fall on both alike.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/server/app';
import { LocalDiskStorage, newStorageKey, thumbKey } from '../src/server/attachments/storage';
import { backup } from '../src/server/ops/backup';
import { restore } from '../src/server/ops/restore';
import { buildTablesConfig } from '../src/server/repositories/project-repository';
import { seedLargeProject } from '../src/server/seed/seed-large';
import type { BenchIo } from './sync';

const NAMES = [
  'ops.backup_1k_farmers_ms',
  'ops.backup_1k_farmers_floor_ms',
  'ops.restore_1k_farmers_ms',
  'ops.restore_1k_farmers_floor_ms',
  'ops.snapshot_1k_farmers_mb',
];
const FARMERS = 1_000;
const PHOTO_BYTES = 60_000;
const THUMB_BYTES = 8_000;
const RUNS = Number(process.env.OPS_RUNS ?? 3);
const DATABASE_FILE = 'moj-travnik.sqlite';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** The floor: each file copied as it is, its folder made first. */
async function copyPlainly(from: string, files: string[], to: string): Promise<void> {
  const made = new Set<string>();
  for (const file of files) {
    const folder = path.dirname(path.join(to, file));
    if (!made.has(folder)) {
      await mkdir(folder, { recursive: true });
      made.add(folder);
    }
    await copyFile(path.join(from, file), path.join(to, file));
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export async function backupFigures({ want, emit, log }: BenchIo): Promise<void> {
  if (!NAMES.some(want)) return;
  const root = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-ops-'));
  const dataDir = path.join(root, 'data');
  try {
    const app = await buildApp({
      dataDir,
      database: DATABASE_FILE,
      databaseUrl: null,
      demo: false,
      logger: false,
      clientDir: path.join(root, 'no-client'),
      authenticate: async () => null,
    });
    try {
      const seeded = await seedLargeProject(app.db, app.dialect, { farmers: FARMERS, seed: 1 });
      const tables = await buildTablesConfig(app.db, seeded.projectId);
      const slot = tables.paths.attachments?.photos;
      if (slot === undefined) throw new Error('the paths table has no photos slot');
      const paths = await app.db.selectFrom('records').select('id').where('table_id', '=', tables.paths.id).where('deleted', '=', 0).execute();
      const storage = new LocalDiskStorage(path.join(dataDir, 'attachments'));
      const createdAt = new Date().toISOString();
      for (let from = 0; from < paths.length; from += 500) {
        const rows = [];
        for (const { id } of paths.slice(from, from + 500)) {
          const key = newStorageKey();
          await storage.put(key, { bytes: randomBytes(PHOTO_BYTES) });
          await storage.put(thumbKey(key), { bytes: randomBytes(THUMB_BYTES) });
          rows.push({
            record_id: id,
            table_id: tables.paths.id,
            table_attachment_info_id: slot,
            name: `foto-${id}.jpg`,
            mime_type: 'image/jpeg',
            size: PHOTO_BYTES,
            storage_key: key,
            thumb_key: thumbKey(key),
            created_at: createdAt,
            created_by: 'urednik@example.si',
            deleted: 0,
          });
        }
        await app.db.insertInto('attachments').values(rows).execute();
      }
      log(
        `ops: ${FARMERS} farmers (${Object.entries(seeded.counts)
          .map(([table, n]) => `${n} ${table}`)
          .join(', ')}), ${paths.length} photos`,
      );
    } finally {
      await app.close();
    }
    const sourceFiles = [DATABASE_FILE, ...(await filesUnder(dataDir)).filter((file) => file.startsWith(`attachments${path.sep}`))];
    const target = (dir: string) => ({ dataDir: dir, database: path.join(dir, DATABASE_FILE), log: () => undefined });

    const backups: number[] = [];
    const backupFloors: number[] = [];
    let snapshot = '';
    for (let run = 0; run < RUNS; run++) {
      const floorDir = path.join(root, `floor-${run}`);
      backupFloors.push(await timed(() => copyPlainly(dataDir, sourceFiles, floorDir)));
      await rm(floorDir, { recursive: true, force: true });
      if (snapshot) await rm(snapshot, { recursive: true, force: true });
      snapshot = path.join(root, `snapshot-${run}`);
      backups.push(await timed(() => backup(snapshot, target(dataDir))));
      log(`ops: backup ${Math.round(backups.at(-1)!)} ms, floor ${Math.round(backupFloors.at(-1)!)} ms`);
    }
    const snapshotFiles = await filesUnder(snapshot);
    const snapshotBytes = snapshotFiles.reduce((sum, file) => sum + statSync(path.join(snapshot, file)).size, 0);

    const restores: number[] = [];
    const restoreFloors: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const floorDir = path.join(root, `restore-floor-${run}`);
      restoreFloors.push(await timed(() => copyPlainly(snapshot, snapshotFiles, floorDir)));
      await rm(floorDir, { recursive: true, force: true });
      const restored = path.join(root, `restored-${run}`);
      restores.push(await timed(() => restore(snapshot, target(restored))));
      await rm(restored, { recursive: true, force: true });
      log(`ops: restore ${Math.round(restores.at(-1)!)} ms, floor ${Math.round(restoreFloors.at(-1)!)} ms`);
    }

    emit('ops.backup_1k_farmers_ms', median(backups));
    emit('ops.backup_1k_farmers_floor_ms', median(backupFloors));
    emit('ops.restore_1k_farmers_ms', median(restores));
    emit('ops.restore_1k_farmers_floor_ms', median(restoreFloors));
    emit('ops.snapshot_1k_farmers_mb', snapshotBytes / 1024 / 1024, 'MB');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
