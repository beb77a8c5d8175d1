/**
 * makeStore builds a fresh store; nothing is created on import, so tests build their own
 * (`makeStore(preloadedState)`). The app's single store is made in main.tsx with
 * `makeStore(undefined, { browser: true })`.
 *
 * Storage split (docs/architecture.md, Layers):
 * - Offline data and the outbox live in Dexie (lib/db): written before the UI says "saved",
 *   strict durability, the source of truth for sync.
 * - redux-persist (localforage) keeps only small session state, listed in PERSISTED_STATE. Never
 *   the RTK Query cache, never the outbox (its throttled writes could lose the last edit when a
 *   tab closes). Its `timeout` is off: a slow rehydrate must not reset the state and then persist
 *   the empty state over the real one; the state is also flushed when the page is hidden.
 *
 * Non-serialisable handles (database, fetch, locks) travel as the thunk/listener extra argument.
 */
import { configureStore, createListenerMiddleware, isAnyOf, isPlain, type Reducer, type UnknownAction } from '@reduxjs/toolkit';
import localforage from 'localforage';
import { createTransform, FLUSH, PAUSE, PERSIST, persistReducer, persistStore, PURGE, REGISTER, REHYDRATE, type Persistor, type Storage } from 'redux-persist';
import autoMergeLevel2Import from 'redux-persist/lib/stateReconciler/autoMergeLevel2';
import { slSync } from '../../common/i18n/sl';
import { api } from '../lib/api';
import { refreshAuthDefault } from '../lib/api/credentials';
import { openOfflineDb, storeRowsUnder, type OfflineDb } from '../lib/db/database';
import { noticeShown } from '../features/notifications';
import { addSyncListeners, syncStarted, reachabilityProbed, storageErrorReported } from '../features/sync';
import { farmerChosen, loadSeason, seasonLoaded, seasonLoadFailed } from '../features/season';
import { actionLogMiddleware } from '../features/qa';
import { addHistoryAheadListener } from '../features/results';
import { rootReducer, type RootState } from './root-reducer';
import type { AppExtra, AppStartListening } from './store-types';

// A CommonJS module: bundlers hand over the function, Node's ESM loader the module object.
const autoMergeLevel2 = ((autoMergeLevel2Import as unknown as { default?: typeof autoMergeLevel2Import }).default ??
  autoMergeLevel2Import) as typeof autoMergeLevel2Import;

/** Slices (and their keys) that survive a reload through redux-persist. Add one line per slice. */
const PERSISTED_STATE: Partial<Record<keyof RootState, readonly string[]>> = {
  sync: ['lastSyncAt'],
};

export interface MakeStoreOptions {
  /** Handles for thunks and listeners; defaults are the browser's (or inert ones in Node). */
  extra?: Partial<AppExtra>;
  /** redux-persist storage; `true` = localforage. Off by default so tests share nothing. */
  persist?: Storage | boolean;
  /** The browser app: persistence, window events, Web Locks, and sync started at once. */
  browser?: boolean;
  /**
   * RTK's development checks (serialisable/immutable state). On by default outside production
   * builds; the bench turns them off to measure what the production build runs.
   */
  devChecks?: boolean;
  /** The root reducer (default the app's); the QA replay tests swap in a deliberately changed one. */
  rootReducer?: Reducer<RootState, UnknownAction>;
}

function persistedReducer(storage: Storage, root: Reducer<RootState, UnknownAction>): Reducer<RootState, UnknownAction> {
  const keys = Object.keys(PERSISTED_STATE) as Array<keyof RootState>;
  const pick = createTransform(
    (inbound: Record<string, unknown>, key) => {
      const allowed = PERSISTED_STATE[key as keyof RootState] ?? [];
      return Object.fromEntries(allowed.filter((k) => k in inbound).map((k) => [k, inbound[k]]));
    },
    (outbound: Record<string, unknown>) => outbound,
    { whitelist: keys as string[] },
  );
  return persistReducer(
    { key: 'moj-travnik', version: 1, storage, whitelist: keys as string[], transforms: [pick], stateReconciler: autoMergeLevel2, timeout: 0 },
    root,
  ) as unknown as Reducer<RootState, UnknownAction>;
}

