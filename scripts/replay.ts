/**
 * `npm run replay -- log.json [--out state.json]`: replays an exported action log headless into
 * a fresh store (features/qa/replay.ts) and reports
 * - the final state (stdout as JSON, or the --out file),
 * - the final state hash and the hash the app logged last,
 * - the first action where the replay's state hash differs from the logged one.
 * The report goes to stderr so stdout stays the state alone. Exit code: 0 = no divergence,
 * 1 = divergence, 2 = the file could not be read or is not an action log.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseActionLogFile, replayActionLog } from '../src/client/features/qa';
import { createReplayStore, teardownReplayStore } from './replay-store';

function usage(message?: string): never {
  if (message) process.stderr.write(`replay: ${message}\n`);
  process.stderr.write('usage: npm run replay -- <log.json> [--out <state.json>]\n');
  process.exit(2);
}

async function main(): Promise<number> {
  // Redux Toolkit's development checks walk the whole state on every dispatch; a replay of a
  // full ring buffer does not need them (the reducers are the same either way).
  process.env.NODE_ENV ??= 'production';
  const args = process.argv.slice(2);
  let input: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--out') {
      out = args[++i];
      if (!out) usage('--out needs a file name');
    } else if (arg === '--help' || arg === '-h') {
      usage();
    } else if (arg.startsWith('-')) {
      usage(`unknown option ${arg}`);
    } else if (input) {
      usage('one log file at a time');
    } else {
      input = arg;
    }
  }
  if (!input) usage('no log file given');
  let file;
  try {
    file = parseActionLogFile(JSON.parse(readFileSync(input, 'utf8')));
  } catch (error) {
    usage(`${input}: ${(error as Error).message}`);
  }
  const result = await replayActionLog(file, { createStore: createReplayStore, teardown: teardownReplayStore });
  const state = `${JSON.stringify(result.finalState, null, 2)}\n`;
  if (out) writeFileSync(out, state);
  else process.stdout.write(state);
  const report = (line: string) => process.stderr.write(`${line}\n`);
  report(
    `replayed ${input}: ${result.actions} actions in ${result.sessions} session(s)${result.skippedEntries ? `, ${result.skippedEntries} entries before the first session start skipped` : ''}`,
  );
  report(
    `listeners' own dispatches held back: ${result.echoes}; network answered from the log: ${result.network.answered}, unanswered: ${result.network.unanswered.length}`,
  );
  report(`final state hash: ${result.finalHash} (logged: ${result.recordedFinalHash})${out ? `; state written to ${out}` : ''}`);
  if (!result.divergence) {
    report('no divergence: every state hash matches the log');
    return 0;
  }
  const d = result.divergence;
  report(
    `DIVERGED at entry ${d.index} (seq ${d.seq}), action ${d.type}: expected hash ${d.expected}, replay has ${d.actual} (${result.divergences} diverging entries in all)`,
  );
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`replay failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  },
);
