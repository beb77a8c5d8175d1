// Jest's global set-up when the PostgreSQL pass runs (jest.config.js): schemas left by an earlier
// interrupted run (a test app that never closed) are dropped first. The test database is for
// tests only; each test app works in a throwaway schema of its own (mt_tmp_…, mt_scale_…).
import pg from 'pg';

export default async function dropLeftoverSchemas() {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query("select nspname from pg_namespace where nspname like 'mt\\_tmp\\_%' or nspname like 'mt\\_scale\\_%'");
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
    if (rows.length) process.stderr.write(`[jest] dropped ${rows.length} leftover test schemas\n`);
  } finally {
    await client.end();
  }
}
