/**
 * `npm run seed -- --farmers 1000 [--project 2] [--seed 7]`: generates a large project
 * (seed-large.ts) into the database of DATA_DIR (default data/), next to the demo project. The
 * server shows it with PROJECT_ID=<id> npm start (sign in as the demo editor or reader).
 * Prints one JSON summary line on stdout; progress on stderr.
 */
import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { readEnv } from '../env';
import { openDatabase } from '../db/database';
import { loadDemoData } from '../seed/seed-demo';
import { parseSeedArgs, seedLargeProject } from '../seed/seed-large';

const USAGE = 'usage: npm run seed -- --farmers <n> [--project <id>] [--seed <n>]';

async function main(): Promise<void> {
  let args: ReturnType<typeof parseSeedArgs>;
  try {
    args = parseSeedArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const env = readEnv();
  mkdirSync(env.dataDir, { recursive: true });
  const { db, dialect, close } = await openDatabase({ dataDir: env.dataDir, database: env.database, databaseUrl: env.databaseUrl, postgres: env.postgres }); // DATABASE_URL seeds PostgreSQL
  try {
    // The demo project first, as on the server's first run, so project 1 stays the demo.
    if (env.demo) await loadDemoData(db, dialect);
    const started = performance.now();
    let last = 0;
    const result = await seedLargeProject(db, dialect, {
      ...args,
      onProgress: (done, total) => {
        if (done === total || performance.now() - last > 2000) {
          last = performance.now();
          process.stderr.write(`[seed] ${done}/${total} farmers\n`);
        }
      },
    });
    // Statistics of the whole records table, so the property indexes are weighed right (dialect.ts).
    await dialect.optimize(db, { full: true });
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    process.stdout.write(`${JSON.stringify({ ...result, seconds, database: env.databaseUrl ? 'postgres' : env.database })}\n`);
    process.stderr.write(`[seed] project ${result.projectId} ready: PROJECT_ID=${result.projectId} npm start\n`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
