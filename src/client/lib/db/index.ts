/**
 * lib/db: the offline database (database.ts), the local copy of project tables (local-data.ts),
 * record identity (identity.ts) and the outbox of queued edits (outbox.ts). Nothing else in the
 * client opens IndexedDB.
 */
export * from './database';
export * from './local-data';
export * from './identity';
export * from './outbox';
export * from './actions';
export * from './refs';
