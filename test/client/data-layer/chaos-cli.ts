/**
 * `npm run chaos -- --seed N --runs M [--edits E]`: more seeded fault-injection runs of chaos.ts
 * (runs use seeds N, N+1, …). Prints one JSON report per run; exits 1 when any run found a problem.
 *
 * `npm run chaos -- --browser [--seed N --runs M --edits E]`: the same in Chromium with the built
 * app (`npm run build` first) against the real server process (test/e2e/chaos/browser-chaos.ts):
 * per run one round per fault (server killed, page reloaded, second tab, token expired mid-drain),
 * E edits per round through the page's outbox (default 150). Prints one JSON line per round and
 * one per run.
 */
import 'fake-indexeddb/auto';
import { runChaos } from './chaos';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
  return value;
}

const browser = process.argv.includes('--browser');
const seed = arg('seed', Date.now() % 1_000_000);
const runs = arg('runs', 1);
const editsPerRun = arg('edits', browser ? 150 : 500);
const log = (m: string) => process.stderr.write(`[chaos] ${m}\n`);
let failed = 0;
for (let run = 0; run < runs; run++) {
  if (browser) {
    const { runBrowserChaos } = await import('../../e2e/chaos/browser-chaos');
    const report = await runBrowserChaos({ seed: seed + run, editsPerRound: editsPerRun, log });
    for (const round of report.rounds) process.stdout.write(`${JSON.stringify(round)}\n`);
    const faults = report.rounds.filter((round) => round.injected).map((round) => `${round.fault}:${round.moment}@${round.atRequest}`);
    const checked = report.rounds.reduce(
      (sum, round) => ({
        serverRows: sum.serverRows + round.checked.serverRows,
        deviceRows: sum.deviceRows + round.checked.deviceRows,
        photos: sum.photos + round.checked.photos,
      }),
      { serverRows: 0, deviceRows: 0, photos: 0 },
    );
    const edits = report.rounds.reduce((sum, round) => ({ ui: sum.ui + round.edits.ui, api: sum.api + round.edits.api, queued: sum.queued + round.queued }), {
      ui: 0,
      api: 0,
      queued: 0,
    });
    process.stdout.write(`${JSON.stringify({ seed: report.seed, browser: true, faults, edits, checked, problems: report.problems })}\n`);
    if (report.problems.length) failed++;
  } else {
    const report = await runChaos({ seed: seed + run, edits: editsPerRun, log });
    process.stdout.write(`${JSON.stringify(report)}\n`);
    if (report.problems.length) failed++;
  }
}
process.stderr.write(`[chaos] ${runs} runs, ${failed} with problems\n`);
process.exit(failed ? 1 : 0);
