/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The persisted ring buffer (IndexedDB via fake-indexeddb): batched writes, wrap-around at the
 * configured size, the sequence continuing over a reload, and a wrapped log still replayable
 * from the checkpoint it kept.
 */
import { describe, expect, it } from '@jest/globals';
import { configureStore, createSlice } from '@reduxjs/toolkit';
import {
  ActionLogRecorder,
  actionLogMiddleware,
  IndexedDbLogSink,
  MemoryLogSink,
  replayActionLog,
  withActionLogHandler,
  type LogSink,
} from '../../../src/client/features/qa';

let counter = 0;
const dbName = () => `qa-ring-${Date.now()}-${++counter}`;

const counterSlice = createSlice({
  name: 'counter',
  initialState: { value: 0 },
  reducers: {
    incremented: (state) => {
      state.value += 1;
    },
  },
});

/** A store whose action-log middleware takes the handler it is made under. */
function plainCounterStore(preloadedState?: { counter: { value: number } }) {
  return configureStore({
    reducer: { counter: counterSlice.reducer },
    preloadedState,
    middleware: (getDefault) => getDefault().concat(actionLogMiddleware({})),
  });
}

function makeCounterStore(handler: Parameters<typeof withActionLogHandler>[0]) {
  return withActionLogHandler(handler, () => plainCounterStore());
}

async function record(sink: LogSink, actions: number, checkpointEvery = 1000) {
  const recorder = new ActionLogRecorder({ sink, checkpointEvery, batchSize: 64 });
  const store = makeCounterStore(recorder);
  for (let i = 0; i < actions; i++) store.dispatch(counterSlice.actions.incremented());
  await recorder.flush();
  return store;
}

describe('ring buffer', () => {
  it('keeps the newest `capacity` entries, numbered without gaps (IndexedDB)', async () => {
    const sink = new IndexedDbLogSink({ capacity: 100, name: dbName() });
    await record(sink, 250);
    const entries = await sink.readAll();
    expect(entries).toHaveLength(100);
    // 1 session entry + 250 actions = seq 1..251; the newest 100 remain.
    expect(entries[0]!.seq).toBe(152);
    expect(entries.at(-1)!.seq).toBe(251);
    expect(entries.every((entry, i) => i === 0 || entry.seq === entries[i - 1]!.seq + 1)).toBe(true);
    expect(entries.at(-1)).toMatchObject({ kind: 'action', type: 'counter/incremented' });
    sink.close();
  });

  it('continues the sequence after a reload and wraps across sessions', async () => {
    const name = dbName();
    const first = new IndexedDbLogSink({ capacity: 50, name });
    await record(first, 30);
    first.close();
    const second = new IndexedDbLogSink({ capacity: 50, name });
    await record(second, 30);
    const entries = await second.readAll();
    expect(entries).toHaveLength(50);
    expect(entries.at(-1)!.seq).toBe(62); // two sessions of 1 + 30 entries
    expect(entries.filter((entry) => entry.kind === 'session')).toHaveLength(1);
    second.close();
  });

  it('two tabs write into one ring buffer: no entry overwritten, each replays in its own store', async () => {
    const name = dbName();
    const tab = () => {
      const sink = new IndexedDbLogSink({ capacity: 1000, name });
      const recorder = new ActionLogRecorder({ sink, batchSize: 1000, flushDelayMs: 60_000 });
      return { sink, recorder, store: makeCounterStore(recorder) };
    };
    const a = tab();
    const b = tab();
    // Their batches alternate in the shared database, as two open tabs' do.
    for (const [t, n] of [
      [a, 5],
      [b, 7],
      [a, 5],
      [b, 3],
    ] as const) {
      for (let i = 0; i < n; i++) t.store.dispatch(counterSlice.actions.incremented());
      await t.recorder.flush();
    }
    const entries = await a.sink.readAll();
    // 2 session starts + 20 actions, numbered 1..22: none written over by the other tab.
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(new Set(entries.map((entry) => entry.sid))).toEqual(new Set([a.recorder.sid, b.recorder.sid]));
    const result = await replayActionLog({ entries }, { createStore: () => plainCounterStore() });
    expect(result.sessions).toBe(2);
    expect(result.divergence).toBeNull();
    // The last entry is tab B's: its store is the final state.
    expect(result.finalState).toEqual({ counter: { value: 10 } });
    a.sink.close();
    b.sink.close();
  });

  it('the memory sink wraps the same way', async () => {
    const sink = new MemoryLogSink(10);
    await record(sink, 25);
    const entries = await sink.readAll();
    expect(entries.map((entry) => entry.seq)).toEqual([17, 18, 19, 20, 21, 22, 23, 24, 25, 26]);
  });

  it('a wrapped log (its session start gone) replays from the first checkpoint it kept', async () => {
    const sink = new MemoryLogSink(60);
    const live = await record(sink, 100, 25);
    const entries = await sink.readAll();
    expect(entries.some((entry) => entry.kind === 'session')).toBe(false);
    const result = await replayActionLog({ entries }, { createStore: (deps) => plainCounterStore(deps.preloadedState as { counter: { value: number } }) });
    expect(result.skippedEntries).toBeGreaterThan(0);
    expect(result.divergence).toBeNull();
    expect(result.finalState).toEqual(live.getState());
    expect(result.finalHash).toBe(result.recordedFinalHash);
  });
});
