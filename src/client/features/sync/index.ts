/**
 * features/sync: connectivity (online/offline + /api/Test probe), the outbox drain and what the
 * user sees of it. Storage split: the outbox lives in Dexie (lib/db, the source of truth, written
 * before "saved"); the `sync` slice only mirrors it for the UI; redux-persist keeps just
 * `sync.lastSyncAt` (small session state, see app/root-reducer.ts).
 */
export * from './connectivity-slice';
export * from './sync-slice';
export * from './sync-listeners';
export * from './sync-thunks';
export { backoffDelay } from './backoff';
export { drainOnce } from './drain';
export { rtkQueryTransport } from './transport';
export { SyncPanel } from './components/sync-panel';
export { attentionDetails } from './attention-details';
