/**
 * features/sync: connectivity (online/offline + /api/Test probe), the outbox drain and what the
 * user sees of it. Storage split: the outbox lives in Dexie (lib/db, the source of truth, written
 * before "saved"); the `sync` slice only mirrors it for the UI; redux-persist keeps just
 * `sync.lastSyncAt` (small session state, see app/root-reducer.ts).
 */
import { lazy } from 'react';

export * from './connectivity-slice';
export * from './sync-slice';
export * from './sync-listeners';
export * from './sync-thunks';
export { backoffDelay } from './backoff';
export { drainOnce } from './drain';
export { rtkQueryTransport } from './transport';
/** The sync panel, its code loaded when it first opens (no first screen shows it): render it under Suspense. */
export const SyncPanel = lazy(() => import(/* webpackChunkName: "sync-panel" */ './components/sync-panel').then((module) => ({ default: module.SyncPanel })));
export { attentionDetails } from './attention-details';
