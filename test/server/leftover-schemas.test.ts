/**
 * Jest's PostgreSQL set-up (test/drop-leftover-schemas.mjs) drops the throwaway schemas of test
 * runs that ended without closing their apps — and only those: another run on this machine (a
 * second CI run, a developer's tests) works in the same test database at the same time, and its
 * schemas belong to processes that are still running.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import dropLeftoverSchemas from '../drop-leftover-schemas.mjs';

/** A pid no process has now: a child's, after it exited. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const onPostgres = Boolean(process.env.DATABASE_URL);
(onPostgres ? describe : describe.skip)('leftover test schemas on PostgreSQL', () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const running = `mt_tmp_${process.pid}_leftover_check`;
  const ended = `mt_tmp_${endedPid()}_leftover_check`;
  const endedScale = `mt_scale_${endedPid()}_leftover_check`;

  beforeAll(async () => {
    await client.connect();
    for (const schema of [running, ended, endedScale]) await client.query(`create schema "${schema}"`);
  });
  afterAll(async () => {
    for (const schema of [running, ended, endedScale]) await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it("drops the schemas of processes that ended and keeps a running process's", async () => {
    await dropLeftoverSchemas();
    const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname = any($1)', [[running, ended, endedScale]]);
    expect(rows.map((row) => row.nspname)).toEqual([running]);
  });
});
