/**
 * `npm run chaos -- --seed N --runs M [--edits E]`: more seeded fault-injection runs of chaos.ts
 * (runs use seeds N, N+1, …). Prints one JSON report per run; exits 1 when any run found a problem.
 */
import 'fake-indexeddb/auto';
import { runChaos } from './chaos';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
  return value;
}

const seed = arg('seed', Date.now() % 1_000_000);
const runs = arg('runs', 1);
const edits = arg('edits', 500);
let failed = 0;
for (let run = 0; run < runs; run++) {
  const report = await runChaos({ seed: seed + run, edits, log: (m) => process.stderr.write(`[chaos] ${m}\n`) });
  process.stdout.write(`${JSON.stringify(report)}\n`);
  if (report.problems.length) failed++;
}
process.stderr.write(`[chaos] ${runs} runs, ${failed} with problems\n`);
process.exit(failed ? 1 : 0);
