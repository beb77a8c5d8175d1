// Jest's global set-up when the PostgreSQL pass runs (jest.config.js): schemas left by an earlier
// interrupted run (a test app that never closed) are dropped first. The test database is for
// tests only; each test app works in a throwaway schema of its own, named with the pid of the
// process that made it (mt_tmp_<pid>_…, mt_scale_<pid>_…). Only schemas whose process has ended
// are dropped: another run on this machine (a second CI run, a developer's tests) uses the same
// database at the same time, and dropping its schemas would fail its tests.
import pg from 'pg';

const TEST_SCHEMA = /^mt_(?:tmp|scale)_(\d+)_/;

/** Whether a process with this pid runs on this machine (EPERM: it runs as another user). */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

export default async function dropLeftoverSchemas() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query("select nspname from pg_namespace where nspname like 'mt\\_tmp\\_%' or nspname like 'mt\\_scale\\_%'");
    const leftovers = rows
      .map((row) => row.nspname)
      .filter((name) => {
        const pid = Number(TEST_SCHEMA.exec(name)?.[1]);
        return !(pid > 0 && isRunning(pid));
      });
    for (const name of leftovers) await client.query(`drop schema if exists "${name}" cascade`);
    if (leftovers.length) process.stderr.write(`[jest] dropped ${leftovers.length} leftover test schemas\n`);
  } finally {
    await client.end();
  }
}
