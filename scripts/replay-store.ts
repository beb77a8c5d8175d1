/**
 * The store a replay runs in: the app's own makeStore (same reducers, middleware and listeners)
 * with replay stand-ins for the outside world — the network answered from the log, a fresh
 * offline database per session (in fake-indexeddb's memory), the log's clock and a fixed
 * random sequence, no credentials. Shared by `npm run replay`, the fixture tests and the bench.
 */
import { IDBKeyRange as FakeIDBKeyRange, indexedDB as fakeIndexedDB } from 'fake-indexeddb';
import { makeStore, type MakeStoreOptions } from '../src/client/app/store';
import { api } from '../src/client/lib/api';
import { openOfflineDb } from '../src/client/lib/db';
import { syncStopped } from '../src/client/features/sync';
import type { ReplayStoreDeps } from '../src/client/features/qa';
import type { Storage } from 'redux-persist';

export type ReplayAppStore = ReturnType<typeof makeStore>;

/** redux-persist storage in memory: the replay restores only what the log's REHYDRATE carries. */
export function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    getItem: async (key: string) => data.get(key) ?? null,
    setItem: async (key: string, value: string) => void data.set(key, value),
    removeItem: async (key: string) => void data.delete(key),
  };
}

export interface ReplayStoreOptions {
  /**
   * RTK's development checks (serialisable/immutable state), on by default as in any test store.
   * Off where a replay runs beside other work (the e2e scenarios): on a large season they only
   * print "took N ms" warnings; the reducers are the same either way.
   */
  devChecks?: boolean;
  /** A root reducer other than the app's (tests proving that a changed reducer is caught). */
  rootReducer?: MakeStoreOptions['rootReducer'];
}

export function createReplayStore(deps: ReplayStoreDeps, options: ReplayStoreOptions = {}): ReplayAppStore {
  return makeStore(deps.preloadedState as Parameters<typeof makeStore>[0], {
    persist: deps.persist ? memoryStorage() : false,
    ...(options.devChecks === undefined ? {} : { devChecks: options.devChecks }),
    ...(options.rootReducer ? { rootReducer: options.rootReducer } : {}),
    extra: {
      // Passed explicitly: Dexie reads the global IndexedDB when it is first loaded, which in a
      // test runner may be before any polyfill is installed.
      db: openOfflineDb({ name: deps.dbName, indexedDB: fakeIndexedDB, IDBKeyRange: FakeIDBKeyRange }),
      api: { baseUrl: 'http://replay.invalid', fetchFn: deps.fetchFn, credentials: () => null },
      now: deps.now,
      random: deps.random,
      refreshAuth: async () => false,
    },
  });
}

/**
 * Ends the listeners' loops and RTK Query's cache timers. The session's database stays open:
 * an effect still finishing (a drain's last summary read) must not fail on a closed database,
 * and in Node it is an in-memory fake-indexeddb database that goes with the process.
 */
export async function teardownReplayStore(store: ReplayAppStore): Promise<void> {
  store.dispatch(syncStopped());
  store.dispatch(api.util.resetApiState());
  await new Promise((resolve) => setTimeout(resolve, 0));
}
