/**
 * @jest-environment node
 *
 * What the action log leaves off the dispatch path: a dispatch notes the action and the state it
 * left; the state's hash is taken when the batch is written, and a batch that falls due waits for
 * the page to be idle. The hashes are those the states had when dispatched.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { configureStore, createSlice } from '@reduxjs/toolkit';
import { ActionLogRecorder, actionLogMiddleware, MemoryLogSink, StateHasher, withActionLogHandler } from '../../../src/client/features/qa';

const counterSlice = createSlice({
  name: 'counter',
  initialState: { value: 0, names: [] as string[] },
  reducers: {
    incremented: (state) => {
      state.value += 1;
    },
    named: (state, action: { payload: string }) => {
      state.names.push(action.payload);
    },
  },
});

function counterStore(recorder: ActionLogRecorder) {
  return withActionLogHandler(recorder, () =>
    configureStore({ reducer: { counter: counterSlice.reducer }, middleware: (getDefault) => getDefault().concat(actionLogMiddleware({})) }),
  );
}

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
  delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
});

describe('the action log off the dispatch path', () => {
  it('hashes no state while dispatching; the written hashes are those of the states each action left', async () => {
    const hashState = jest.spyOn(StateHasher.prototype, 'hashState');
    const sink = new MemoryLogSink(1000);
    const recorder = new ActionLogRecorder({ sink, flushDelayMs: 60_000, checkpointEvery: 2 });
    const store = counterStore(recorder);
    const states: unknown[] = [];
    for (const name of ['a', 'b', 'c']) {
      store.dispatch(counterSlice.actions.named(name));
      store.dispatch(counterSlice.actions.incremented());
      states.push(store.getState());
    }
    expect(hashState).not.toHaveBeenCalled();

    await recorder.flush();
    const entries = await sink.readAll();
    const actions = entries.filter((entry) => entry.kind === 'action');
    expect(actions).toHaveLength(6);
    const fresh = new StateHasher();
    // Every second action ends a round: its hash is that of the state the round left.
    expect([actions[1]!.hash, actions[3]!.hash, actions[5]!.hash]).toEqual(states.map((state) => fresh.hashState(state)));
    expect(new Set(actions.map((entry) => entry.hash)).size).toBe(6);
    const checkpoints = entries.filter((entry) => entry.kind === 'checkpoint');
    expect(checkpoints.map((entry) => entry.hash)).toEqual([actions[1]!.hash, actions[3]!.hash, actions[5]!.hash]);
  });

  it('writes a due batch when the page is idle, not while it is busy', async () => {
    jest.useFakeTimers();
    const idle: Array<() => void> = [];
    (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = (task: () => void) => idle.push(task);
    const sink = new MemoryLogSink(1000);
    const recorder = new ActionLogRecorder({ sink, flushDelayMs: 1000 });
    const store = counterStore(recorder);
    store.dispatch(counterSlice.actions.incremented());

    await jest.advanceTimersByTimeAsync(5000);
    expect(await sink.readAll()).toHaveLength(0);
    expect(idle).toHaveLength(1);

    idle.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect((await sink.readAll()).map((entry) => entry.kind)).toEqual(['session', 'action']);
  });
});
