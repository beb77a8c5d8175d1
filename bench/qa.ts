/**
 * QA action-log figures: what logging costs while the app runs.
 *
 * - qa.log_append_10k_ms        10,000 actions dispatched to a real app store (makeStore, the
 *                               state of a recorded field day preloaded) with the action log on,
 *                               until all of them are in the IndexedDB ring buffer (default
 *                               capacity, so it also trims): batched writes, as the app does
 * - qa.log_append_2k_naive_ms   the naive way: one IndexedDB put per action (redaction and hash
 *                               done per action too), until every put resolved, over 2,000
 *                               actions (measured) …
 * - qa.log_append_10k_naive_ms  … and that ×5 for 10,000 (extrapolated, and in the naive side's
 *                               favour: a put gets slower as the table grows — all 10,000
 *                               measured took 86 s on an idle machine, 27 min on a loaded one)
 * - qa.dispatch_10k_logged_ms   the synchronous part alone (what a tap waits for): dispatching
 *                               10,000 actions with the batched log on …
 * - qa.dispatch_10k_unlogged_ms … and with no log, the floor
 * - qa.replay_10k_ms            `npm run replay` of a 10,000-action log (hash checked per action)
 *
 * IndexedDB is fake-indexeddb in Node (slower per transaction than Chromium's), which favours
 * neither side: the naive way pays one transaction per action either way.
 *
 * The figures are measured in a child process with NODE_ENV=production, as the app ships:
 * Redux Toolkit picks its build when first loaded, and the development build's immutability and
 * serialisability checks walk the whole state on every dispatch, which would swamp what is
 * measured here (the bench runner has loaded the development build by the time it gets here).
 */
import 'fake-indexeddb/auto';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeStore } from '../src/client/app/store';
import { drainStarted, drainStopped } from '../src/client/features/sync';
import { openOfflineDb } from '../src/client/lib/db';
import {
  ActionLogRecorder,
  IndexedDbLogSink,
  MemoryLogSink,
  DEFAULT_LOG_CAPACITY,
  parseActionLogFile,
  redact,
  replayActionLog,
  StateHasher,
  withActionLogHandler,
  type ActionLogHandler,
} from '../src/client/features/qa';
import { createReplayStore, teardownReplayStore } from '../scripts/replay-store';
import type { BenchIo } from './sync';

const ACTIONS = Number(process.env.QA_BENCH_ACTIONS ?? 10_000);
const NAIVE_ACTIONS = Math.min(ACTIONS, Number(process.env.QA_BENCH_NAIVE_ACTIONS ?? 2_000));
let dbCounter = 0;

/** The redacted final state of the recorded field day: a realistic amount of season data. */
async function fieldDayState(): Promise<Record<string, unknown>> {
  const file = parseActionLogFile(JSON.parse(readFileSync(path.join(process.cwd(), 'test/fixtures/action-logs/farmer-field-day.json'), 'utf8')));
  const result = await replayActionLog(file, { createStore: createReplayStore, teardown: teardownReplayStore });
  const { api: _api, ...rest } = result.finalState as Record<string, unknown>;
  return rest;
}

function storeWith(handler: ActionLogHandler | null, preloaded: Record<string, unknown>) {
  const make = () => makeStore(preloaded as Parameters<typeof makeStore>[0], { extra: { db: openOfflineDb({ name: `qa-bench-data-${++dbCounter}` }) } });
  return handler ? withActionLogHandler(handler, make) : make();
}

function dispatchAll(store: ReturnType<typeof makeStore>, count = ACTIONS): number {
  const start = performance.now();
  // Real app actions that change state and start no listener (a probe or a farmer choice would
  // start season loads, and the figure would measure those instead of the log).
  for (let i = 0; i < count; i++) store.dispatch(i % 2 === 0 ? drainStarted() : drainStopped());
  return performance.now() - start;
}

