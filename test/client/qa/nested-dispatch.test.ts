/**
 * An action dispatched while another is being dispatched — by a store subscriber, which Redux
 * calls after the reducer and before the outer dispatch returns — is logged after the action it
 * reacted to, and each entry's hash is the state its own reducer left, so the log replays. The
 * app's sign-in session starts that way (it follows the config through store.subscribe): a
 * returning user's identity is restored inside the dispatch of the config.
 */
import { expect, test } from '@jest/globals';
import { configureStore, createSlice, type Store } from '@reduxjs/toolkit';
import { ActionLogRecorder, MemoryLogSink, actionLogMiddleware, replayActionLog, withActionLogHandler } from '../../../src/client/features/qa';

const start = createSlice({
  name: 'start',
  initialState: { config: false, user: false, season: false },
  reducers: {
    configArrived: (state) => void (state.config = true),
    identityRestored: (state) => void (state.user = true),
    seasonRequested: (state) => void (state.season = true),
  },
});
const { configArrived, identityRestored, seasonRequested } = start.actions;

/** A store whose subscriber restores the identity once the config is there, and whose next subscriber asks for the season then. */
function makeStartStore(): Store<ReturnType<typeof start.reducer>> {
  const store = configureStore({ reducer: start.reducer, middleware: (getDefault) => getDefault().concat(actionLogMiddleware({})) });
  store.subscribe(() => {
    if (store.getState().config && !store.getState().user) store.dispatch(identityRestored());
  });
  store.subscribe(() => {
    if (store.getState().user && !store.getState().season) store.dispatch(seasonRequested());
  });
  return store;
}

test('dispatches from store subscribers are logged after the action they reacted to, with the state each left; the log replays', async () => {
  const sink = new MemoryLogSink(100);
  const recorder = new ActionLogRecorder({ sink });
  const store = withActionLogHandler(recorder, makeStartStore);
  store.dispatch(configArrived());
  await recorder.flush();
  const entries = await sink.readAll();
  const actions = entries.flatMap((entry) => (entry.kind === 'action' ? [entry] : []));
  expect(actions.map((entry) => entry.type)).toEqual(['start/configArrived', 'start/identityRestored', 'start/seasonRequested']);
  // Three different states, one per reducer (a hash taken after the subscribers would repeat the last).
  expect(new Set(actions.map((entry) => entry.hash)).size).toBe(3);

  const result = await replayActionLog({ entries }, { createStore: makeStartStore });
  expect(result.divergence).toBeNull();
  expect(result.finalState).toEqual({ config: true, user: true, season: true });
});
