#!/usr/bin/env node
// The server test suite on both databases: first on SQLite (DATABASE_URL removed from
// the environment), then — when DATABASE_URL names a PostgreSQL database — the same files again
// on PostgreSQL, each test app in its own throwaway schema. `--pg-only` runs just the second pass
// (npm test runs every project on SQLite first, then this).
import { spawnSync } from 'node:child_process';

const pgOnly = process.argv.includes('--pg-only');
const extra = process.argv.slice(2).filter((arg) => arg !== '--pg-only');
const url = process.env.DATABASE_URL?.trim();

function jest(env, label, options = []) {
  process.stderr.write(`\n[test-server] server suite on ${label}\n`);
  const result = spawnSync('npx', ['jest', '--forceExit', '--selectProjects', 'server', ...options, ...extra], {
    stdio: 'inherit',
    env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!pgOnly) {
  const { DATABASE_URL: _ignored, ...sqliteEnv } = process.env;
  jest(sqliteEnv, 'SQLite');
}
/** Schemas left by an earlier interrupted run (a test app that never closed): the test database is for tests only. */
async function dropLeftoverSchemas() {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select nspname from pg_namespace where nspname like 'mt\\_tmp\\_%' or nspname like 'mt\\_scale\\_%'");
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
    if (rows.length) process.stderr.write(`[test-server] dropped ${rows.length} leftover test schemas\n`);
  } finally {
    await client.end();
  }
}

if (url) {
  await dropLeftoverSchemas();
  // Every test app migrates its own schema over a socket: fixtures take longer than in memory.
  jest(process.env, `PostgreSQL (${url.replace(/\/\/[^@/]*@/, '//…@')})`, ['--testTimeout=30000']);
} else {
  process.stderr.write('[test-server] DATABASE_URL is not set: PostgreSQL pass skipped (.ci/run sets it; see docs/deploy.md)\n');
}
