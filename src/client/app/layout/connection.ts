/**
 * What the header shows about the connection: online/offline and edits waiting (DESIGN §5).
 *
 * Integration point for the sync feature (H4): until its selectors are registered in the store,
 * this follows the browser's online/offline events and shows no waiting edits. Replace the body of
 * `useConnectionInfo` with `useAppSelector(selectIsOnline)` and the outbox count selector.
 */
import { useSyncExternalStore } from 'react';

export interface ConnectionInfo {
  online: boolean;
  pendingEdits: number;
}

function subscribe(callback: () => void): () => void {
  window.addEventListener('online', callback);
  window.addEventListener('offline', callback);
  return () => {
    window.removeEventListener('online', callback);
    window.removeEventListener('offline', callback);
  };
}

export function useConnectionInfo(): ConnectionInfo {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  return { online, pendingEdits: 0 };
}
