/**
 * `npm run backup` / `npm run restore` for real: a server on a real database (a SQLite file, or a
 * PostgreSQL database of its own when DATABASE_URL is set) takes writes through its API — records
 * and photo uploads, some deleted again — while the backup CLI runs as a separate process. The
 * snapshot is restored by the restore CLI into a fresh DATA_DIR (and database), a second server
 * starts on it, and every table holds the rows the manifest counts, every write acknowledged
 * before the backup started is there, and every attachment is served byte for byte as the
 * manifest's checksum says. A damaged snapshot, a schema-version mismatch and a non-empty target
 * are refused with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import pg from 'pg';
import S3rver from 's3rver';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import { S3Storage } from '../../src/server/attachments/s3-storage';
import { readS3Env } from '../../src/server/env';
import { backup } from '../../src/server/ops/backup';
import { restore } from '../../src/server/ops/restore';
import type { Manifest } from '../../src/server/ops/snapshot';
import { buildTablesConfig } from '../../src/server/repositories/project-repository';
import type { TablesConfig } from '../../src/common/schemas/config';
import { jpegImage, multipart } from '../fixtures/uploads';
import { testAuthenticate, TEST_USER_HEADER, USERS } from './helpers/build-test-app';
import { farmerRows, type FarmerRows } from './helpers/demo-ids';

// Each test runs the CLIs as processes (tsx start-up included) on a machine that may be busy.
jest.setTimeout(120_000);

const DATABASE_URL = process.env.DATABASE_URL;
const onPostgres = Boolean(DATABASE_URL);
const hasPgTools = (() => {
  try {
    execFileSync('pg_dump', ['--version']);
    execFileSync('pg_restore', ['--version']);
    return true;
  } catch {
    return false;
  }
})();
const skipReason = onPostgres && !hasPgTools ? 'pg_dump/pg_restore are not on the PATH' : null;
if (skipReason) console.warn(`backup-restore on PostgreSQL skipped: ${skipReason}`);
const describeHere = skipReason ? describe.skip : describe;

const root = mkdtempSync(path.join(os.tmpdir(), 'mt-backup-'));
const tag = `mt_ops_${process.pid}_${randomBytes(3).toString('hex')}`;
const databases: string[] = [];

/** PostgreSQL: a database of its own (pg_dump takes a whole database), dropped after the test. */
async function newDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Server {
  origin: string;
  close(): Promise<void>;
  tables: TablesConfig;
  app: Awaited<ReturnType<typeof buildApp>>;
}

async function startServer(dataDir: string, databaseUrl: string | null, demo: boolean, more: BuildAppOptions = {}): Promise<Server> {
  const app = await buildApp({ dataDir, databaseUrl, demo, authenticate: testAuthenticate, clientDir: path.join(root, 'no-dist'), ...more });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { origin, app, tables: await buildTablesConfig(app.db, 1), close: () => app.close() };
}

