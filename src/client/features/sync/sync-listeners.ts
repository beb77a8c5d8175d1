/**
 * Side effects of sync, as listeners (`addXListeners(startAppListening)`, docs/architecture.md, Layers).
 *
 * syncStarted (dispatched once by main.tsx) wires: browser online/offline events, the GET
 * /api/Test probe every REACHABILITY_POLL_MS (on a later visit the first one once the first
 * screen is shown), outbox change notifications (this tab and others),
 * storage error and schema-upgrade notices, navigator.storage.persist(), and a flush of the
 * persisted session state when the page is hidden. drainRequested runs one drain at a time
 * (Web Locks across tabs when the browser has them, a flag within the tab), then applies the
 * outcome: success → last sync time; network/5xx → back-off timer; 401 → held for sign-in.
 */
import { createAction, type UnknownAction } from '@reduxjs/toolkit';
import { REACHABILITY_POLL_MS } from '../../../common/constants';
import { sessionRenewed } from '../../lib/api/auth-events';
import { testApi } from '../../lib/api/test-endpoint';
import { localIdsRemapped } from '../../lib/db/actions';
import { onStorageError, onVersionChange, requestPersistentStorage, type OfflineDb } from '../../lib/db/database';
import { onIdentityChange } from '../../lib/db/identity';
import { onOutboxChange, summarizeOutbox } from '../../lib/db/outbox';
import type { AppStartListening } from '../../app/store-types';
import { backoffDelay } from './backoff';
import { browserOnlineChanged, reachabilityProbed, selectIsOnline } from './connectivity-slice';
import { drainOnce } from './drain';
import {
  drainBackedOff,
  drainHeldForSignIn,
  drainStarted,
  drainStopped,
  drainSucceeded,
  outboxSummaryLoaded,
  reloadRequired,
  storageErrorReported,
  toAttentionItem,
} from './sync-slice';
import { rtkQueryTransport } from './transport';

export const syncStarted = createAction('sync/started');
export const syncStopped = createAction('sync/stopped');
/** Ask for a drain; `force` ignores a running back-off (the server just came back). */
export const drainRequested = createAction<{ force?: boolean } | undefined>('sync/drainRequested');
export const outboxChanged = createAction('sync/outboxChanged');
export const reachabilityProbeRequested = createAction('sync/reachabilityProbeRequested');

const DRAIN_LOCK = 'moj-travnik-outbox-drain';
/** The longest a later visit's first probe waits for the first screen's data (then it goes anyway). */
const FIRST_PROBE_WAIT_MS = 3000;
/** Coalesces bursts of outbox notifications (one per acknowledged batch) into one summary read. */
const SUMMARY_DEBOUNCE_MS = 25;

async function refreshSummary(db: OfflineDb, dispatch: (action: UnknownAction) => unknown): Promise<number> {
  const summary = await summarizeOutbox(db);
  dispatch(outboxSummaryLoaded({ pendingCount: summary.pending, attention: summary.attention.map(toAttentionItem) }));
  return summary.pending;
}

export interface SyncListenerOptions {
  /**
   * The action that puts the first screen's data on screen. On a later visit of the installed app
   * (`installedVisit`) the first reachability probe waits for it: the probe's answer, and the drain
   * and re-renders it sets off, would compete with the device copy on the phone's one busy thread.
   * Queued edits do not wait: an outbox change asks for their drain itself.
   */
  firstScreenShown?: (action: UnknownAction) => boolean;
}

