/**
 * Replaying a log inside the app (a test build, or a device where QA switched it on): the same
 * engine as `npm run replay`, with stores made by the app's makeStore over a throw-away
 * IndexedDB database per session (deleted afterwards) and redux-persist into memory, so the
 * device's own data and session are never touched and no request leaves the page.
 */
import { clearAllListeners, type UnknownAction } from '@reduxjs/toolkit';
import type { Storage } from 'redux-persist';
import { api } from '../../lib/api/api';
import { openOfflineDb, type OfflineDb } from '../../lib/db/database';
import { replayActionLog, type ReplayResult, type ReplayStoreDeps } from './replay';
import type { ActionLogFile } from './log-format';

/** The parts of the app's makeStore a replay uses (features may not import app/store). */
export type MakeStoreLike = (
  preloadedState: never,
  options: {
    persist?: Storage | boolean;
    extra?: {
      db?: OfflineDb;
      api?: { baseUrl?: string; fetchFn?: typeof fetch; credentials?: () => null };
      now?: () => number;
      random?: () => number;
      refreshAuth?: () => Promise<boolean>;
    };
  },
) => { dispatch(action: UnknownAction): unknown; getState(): unknown };

/** Who may import a log: development builds, or a device where localStorage qa.replayImport = '1'. */
export function isReplayImportEnabled(): boolean {
  if (process.env.NODE_ENV !== 'production') return true;
  try {
    return globalThis.localStorage?.getItem('qa.replayImport') === '1';
  } catch {
    return false;
  }
}

const DELETE_DELAY_MS = 2000;

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    getItem: async (key: string) => data.get(key) ?? null,
    setItem: async (key: string, value: string) => void data.set(key, value),
    removeItem: async (key: string) => void data.delete(key),
  };
}

export async function replayInApp(file: Pick<ActionLogFile, 'entries'>, makeStore: MakeStoreLike): Promise<ReplayResult> {
  const databases = new Map<object, OfflineDb>();
  return replayActionLog(file, {
    createStore(deps: ReplayStoreDeps) {
      const db = openOfflineDb({ name: deps.dbName });
      const store = makeStore(deps.preloadedState as never, {
        persist: deps.persist ? memoryStorage() : false,
        extra: { db, api: { baseUrl: '', fetchFn: deps.fetchFn, credentials: () => null }, now: deps.now, random: deps.random, refreshAuth: async () => false },
      });
      databases.set(store, db);
      return store;
    },
    async teardown(store) {
      // Ends every listener's running effect and RTK Query's timers, then drops the database.
      store.dispatch(clearAllListeners());
      store.dispatch(api.util.resetApiState());
      const db = databases.get(store);
      // A thunk an effect started (the season chain) may still be finishing its last read;
      // the throw-away database goes once it is done.
      if (db) setTimeout(() => void db.delete().catch(() => undefined), DELETE_DELAY_MS);
    },
  });
}
