/**
 * What the header shows about the connection (docs/architecture.md, Sync rules): online/offline from the sync feature's
 * connectivity slice (browser events plus the 10 s GET /api/Test probe) and the number of edits
 * waiting in the outbox.
 *
 * Until the first probe has answered, reachability is unknown: the header follows the browser's
 * online flag then, instead of flashing "Brez povezave" at every start.
 */
import { useAppSelector } from '../hooks';
import { selectAttentionItems, selectBrowserOnline, selectPendingCount, selectServerReachable } from '../../features/sync';

export interface ConnectionInfo {
  online: boolean;
  /** The last /api/Test probe answered (false while unknown). */
  reachable: boolean;
  pendingEdits: number;
  /** Edits the server refused, waiting for the user (the sync panel lists them). */
  needsDecision: number;
}

export function useConnectionInfo(): ConnectionInfo {
  const browserOnline = useAppSelector(selectBrowserOnline);
  const reachable = useAppSelector(selectServerReachable);
  const pendingEdits = useAppSelector(selectPendingCount);
  const needsDecision = useAppSelector(selectAttentionItems).length;
  return { online: browserOnline && reachable !== false, reachable: browserOnline && reachable === true, pendingEdits, needsDecision };
}