export function addSyncListeners(startAppListening: AppStartListening, { firstScreenShown }: SyncListenerOptions = {}): void {
  // Per store: one drain at a time within this tab, and one pending back-off timer.
  let draining = false;
  let again = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  startAppListening({
    actionCreator: syncStarted,
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      const { db, window: win } = listenerApi.extra;
      const dispatch = listenerApi.dispatch;
      const cleanups: Array<() => void> = [
        onOutboxChange(db, () => dispatch(outboxChanged())),
        // A delivery is announced once, after its acknowledgement committed (this tab's, or another
        // tab's found on the device): slices holding ids follow it in the same render as the router.
        onIdentityChange(db, (learned) => dispatch(localIdsRemapped(learned))),
        onStorageError(db, (error) => dispatch(storageErrorReported({ kind: error.kind, at: new Date(listenerApi.extra.now()).toISOString() }))),
        onVersionChange(db, () => dispatch(reloadRequired())),
      ];
      if (win) {
        const online = () => dispatch(browserOnlineChanged(true));
        const offline = () => dispatch(browserOnlineChanged(false));
        // The outbox is committed to IndexedDB before "saved"; the small persisted session state
        // is throttled by redux-persist and must be written now, as the page may be gone next.
        const hidden = () => void listenerApi.extra.flushPersist();
        win.addEventListener('online', online);
        win.addEventListener('offline', offline);
        win.addEventListener('pagehide', hidden);
        win.addEventListener('visibilitychange', hidden);
        cleanups.push(() => {
          win.removeEventListener('online', online);
          win.removeEventListener('offline', offline);
          win.removeEventListener('pagehide', hidden);
          win.removeEventListener('visibilitychange', hidden);
        });
        if (win.navigator?.onLine === false) dispatch(browserOnlineChanged(false));
      }
      void requestPersistentStorage();
      dispatch(outboxChanged());
      const poll = listenerApi.fork(async (forkApi) => {
        if (listenerApi.extra.installedVisit && firstScreenShown) await forkApi.pause(listenerApi.condition(firstScreenShown, FIRST_PROBE_WAIT_MS));
        for (;;) {
          dispatch(reachabilityProbeRequested());
          await forkApi.delay(REACHABILITY_POLL_MS);
        }
      });
      try {
        await listenerApi.condition(syncStopped.match);
      } finally {
        poll.cancel();
        clearTimeout(retryTimer);
        cleanups.forEach((cleanup) => cleanup());
      }
    },
  });

  startAppListening({
    actionCreator: reachabilityProbeRequested,
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      const wasReachable = listenerApi.getState().connectivity.serverReachable;
      const request = listenerApi.dispatch(testApi.endpoints.reachability.initiate(undefined, { subscribe: false, forceRefetch: true }));
      const result = await request;
      const reachable = !result.error && result.isSuccess;
      listenerApi.dispatch(reachabilityProbed({ reachable, at: new Date(listenerApi.extra.now()).toISOString() }));
      if (reachable) listenerApi.dispatch(drainRequested({ force: wasReachable !== true }));
    },
  });

  startAppListening({
    actionCreator: browserOnlineChanged,
    effect: (action, listenerApi) => {
      if (action.payload) listenerApi.dispatch(reachabilityProbeRequested());
    },
  });

  startAppListening({
    actionCreator: sessionRenewed,
    effect: (_action, listenerApi) => {
      listenerApi.dispatch(drainRequested({ force: true }));
    },
  });

  startAppListening({
    actionCreator: outboxChanged,
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      await listenerApi.delay(SUMMARY_DEBOUNCE_MS);
      const pending = await refreshSummary(listenerApi.extra.db, listenerApi.dispatch);
      if (pending > 0) listenerApi.dispatch(drainRequested());
    },
  });

  startAppListening({
    actionCreator: drainRequested,
    effect: async (action, listenerApi) => {
      const { extra, dispatch } = listenerApi;
      const force = action.payload?.force === true;
      if (draining) {
        again = true;
        return;
      }
      const state = listenerApi.getState();
      if (!selectIsOnline(state)) return;
      if (state.sync.authRequired && !force) return;
      if (!force && state.sync.retryAt !== null && state.sync.retryAt > extra.now()) return;
      draining = true;
      clearTimeout(retryTimer);
      try {
        do {
          again = false;
          const pass = async () => {
            dispatch(drainStarted());
            const outcome = await drainOnce({
              db: extra.db,
              transport: rtkQueryTransport(dispatch),
              refreshAuth: extra.refreshAuth,
            });
            switch (outcome.kind) {
              case 'done':
                dispatch(drainSucceeded({ at: new Date(extra.now()).toISOString() }));
                break;
              case 'transient': {
                const failures = listenerApi.getState().sync.failures + 1;
                // The server said how long to wait (429/503 with Retry-After): that, not our guess.
                const delay = outcome.error.retryAfterMs ?? backoffDelay(failures, extra.random);
                dispatch(drainBackedOff({ retryAt: extra.now() + delay }));
                retryTimer = setTimeout(() => dispatch(drainRequested()), delay);
                again = false;
                break;
              }
              case 'auth':
                dispatch(drainHeldForSignIn());
                again = false;
                break;
              case 'aborted':
                dispatch(drainStopped());
                break;
            }
          };
          if (extra.locks) {
            // Another tab draining the same outbox: skip; its acknowledgements reach us by broadcast.
            await extra.locks.request(DRAIN_LOCK, { ifAvailable: true }, async (lock) => (lock ? pass() : undefined));
          } else {
            await pass();
          }
        } while (again && selectIsOnline(listenerApi.getState()));
      } finally {
        draining = false;
        // The mirror follows even when no change notification is wired (tests, bench).
        await refreshSummary(extra.db, dispatch);
      }
    },
  });
}