async function call(origin: string, method: string, url: string, body?: { body: Buffer; contentType: string } | object) {
  const isUpload = body !== undefined && 'contentType' in body && Buffer.isBuffer((body as { body: unknown }).body);
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: {
      [TEST_USER_HEADER]: USERS.farmer1,
      ...(body === undefined ? {} : { 'content-type': isUpload ? (body as { contentType: string }).contentType : 'application/json' }),
    },
    body: body === undefined ? undefined : isUpload ? new Uint8Array((body as { body: Buffer }).body) : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, bytes, json: () => JSON.parse(bytes.toString('utf8')) };
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(command: 'backup' | 'restore', dir: string, env: Record<string, string>, flags: string[] = []): Promise<CliResult> {
  const tsx = path.resolve('node_modules/.bin/tsx');
  return new Promise((resolve) => {
    const child = spawn(tsx, ['src/server/cli/backup-restore.ts', command, dir, ...flags], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Uploads a photo (its size varies with `i`, so each file differs) as the first farmer; returns its id. */
async function uploadPhoto(server: Server, pathId: number, i: number): Promise<number> {
  const file = { fileName: `foto-${i}.jpg`, contentType: 'image/jpeg', content: await jpegImage(40 + (i % 60), 30 + (i % 17)) };
  const parts = [
    { name: 'tableId', value: String(server.tables.paths.id) },
    { name: 'recordId', value: String(pathId) },
    { name: 'tableAttachmentInfoId', value: String(server.tables.paths.attachments!.photos!) },
    { name: 'file', file },
  ];
  const created = await call(server.origin, 'POST', '/api/Records/1/attachment', multipart(parts));
  expect(created.status).toBe(201);
  return created.json().id as number;
}

afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const filesUnder = (dir: string) => readdirSync(dir, { recursive: true }).length;

describeHere(`backup and restore (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  const sourceDir = path.join(root, 'source');
  const snapshotDir = path.join(root, 'snapshot');
  const restoredDir = path.join(root, 'restored');
  let sourceUrl: string | null = null;
  let restoredUrl: string | null = null;
  let source: Server;
  let own: FarmerRows;
  let manifest: Manifest;
  /** Record ids the server acknowledged before the backup process was started. */
  const ackedBefore: number[] = [];
  let backupLog: CliResult;

  const envFor = (dataDir: string, url: string | null): Record<string, string> => ({ DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) });

  beforeAll(async () => {
    if (onPostgres) {
      sourceUrl = await newDatabase(`${tag}_src`);
      restoredUrl = await newDatabase(`${tag}_dst`);
    }
    source = await startServer(sourceDir, sourceUrl, true);
    own = await farmerRows(source.app, source.tables, USERS.farmer1);
  });

  afterAll(async () => {
    await source?.close();
    if (onPostgres) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      for (const name of databases) await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });

  /** One write round: a form record, every other round a photo upload, the oldest photo deleted again once ten are live. */
  async function writeRound(i: number, uploaded: number[]): Promise<number> {
    const f = source.tables.forms;
    const bulk = await call(source.origin, 'POST', '/api/Records/1/bulk', {
      operations: [
        {
          opId: `${tag}-${i}`,
          kind: 'insert',
          tableId: f.id,
          properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 1, [f.columns.note]: `zapis ${i}` },
        },
      ],
    });
    expect(bulk.status).toBe(200);
    if (i % 2 === 0) {
      uploaded.push(await uploadPhoto(source, own.paths[0]!, i));
    }
    // Deleted again so the slot (20 photos) never fills.
    if (uploaded.length > 10) {
      const gone = uploaded.shift()!;
      expect((await call(source.origin, 'DELETE', `/api/Records/1/attachment/${gone}`)).status).toBe(200);
    }
    return bulk.json().results[0].id;
  }

  it('takes a snapshot while the API writes, restores it and a server on it serves every row and file of the manifest', async () => {
    const uploaded: number[] = [];
    let i = 0;
    // Some history before the backup starts.
    for (; i < 12; i++) ackedBefore.push(await writeRound(i, uploaded));
    let backupDone = false;
    const backupRun = runCli('backup', snapshotDir, envFor(sourceDir, sourceUrl)).then((result) => {
      backupDone = true;
      return result;
    });
    let during = 0;
    while (!backupDone) {
      await writeRound(i++, uploaded);
      during += 1;
    }
    backupLog = await backupRun;
    expect(backupLog.stderr).toContain('snapshot complete');
    expect(backupLog.code).toBe(0);
    expect(during).toBeGreaterThan(0);
    manifest = JSON.parse(readFileSync(path.join(snapshotDir, 'manifest.json'), 'utf8'));
    expect(manifest.database.kind).toBe(onPostgres ? 'postgres' : 'sqlite');
    expect(manifest.attachments.count).toBeGreaterThan(0);

    const restored = await runCli('restore', snapshotDir, envFor(restoredDir, restoredUrl));
    expect(restored.stderr).toContain('restore complete');
    expect(restored.code).toBe(0);

    const server = await startServer(restoredDir, restoredUrl, false);
    try {
      // Every table holds exactly the rows the manifest counted.
      for (const [table, count] of Object.entries(manifest.database.tables)) {
        const row = await server.app.db
          .selectFrom(table as 'records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect({ table, rows: Number(row.n) }).toEqual({ table, rows: count });
      }
      // Every write acknowledged before the backup began is served by the restored server.
      for (const id of ackedBefore) {
        const record = await call(server.origin, 'GET', `/api/Records/1/${source.tables.forms.id}/${id}`);
        expect({ id, status: record.status }).toEqual({ id, status: 200 });
      }
      // Every live attachment is served byte for byte as the manifest's checksum of its file says.
      const bySum = new Map(manifest.files.map((file) => [file.path, file.sha256]));
      const rows = await server.app.db.selectFrom('attachments').select(['id', 'storage_key', 'thumb_key', 'size']).where('deleted', '=', 0).execute();
      expect(rows).toHaveLength(manifest.attachments.count);
      expect(rows.reduce((sum, row) => sum + Number(row.size), 0)).toBe(manifest.attachments.bytes);
      for (const row of rows) {
        const original = await call(server.origin, 'GET', `/api/Records/1/attachment/${row.id}`);
        expect(original.status).toBe(200);
        expect(sha256(original.bytes)).toBe(bySum.get(`attachments/${row.storage_key}`));
        if (row.thumb_key) {
          const thumb = await call(server.origin, 'GET', `/api/Records/1/attachment/${row.id}?thumb=true`);
          expect(sha256(thumb.bytes)).toBe(bySum.get(`attachments/${row.thumb_key}`));
        }
      }
      // The restored server takes new writes.
      const f = server.tables.forms;
      const bulk = await call(server.origin, 'POST', '/api/Records/1/bulk', {
        operations: [{ opId: `${tag}-after`, kind: 'insert', tableId: f.id, properties: { [f.columns.parent]: own.durationPaths[0], [f.columns.form_id]: 2 } }],
      });
      expect(bulk.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('marks an attachment whose file went away during the backup (deleted by a user meanwhile) as deleted in the restored copy', async () => {
    const id = await uploadPhoto(source, own.paths[1] ?? own.paths[0]!, 99);
    const row = await source.app.db.selectFrom('attachments').select(['storage_key']).where('id', '=', id).executeTakeFirstOrThrow();
    const dir = path.join(root, 'vanish-snapshot');
    const database = path.join(sourceDir, 'moj-travnik.sqlite');
    const taken = await backup(dir, {
      dataDir: sourceDir,
      database,
      databaseUrl: sourceUrl ?? undefined,
      log: (line) => {
        // Right after the database snapshot, before the files are copied: the file is removed, as a delete does.
        if (line.startsWith('database:') && line.includes('schema')) rmSync(path.join(sourceDir, 'attachments', row.storage_key));
      },
    });
    expect(taken.attachments.vanished).toEqual([id]);
    const target = path.join(root, 'vanish-restored');
    const targetUrl = onPostgres ? await newDatabase(`${tag}_vanish`) : null;
    await restore(dir, { dataDir: target, database: path.join(target, 'moj-travnik.sqlite'), databaseUrl: targetUrl ?? undefined, log: () => undefined });
    const server = await startServer(target, targetUrl, false);
    try {
      const restoredRow = await server.app.db.selectFrom('attachments').select(['deleted']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(restoredRow.deleted).toBe(1);
      expect((await call(server.origin, 'GET', `/api/Records/1/attachment/${id}`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('refuses a snapshot with one changed byte, and writes nothing', async () => {
    const damaged = path.join(root, 'damaged');
    cpSync(snapshotDir, damaged, { recursive: true });
    const victim = manifest.files.find((file) => file.path.startsWith('attachments/'))!;
    const bytes = readFileSync(path.join(damaged, victim.path));
    const at = Math.floor(bytes.length / 2);
    bytes[at] = bytes[at]! ^ 0x01;
    writeFileSync(path.join(damaged, victim.path), bytes);
    const target = path.join(root, 'target-damaged');
    const result = await runCli('restore', damaged, envFor(target, null));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`restore refused: checksum mismatch: ${victim.path}`);
    expect(() => readdirSync(target)).toThrow();
  });

  it('refuses a snapshot of another schema version, even with a consistent manifest', async () => {
    const other = path.join(root, 'other-schema');
    cpSync(snapshotDir, other, { recursive: true });
    const changed = { ...manifest, database: { ...manifest.database, lastMigration: '9999_from_the_future' } };
    const text = `${JSON.stringify(changed, null, 2)}\n`;
    writeFileSync(path.join(other, 'manifest.json'), text);
    writeFileSync(path.join(other, 'manifest.json.sha256'), `${sha256(Buffer.from(text))}  manifest.json\n`);
    const result = await runCli('restore', other, envFor(path.join(root, 'target-schema'), null));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/restore refused: schema version mismatch: the snapshot's database is at migration 9999_from_the_future/);
  });

  it('refuses a non-empty DATA_DIR (and, on PostgreSQL, a database with tables) and leaves it as it was', async () => {
    const files = filesUnder(restoredDir);
    const result = await runCli('restore', snapshotDir, envFor(restoredDir, restoredUrl));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/restore refused: DATA_DIR .* is not empty/);
    expect(filesUnder(restoredDir)).toBe(files);
    if (onPostgres) {
      // An empty DATA_DIR but a database with tables (the source's own).
      const emptyDir = path.join(root, 'target-db-in-use');
      const intoUsed = await runCli('restore', snapshotDir, envFor(emptyDir, sourceUrl));
      expect(intoUsed.code).toBe(1);
      expect(intoUsed.stderr).toContain('restore refused: the database of DATABASE_URL already has tables');
      expect(() => readdirSync(emptyDir)).toThrow();
    }
  });
});

// The object-store case needs no second database: a SQLite file, run once (not again on PostgreSQL).
(onPostgres ? describe.skip : describe)('backup and restore with attachments in an object store', () => {
  const BUCKET = 'mt-backup-test';
  const s3Dir = mkdtempSync(path.join(os.tmpdir(), 'mt-backup-s3-'));
  const dataDir = path.join(root, 's3-source');
  const snapshot = path.join(root, 's3-snapshot');
  let s3: S3rver;
  let s3Env: Record<string, string>;
  let server: Server;

  beforeAll(async () => {
    s3 = new S3rver({ address: '127.0.0.1', port: 0, directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const address = (await s3.run()) as { port: number };
    s3Env = {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'priloge',
    };
    server = await startServer(dataDir, null, true, { attachmentStorage: new S3Storage(readS3Env(s3Env)!) });
  });

  afterAll(async () => {
    await server?.close();
    await s3?.close();
    rmSync(s3Dir, { recursive: true, force: true });
  });

  it('lists every object of the live attachments with its size in the manifest, checks them on restore, and refuses a restore without the bucket', async () => {
    const own = await farmerRows(server.app, server.tables, USERS.farmer1);
    const ids = [await uploadPhoto(server, own.paths[0]!, 1), await uploadPhoto(server, own.paths[0]!, 2)];
    expect((await call(server.origin, 'DELETE', `/api/Records/1/attachment/${ids[0]}`)).status).toBe(200);
    const done = await runCli('backup', snapshot, { DATA_DIR: dataDir, ...s3Env });
    expect(done.code).toBe(0);
    const listed: Manifest = JSON.parse(readFileSync(path.join(snapshot, 'manifest.json'), 'utf8'));
    const live = await server.app.db.selectFrom('attachments').select(['storage_key', 'thumb_key', 'size']).where('deleted', '=', 0).execute();
    expect(live).toHaveLength(1);
    expect(listed.attachments).toMatchObject({ store: 's3', count: 1, bytes: Number(live[0]!.size), bucket: BUCKET, prefix: 'priloge/' });
    expect(listed.attachments.objects!.map((o) => o.key).sort()).toEqual([live[0]!.storage_key, live[0]!.thumb_key].sort());
    expect(listed.attachments.objects!.find((o) => o.key === live[0]!.storage_key)!.size).toBe(Number(live[0]!.size));
    expect(listed.files.map((f) => f.path)).toEqual(['database.sqlite']);

    const refused = await runCli('restore', snapshot, { DATA_DIR: path.join(root, 's3-no-bucket') });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("restore refused: the snapshot's attachments are in an object store");
    const restored = await runCli('restore', snapshot, { DATA_DIR: path.join(root, 's3-restored'), ...s3Env });
    expect(restored.code).toBe(0);
    expect(restored.stderr).toContain('attachments: 1 stay in bucket mt-backup-test; 2 objects checked there');
    expect(restored.stderr).not.toContain('WARNING');
  });

  it('refuses a restore when an object of the snapshot is gone from the bucket or changed, and writes nothing; --accept-missing-attachments restores and lists them', async () => {
    const listed: Manifest = JSON.parse(readFileSync(path.join(snapshot, 'manifest.json'), 'utf8'));
    const [first, second] = listed.attachments.objects!.map((o) => o.key) as [string, string];
    const storage = new S3Storage(readS3Env(s3Env)!);
    const kept = await storage.get(first);
    const bytes = await buffer(kept!.stream);
    await storage.remove(first);
    const gone = path.join(root, 's3-object-gone');
    const refused = await runCli('restore', snapshot, { DATA_DIR: gone, ...s3Env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`restore refused: 1 attachment object of the snapshot is missing from bucket ${BUCKET} or changed: ${first}`);
    expect(refused.stderr).toContain('--accept-missing-attachments');
    expect(() => readdirSync(gone)).toThrow();

    // Another object with other bytes of the same size: its checksum differs.
    const other = Buffer.from(bytes);
    other[0] = other[0]! ^ 0xff;
    await storage.put(first, { bytes: other });
    const changed = await runCli('restore', snapshot, { DATA_DIR: gone, ...s3Env });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(`or changed: ${first}`);
    expect(changed.stderr).not.toContain(second);
    expect(() => readdirSync(gone)).toThrow();

    const accepted = await runCli('restore', snapshot, { DATA_DIR: gone, ...s3Env }, ['--accept-missing-attachments']);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain(
      `1 attachment object of the snapshot is missing from bucket ${BUCKET} or changed, accepted (--accept-missing-attachments): ${first}`,
    );
    expect(JSON.parse(accepted.stdout).missingAttachments).toEqual([first]);
    expect(readdirSync(gone)).toContain('moj-travnik.sqlite');
    await storage.put(first, { bytes });
  });
});