export function makeStore(preloadedState?: Partial<RootState>, options: MakeStoreOptions = {}) {
  const browser = options.browser === true;
  const persistStorage: Storage | null =
    options.persist === true || (browser && options.persist === undefined) ? (localforage as unknown as Storage) : options.persist || null;
  let persistor: Persistor | null = null;
  const extra: AppExtra = {
    api: {},
    db: options.extra?.db ?? openOfflineDb(),
    refreshAuth: refreshAuthDefault,
    now: () => Date.now(),
    random: Math.random,
    flushPersist: async () => {
      await persistor?.flush();
    },
    ...(browser && typeof window !== 'undefined' ? { window, locks: navigator.locks } : {}),
    ...options.extra,
  };
  const listener = createListenerMiddleware({ extra });
  const store = configureStore({
    reducer: persistStorage ? persistedReducer(persistStorage, options.rootReducer ?? rootReducer) : (options.rootReducer ?? rootReducer),
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) =>
      getDefault({
        thunk: { extraArgument: extra },
        immutableCheck: options.devChecks !== false,
        serializableCheck: options.devChecks !== false && {
          ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER],
          // Multipart bodies (FormData) pass through RTK Query in meta.arg; downloaded files
          // (Blob) are cached in memory by the attachment query and never persisted.
          ignoredActionPaths: ['meta.arg', 'meta.baseQueryMeta'],
          isSerializable: (value: unknown) => isPlain(value) || (typeof Blob !== 'undefined' && value instanceof Blob),
          ignoredPaths: [api.reducerPath],
        },
      })
        .prepend(listener.middleware)
        .concat(api.middleware, actionLogMiddleware(extra)), // QA action log; last, so it logs what the reducers see
  });
  const startAppListening = listener.startListening.withTypes<RootState, typeof store.dispatch, AppExtra>() as AppStartListening;
  addSearchProfileListener(startAppListening, extra.db, store.getState());
  addSyncListeners(startAppListening, { firstScreenShown: isAnyOf(seasonLoaded, seasonLoadFailed) });
  addAppNoticeListeners(startAppListening);
  addSeasonLoadListeners(startAppListening);
  addHistoryAheadListener(startAppListening, seasonLoaded);
  if (persistStorage) persistor = persistStore(store);
  if (browser) store.dispatch(syncStarted());
  return Object.assign(store, { persistor, extra });
}

/**
 * The device stores rows under the search profile of the config the app runs with (lib/db,
 * FeatureRow.profileId): set before anything stores a row, and again when another config arrives.
 * First of the listeners, so a season load the same config starts stores its rows under it.
 */
function addSearchProfileListener(startAppListening: AppStartListening, db: OfflineDb, initial: RootState): void {
  const profileOf = (state: RootState) => state.config.value?.searchProfileId;
  const given = profileOf(initial);
  if (given !== undefined) storeRowsUnder(db, given);
  startAppListening({
    predicate: (_action, current, previous) => profileOf(current) !== profileOf(previous) && profileOf(current) !== undefined,
    effect: (_action, listenerApi) => storeRowsUnder(listenerApi.extra.db, profileOf(listenerApi.getState())!),
  });
}

/** Cross-feature glue: storage errors of the offline database become an error notice. */
function addAppNoticeListeners(startAppListening: AppStartListening): void {
  startAppListening({
    actionCreator: storageErrorReported,
    effect: (action, listenerApi) => {
      const message = action.payload.kind === 'quota' ? slSync.sync.quotaExceeded : slSync.sync.storageFailed;
      listenerApi.dispatch(noticeShown({ id: 'storage-error', kind: 'error', message }));
    },
  });
}

/**
 * Cross-feature glue: the season loads (the loading chain) once both the config and the signed-in
 * user's e-mail are known, again when an editor chooses a farmer, and again when the server comes
 * back after a load that had to read the device.
 */
function addSeasonLoadListeners(startAppListening: AppStartListening): void {
  const inputsOf = (state: RootState) => ({ email: state.auth.user?.email ?? null, config: state.config.value });
  startAppListening({
    predicate: (action, current, previous) => {
      const now = inputsOf(current);
      const before = inputsOf(previous);
      if (now.email !== before.email || now.config !== before.config) return Boolean(now.email && now.config);
      if (farmerChosen.match(action)) return true;
      // Back after being unreachable: what was shown may have changed on the server meanwhile
      // (an editor archived a path), so reload; at start-up (never probed) only after a device load.
      if (reachabilityProbed.match(action) && action.payload.reachable && previous.connectivity.serverReachable !== true) {
        return previous.connectivity.serverReachable === false || current.season.source === 'device';
      }
      return false;
    },
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      const state = listenerApi.getState();
      const { email, config } = inputsOf(state);
      if (!email || !config) return;
      await listenerApi.dispatch(loadSeason({ email, farmerId: state.season.farmerId }));
    },
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
export type { RootState };
