/**
 * @jest-environment node
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Online/offline: browser events plus GET /api/Test every REACHABILITY_POLL_MS; 200 means
 * reachable. The "browser" is an EventTarget standing in for window (the events are what matters).
 * On a later visit of the installed app the first probe waits for the first screen's data.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { REACHABILITY_POLL_MS } from '../../../src/common/constants';
import { seasonLoaded, seasonLoadFailed } from '../../../src/client/features/season';
import { reachabilityProbeRequested, selectIsOnline, selectServerReachable, syncStarted, syncStopped } from '../../../src/client/features/sync';
import { makeTestStore, openTestDb, response, settleStores, until } from './helpers';

// A budget for a loaded shared machine (several suites, real IndexedDB emulation, a real server); nothing here asserts time.
jest.setTimeout(30_000);

afterEach(settleStores);

function fakeWindow(onLine = true) {
  const target = new EventTarget();
  return Object.assign(target, { navigator: { onLine } }) as unknown as Window & { navigator: { onLine: boolean } };
}

describe('connectivity', () => {
  it('probes GET /api/Test: 200 is reachable, 5xx and network errors are not', async () => {
    let answer: () => Promise<Response> = async () => response({ body: 'ok' });
    const urls: string[] = [];
    const store = makeTestStore(openTestDb(), async (input) => {
      urls.push(String(input));
      return answer();
    });
    store.dispatch(reachabilityProbeRequested());
    await until(() => selectServerReachable(store.getState()) === true, 'reachable');
    expect(urls).toEqual(['http://server.test/api/Test']);
    expect(selectIsOnline(store.getState())).toBe(true);

    answer = async () => response({ status: 503, body: { status: 503, message: 'Service Unavailable' } });
    store.dispatch(reachabilityProbeRequested());
    await until(() => selectServerReachable(store.getState()) === false, '503 → unreachable');
    expect(selectIsOnline(store.getState())).toBe(false);

    answer = async () => response({ body: 'ok' });
    store.dispatch(reachabilityProbeRequested());
    await until(() => selectIsOnline(store.getState()), 'back');

    answer = async () => {
      throw new TypeError('Failed to fetch');
    };
    store.dispatch(reachabilityProbeRequested());
    await until(() => selectServerReachable(store.getState()) === false, 'network error → unreachable');
  });

  it('follows the browser’s offline and online events, probing again when back online', async () => {
    const win = fakeWindow(true);
    let probes = 0;
    const store = makeTestStore(
      openTestDb(),
      async () => {
        probes++;
        return response({ body: 'ok' });
      },
      { window: win },
    );
    store.dispatch(syncStarted());
    await until(() => selectIsOnline(store.getState()), 'first probe');
    expect(probes).toBe(1);

    win.dispatchEvent(new Event('offline'));
    expect(selectIsOnline(store.getState())).toBe(false);
    expect(store.getState().connectivity.browserOnline).toBe(false);

    win.dispatchEvent(new Event('online'));
    await until(() => selectIsOnline(store.getState()), 'online again after a fresh probe');
    expect(probes).toBe(2);
    store.dispatch(syncStopped());
  });

  it('starts offline when the browser says so', async () => {
    const store = makeTestStore(openTestDb(), async () => response({ body: 'ok' }), { window: fakeWindow(false) });
    store.dispatch(syncStarted());
    expect(store.getState().connectivity.browserOnline).toBe(false);
    expect(selectIsOnline(store.getState())).toBe(false);
    store.dispatch(syncStopped());
  });

  it('probes again every REACHABILITY_POLL_MS (10 s) until sync stops', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      let probes = 0;
      const store = makeTestStore(openTestDb(), async () => {
        probes++;
        return response({ body: 'ok' });
      });
      store.dispatch(syncStarted());
      await jest.advanceTimersByTimeAsync(0);
      expect(probes).toBe(1);
      await jest.advanceTimersByTimeAsync(REACHABILITY_POLL_MS - 1);
      expect(probes).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(probes).toBe(2);
      await jest.advanceTimersByTimeAsync(REACHABILITY_POLL_MS * 3);
      expect(probes).toBe(5);
      store.dispatch(syncStopped());
      await jest.advanceTimersByTimeAsync(REACHABILITY_POLL_MS * 3);
      expect(probes).toBe(5);
    } finally {
      jest.useRealTimers();
    }
  });

  it('on a later visit of the installed app, probes first once the first screen is shown, or after 3 s', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      let probes = 0;
      const fetchFn = async () => {
        probes++;
        return response({ body: 'ok' });
      };
      const store = makeTestStore(openTestDb(), fetchFn, { installedVisit: true });
      store.dispatch(syncStarted());
      await jest.advanceTimersByTimeAsync(1000);
      expect(probes).toBe(0);
      store.dispatch(seasonLoaded({ ...store.getState().season, source: 'device' }));
      await jest.advanceTimersByTimeAsync(0);
      expect(probes).toBe(1);
      store.dispatch(syncStopped());

      // A first screen that never comes (the sign-in page, a failing device) holds the probe 3 s at most.
      const waiting = makeTestStore(openTestDb(), fetchFn, { installedVisit: true });
      waiting.dispatch(syncStarted());
      await jest.advanceTimersByTimeAsync(2999);
      expect(probes).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(probes).toBe(2);
      waiting.dispatch(seasonLoadFailed({ message: 'x' }));
      await jest.advanceTimersByTimeAsync(0);
      expect(probes).toBe(2);
      waiting.dispatch(syncStopped());
    } finally {
      jest.useRealTimers();
    }
  });
});