/** One put per action, the log entry built on the spot. */
class NaiveHandler implements ActionLogHandler {
  private readonly hasher = new StateHasher();
  readonly writes: Array<Promise<void>> = [];
  constructor(private readonly sink: IndexedDbLogSink) {}
  handle(action: unknown, next: (action: unknown) => unknown, getState: () => unknown): unknown {
    const result = next(action);
    const hash = this.hasher.hashState(getState());
    const plain = action as { type: string };
    this.writes.push(this.sink.putOne({ kind: 'action', t: Date.now(), type: plain.type, action: redact(plain) as { type: string }, hash }));
    return result;
  }
}

const NAMES = [
  'qa.log_append_10k_ms',
  'qa.log_append_2k_naive_ms',
  'qa.log_append_10k_naive_ms',
  'qa.dispatch_10k_logged_ms',
  'qa.dispatch_10k_unlogged_ms',
  'qa.replay_10k_ms',
];

/** Runs the measurement in a production-mode child and passes its figures on. */
export async function qaFigures({ want, emit, log }: BenchIo): Promise<void> {
  if (!NAMES.some(want)) return;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(process.cwd(), 'bench/qa.ts'), '--qa-child'], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`qa bench child failed with exit code ${code}`);
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    const figure = JSON.parse(line) as { name: string; value: number };
    emit(figure.name, figure.value);
  }
  log('qa: done');
}

async function measure({ emit, log }: Omit<BenchIo, 'want'>): Promise<void> {
  log('qa: preparing the field-day state');
  const preloaded = await fieldDayState();

  log(`qa: ${ACTIONS} actions, batched log`);
  const batchedSink = new IndexedDbLogSink({ capacity: DEFAULT_LOG_CAPACITY, name: `qa-bench-log-${++dbCounter}` });
  const recorder = new ActionLogRecorder({ sink: batchedSink });
  const logged = storeWith(recorder, preloaded);
  let start = performance.now();
  const syncLogged = dispatchAll(logged);
  await recorder.flush();
  const batched = performance.now() - start;
  const kept = (await batchedSink.readAll()).length;
  batchedSink.close();

  log(`qa: ${NAIVE_ACTIONS} actions, one put per action`);
  const naiveSink = new IndexedDbLogSink({ capacity: DEFAULT_LOG_CAPACITY, name: `qa-bench-log-${++dbCounter}` });
  const naive = new NaiveHandler(naiveSink);
  const naiveStore = storeWith(naive, preloaded);
  start = performance.now();
  dispatchAll(naiveStore, NAIVE_ACTIONS);
  await Promise.all(naive.writes);
  const naiveMs = performance.now() - start;
  naiveSink.close();

  const unlogged = dispatchAll(storeWith(null, preloaded));

  log(`qa: replaying a ${ACTIONS}-action log`);
  const memory = new MemoryLogSink(ACTIONS * 2);
  const memoryRecorder = new ActionLogRecorder({ sink: memory });
  dispatchAll(storeWith(memoryRecorder, preloaded));
  await memoryRecorder.flush();
  const entries = await memory.readAll();
  start = performance.now();
  // The recorded store began with the field-day state; so does the replay's.
  const replay = await replayActionLog(
    { entries },
    { createStore: (deps) => createReplayStore({ ...deps, preloadedState: deps.preloadedState ?? preloaded }), teardown: teardownReplayStore },
  );
  const replayMs = performance.now() - start;
  if (replay.divergence) throw new Error(`qa bench: the replay diverged at ${replay.divergence.index} ${replay.divergence.type}`);

  log(`qa: ring buffer kept ${kept} entries (capacity ${DEFAULT_LOG_CAPACITY})`);
  emit('qa.log_append_10k_ms', batched);
  emit('qa.log_append_2k_naive_ms', naiveMs);
  emit('qa.log_append_10k_naive_ms', (naiveMs * ACTIONS) / NAIVE_ACTIONS);
  emit('qa.dispatch_10k_logged_ms', syncLogged);
  emit('qa.dispatch_10k_unlogged_ms', unlogged);
  emit('qa.replay_10k_ms', replayMs);
}

if (process.argv.includes('--qa-child')) {
  measure({
    emit: (name, value) => process.stdout.write(`${JSON.stringify({ name, value })}\n`),
    log: (message) => process.stderr.write(`[bench] ${message}\n`),
  }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
