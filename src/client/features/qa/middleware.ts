/**
 * The action-log middleware, registered last in makeStore's chain (app/store.ts, one line) so it
 * sees exactly the actions the reducers see.
 *
 * Which handler a store gets is decided when the store is made:
 * - inside `withActionLogHandler(handler, make)`: that handler (fixtures, tests, the replay gate);
 * - otherwise, in the browser app (window + IndexedDB, not under jest): the persisted ring buffer
 *   in IndexedDB (action-log-db.ts), and the api layer's fetch wrapped so HTTP exchanges are
 *   logged too;
 * - otherwise (tests, Node scripts): nothing — the middleware passes actions straight on.
 */
import type { Middleware } from '@reduxjs/toolkit';
import type { ApiDeps } from '../../lib/api/base-query';
import { ActionLogRecorder, type ActionLogHandler } from './action-log';
import { IndexedDbLogSink } from './action-log-db';
import { DEFAULT_LOG_CAPACITY } from './log-format';
import { safeLocalStorage } from '../../lib/local-storage';

let nextHandler: ActionLogHandler | null = null;
let activeRecorder: ActionLogRecorder | null = null;

/** Makes a store (via `make`) whose action-log middleware uses `handler`. */
export function withActionLogHandler<T>(handler: ActionLogHandler, make: () => T): T {
  const previous = nextHandler;
  nextHandler = handler;
  try {
    return make();
  } finally {
    nextHandler = previous;
  }
}

/** The browser app's recorder (for the export button), or null when none runs. */
export function getActiveActionLog(): ActionLogRecorder | null {
  return activeRecorder;
}

/** Ring-buffer size, overridable per device for a QA session: localStorage 'qa.actionLogCapacity'. */
function configuredCapacity(): number {
  try {
    const value = Number(globalThis.localStorage?.getItem('qa.actionLogCapacity'));
    return Number.isInteger(value) && value >= 100 ? value : DEFAULT_LOG_CAPACITY;
  } catch {
    return DEFAULT_LOG_CAPACITY;
  }
}

function browserRecorder(extra: { api?: ApiDeps; now?: () => number }): ActionLogRecorder | null {
  const inBrowser = typeof window !== 'undefined' && typeof indexedDB !== 'undefined';
  if (!inBrowser || process.env.NODE_ENV === 'test') return null;
  const recorder = new ActionLogRecorder({ sink: new IndexedDbLogSink({ capacity: configuredCapacity() }), now: extra.now });
  // What the previous page load could not write before it went away comes first.
  const stash = safeLocalStorage();
  if (stash) recorder.restoreStash(stash);
  if (extra.api) {
    // The api layer reads fetchFn from this object on every request (lib/api base-query), so
    // wrapping it here logs every exchange without touching lib/api.
    const inner = extra.api.fetchFn;
    extra.api.fetchFn = recorder.wrapFetch((input, init) => (inner ? inner(input, init) : globalThis.fetch(input, init)));
  }
  // The last entries must survive the page going away: an IndexedDB write started in pagehide
  // does not finish, so they are stashed synchronously (action-log.ts). pagehide is unreliable
  // on phones (a hidden tab may be killed without it): a hidden page flushes as usual.
  window.addEventListener('pagehide', () => {
    if (stash) recorder.stashUnwritten(stash);
    else void recorder.flush();
  });
  // Back from the back/forward cache: the same page goes on, its stash before what comes next.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && stash) recorder.restoreStash(stash);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void recorder.flush();
  });
  activeRecorder = recorder;
  return recorder;
}

/** `extra` is the store's thunk/listener extra argument (its `api` deps and clock). */
export function actionLogMiddleware(extra: { api?: ApiDeps; now?: () => number }): Middleware {
  const handler = nextHandler ?? browserRecorder(extra);
  if (!handler) return () => (next) => (action) => next(action);
  return (store) => (next) => (action) => handler.handle(action, next, store.getState);
}
