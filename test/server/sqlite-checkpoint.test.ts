/**
 * Checkpoints of the SQLite file run beside the server: a commit that takes the write-ahead log
 * past SQLite's default 1,000 pages does not copy it into the database file itself (that copy
 * and its sync made every few bulk calls wait); the worker's passive checkpoint does, while the
 * server's connection keeps reading and writing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database';
import { openSqlite } from '../../src/server/db/sqlite-dialect';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'travnik-checkpoint-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite checkpoints', () => {
  it('leaves the log to the worker instead of copying it inside a commit, and the worker copies it', async () => {
    const file = path.join(dir, 'c.sqlite');
    // Checkpoints only when asked, so that none runs between the commits and the first look at the file.
    const { db, dialect } = openSqlite(file, { checkpoints: { watch: false } });
    try {
      await sql`create table t (id integer primary key, body text not null)`.execute(db);
      const body = 'x'.repeat(2000);
      // About 12 MB in 1,500 rows per transaction: three times SQLite's default checkpoint size.
      for (let round = 0; round < 4; round++) {
        await db.transaction().execute(async (trx) => {
          for (let i = 0; i < 1500; i++) await sql`insert into t (body) values (${body})`.execute(trx);
        });
      }
      const logBytes = statSync(`${file}-wal`).size;
      expect(logBytes).toBeGreaterThan(8 * 1024 * 1024);
      // No commit copied the log: the database file still holds only what it was created with.
      expect(statSync(file).size).toBeLessThan(1024 * 1024);

      await dialect.checkpoint();
      expect(statSync(file).size).toBeGreaterThan(8 * 1024 * 1024);
      // Every committed page is in the file now: a log that is fully copied is busy 0 and checkpointed = log.
      const state = await sql<{ busy: number; log: number; checkpointed: number }>`pragma wal_checkpoint(PASSIVE)`.execute(db);
      expect(state.rows[0]).toEqual(expect.objectContaining({ busy: 0 }));
      expect(state.rows[0]!.checkpointed).toBe(state.rows[0]!.log);
      const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(db);
      expect(rows.rows[0]?.n).toBe(6000);
    } finally {
      await db.destroy();
    }
  });

  it('is over when the database is closed: its files can be removed at once, and a late checkpoint never makes a new file', async () => {
    const own = mkdtempSync(path.join(dir, 'closed-'));
    const handle = await openDatabase({ dataDir: own, database: 'd.sqlite' });
    // A checkpoint asked for just before closing: its worker is still starting when the close comes.
    const late = (handle.dialect as unknown as { checkpoint(): Promise<void> }).checkpoint();
    await handle.close();
    rmSync(own, { recursive: true });
    await late;
    expect(existsSync(own)).toBe(false);
  });

  it('never creates the database file: a checkpoint of a file removed meanwhile does nothing', async () => {
    const file = path.join(dir, 'gone.sqlite');
    const { db, dialect } = openSqlite(file, { checkpoints: { watch: false } });
    try {
      await sql`create table t (id integer primary key)`.execute(db);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      await dialect.checkpoint();
      expect(existsSync(file)).toBe(false);
    } finally {
      await db.destroy();
    }
  });
});
