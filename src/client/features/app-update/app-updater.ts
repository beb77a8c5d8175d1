/**
 * Service worker registration and the update hand-over (/sw.js with scope '/').
 *
 * - A new worker that is installed and waiting dispatches `updateBecameReady` (the dialog shows).
 * - `accept()` asks the waiting worker to skip waiting (message {type: 'SKIP_WAITING'}, handled
 *   in service-worker/sw.ts) and reloads once it controls the page (controllerchange).
 * Unsent edits survive the reload: they are in IndexedDB, not in memory.
 *
 * The Workbox instance is passed in, so tests use a fake and the instance stays out of Redux.
 */
import type { Workbox } from 'workbox-window';
import { updateBecameReady } from './app-update-slice';

export type WorkboxLike = Pick<Workbox, 'addEventListener' | 'register' | 'messageSkipWaiting' | 'update'>;

export interface AppUpdater {
  /** Registers the worker and starts listening for updates. */
  start(): Promise<void>;
  /** Activates the waiting worker and reloads when it has taken control. */
  accept(): void;
}

export interface AppUpdaterOptions {
  workbox: WorkboxLike;
  dispatch: (action: ReturnType<typeof updateBecameReady>) => unknown;
  reload?: () => void;
  /** Where to register visibility listeners (the window in the app). */
  target?: Pick<Window, 'addEventListener'> & { document?: Pick<Document, 'visibilityState'> };
}

export function createAppUpdater({ workbox, dispatch, reload = () => window.location.reload(), target }: AppUpdaterOptions): AppUpdater {
  let reloading = false;
  return {
    async start() {
      workbox.addEventListener('waiting', () => {
        dispatch(updateBecameReady());
      });
      await workbox.register();
      // A phone app stays open for days: look for a new version whenever it comes back to front.
      target?.addEventListener('visibilitychange', () => {
        if (target.document?.visibilityState === 'visible') void workbox.update().catch(() => undefined);
      });
    },
    accept() {
      workbox.addEventListener('controlling', () => {
        if (reloading) return;
        reloading = true;
        reload();
      });
      workbox.messageSkipWaiting();
    },
  };
}

/** The real registration, only where service workers exist (not in jsdom, not over plain http). */
export async function createBrowserAppUpdater(dispatch: AppUpdaterOptions['dispatch']): Promise<AppUpdater | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const { Workbox } = await import(/* webpackChunkName: "workbox-window" */ 'workbox-window');
  return createAppUpdater({ workbox: new Workbox('/sw.js', { scope: '/' }), dispatch, target: window });
}
