/**
 * Work that waits for the first screen (a first visit's service worker install, main.tsx) starts
 * once the season is loaded or failed, or after the longest wait, not before.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { configureStore } from '@reduxjs/toolkit';
import { whenFirstScreenShown } from '../../src/client/app/bootstrap/first-screen';
import { seasonLoaded, seasonLoadFailed, seasonLoadStarted, seasonSlice } from '../../src/client/features/season';

function seasonStore() {
  return configureStore({ reducer: { season: seasonSlice.reducer } });
}

/** Whether the promise has settled once the pending callbacks have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

afterEach(() => {
  jest.useRealTimers();
});

describe('whenFirstScreenShown', () => {
  it('waits while the season loads and resolves when it is loaded', async () => {
    const store = seasonStore();
    const shown = whenFirstScreenShown(store, 60_000);
    store.dispatch(seasonLoadStarted());
    expect(await settled(shown)).toBe(false);
    store.dispatch(seasonLoaded({ ...store.getState().season, source: 'server' }));
    expect(await settled(shown)).toBe(true);
  });

  it('resolves when the load failed (the screen says so), and at once when the season is already there', async () => {
    const store = seasonStore();
    const shown = whenFirstScreenShown(store, 60_000);
    store.dispatch(seasonLoadFailed({ message: 'x' }));
    expect(await settled(shown)).toBe(true);
    expect(await settled(whenFirstScreenShown(store, 60_000))).toBe(true);
  });

  it('resolves after the longest wait when the season never comes', async () => {
    jest.useFakeTimers();
    const store = seasonStore();
    const shown = whenFirstScreenShown(store, 10_000);
    jest.advanceTimersByTime(9_999);
    expect(await settled(shown)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(shown)).toBe(true);
  });
});
