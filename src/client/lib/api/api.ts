/**
 * The single RTK Query api of the app (one createApi, endpoints injected per
 * resource). Endpoints live in records.ts, features.ts, public-app.ts and test.ts; importing
 * lib/api (index.ts) injects them all.
 */
import { createApi } from '@reduxjs/toolkit/query/react';
import { appBaseQuery } from './base-query';

export const api = createApi({
  reducerPath: 'api',
  baseQuery: appBaseQuery,
  tagTypes: ['Record', 'Feature', 'Roles', 'Attachment'],
  // Offline data lives in Dexie; the RTK Query cache is in-memory only and never persisted.
  keepUnusedDataFor: 60,
  endpoints: () => ({}),
});

/** Adds the Idempotency-Key header of an outbox operation (docs/architecture.md, Sync rules) when there is one. */
export function idempotencyHeaders(idempotencyKey: string | undefined): Record<string, string> | undefined {
  return idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined;
}
