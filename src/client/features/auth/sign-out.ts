/**
 * Sign-out clears what this user left on the device — the offline database (Dexie), the persisted
 * session state, the home screen's picture (lib/home-snapshot.ts), runtime caches and the stored identity — and ends the provider session. When
 * edits still wait to sync it does not delete them: it stops and the dialog (SignOutDialog) offers
 * to sync first or to sign out anyway. The app shell in the service worker's precache stays, so
 * the app still starts offline for the next user.
 */
import localforage from 'localforage';
import { createAppAsyncThunk, type RootState } from '../../app/store-types';
import { clearHomeSnapshot } from '../../lib/home-snapshot';
import { safeLocalStorage } from '../../lib/local-storage';
import { signOutBlocked, signOutCancelled } from './auth-slice';
import { defaultPendingEdits, getActiveSession } from './auth-session';

export type SignOutOutcome = 'blocked' | 'signed-out';

async function clearRuntimeCaches(): Promise<void> {
  if (typeof caches === 'undefined') return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => !name.startsWith('workbox-precache')).map((name) => caches.delete(name)));
}

export const signOut = createAppAsyncThunk<SignOutOutcome, { force?: boolean; pendingEdits?: (state: RootState) => number } | undefined>(
  'auth/signOut',
  async (options, { getState, dispatch, extra }) => {
    const pending = (options?.pendingEdits ?? defaultPendingEdits)(getState());
    if (pending > 0 && !options?.force) {
      dispatch(signOutBlocked(pending));
      return 'blocked';
    }
    dispatch(signOutCancelled());
    await extra.db.delete().catch((error: unknown) => console.error('clearing the offline database failed', error));
    await localforage.clear().catch(() => undefined);
    clearHomeSnapshot(safeLocalStorage());
    await clearRuntimeCaches().catch(() => undefined);
    const reachable = (getState() as { connectivity?: { serverReachable?: boolean | null } }).connectivity?.serverReachable !== false;
    // Clears the stored identity, dispatches signedOut, then (token mode) leaves for the
    // provider's logout page.
    await getActiveSession()?.logout({ reachable });
    return 'signed-out';
  },
);
