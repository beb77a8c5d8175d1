/**
 * Types features may import from app/ (eslint allows hooks.ts and store-types.ts only): the
 * store's extra argument (non-serialisable handles stay out of Redux state, docs/architecture.md, Layers),
 * the typed listener start function and the typed async thunk creator. Type-only imports of the
 * store, so no runtime cycle exists.
 */
import { createAsyncThunk, type TypedStartListening } from '@reduxjs/toolkit';
import type { ApiDeps } from '../lib/api/base-query';
import type { OfflineDb } from '../lib/db/database';
import type { AppDispatch, RootState } from './store';

export interface AppExtra {
  api: ApiDeps;
  db: OfflineDb;
  /** Asks the auth layer to renew the session; true when new credentials are in place. */
  refreshAuth: () => Promise<boolean>;
  /** Clock and randomness, replaceable in tests (back-off jitter). */
  now: () => number;
  random: () => number;
  /** Writes redux-persist state now (page hide); a no-op when persistence is off. */
  flushPersist: () => Promise<void>;
  /** Window-like event target for online/offline/pagehide; absent in Node (bench). */
  window?: Pick<Window, 'addEventListener' | 'removeEventListener'> & { navigator?: { onLine?: boolean } };
  /** Web Locks, so only one tab drains at a time; absent → an in-tab mutex only. */
  locks?: LockManager;
  /**
   * A later visit of the installed app (its service worker serves the page): the device holds what
   * the last visit read, so the season is shown from there before the server is asked (and before
   * the first reachability probe). Absent on a first visit and outside the browser: the server is
   * asked at once.
   */
  installedVisit?: boolean;
}

export type AppStartListening = TypedStartListening<RootState, AppDispatch, AppExtra>;

export const createAppAsyncThunk = createAsyncThunk.withTypes<{
  state: RootState;
  dispatch: AppDispatch;
  extra: AppExtra;
  rejectValue: string;
}>();

export type { AppDispatch, RootState };
