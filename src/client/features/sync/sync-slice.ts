/**
 * What the user sees of sync (docs/architecture.md, Sync rules): how many edits wait, the items that need them (failed,
 * conflicts), the last successful sync, whether sync waits for sign-in, and storage errors.
 * A mirror of the outbox in Dexie (the source of truth), refreshed whenever it changes.
 */
import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { OutboxItem } from '../../lib/db/database';

/** The serialisable view of an outbox item that needs the user. */
export interface AttentionItem {
  seq: number;
  opId: string;
  kind: OutboxItem['kind'];
  tableId: number;
  id: number;
  status: 'failed' | 'conflict';
  /** Catalogue message and the server's detail. */
  message: string;
  detail?: string;
  httpStatus?: number | string;
  /** 409: the server's row, for "take theirs". */
  current?: unknown;
  /** 409 from a form under review: its state (the edit cannot be kept, only sent as a comment or dropped). */
  reviewState?: string;
  properties?: Record<string, unknown>;
  createdAt: string;
}

interface SyncState {
  pendingCount: number;
  attention: AttentionItem[];
  lastSyncAt: string | null;
  draining: boolean;
  /** Consecutive network/5xx failures; resets on success. */
  failures: number;
  /** Epoch ms before which no drain is attempted (back-off). */
  retryAt: number | null;
  /** A 401 could not be fixed by a refresh: everything is kept until the user signs in. */
  authRequired: boolean;
  storageError: { kind: 'quota' | 'other'; at: string } | null;
  /** A newer tab upgraded the database: this tab must reload. */
  reloadRequired: boolean;
}

const initialState: SyncState = {
  pendingCount: 0,
  attention: [],
  lastSyncAt: null,
  draining: false,
  failures: 0,
  retryAt: null,
  authRequired: false,
  storageError: null,
  reloadRequired: false,
};

export function toAttentionItem(item: OutboxItem): AttentionItem {
  const view: AttentionItem = {
    seq: item.seq!,
    opId: item.opId,
    kind: item.kind,
    tableId: item.tableId,
    id: item.id,
    status: item.status === 'conflict' ? 'conflict' : 'failed',
    message: item.error?.message ?? '',
    createdAt: item.createdAt,
  };
  if (item.error?.detail) view.detail = item.error.detail;
  if (item.error?.status !== undefined) view.httpStatus = item.error.status;
  if (item.error?.reviewState) view.reviewState = item.error.reviewState;
  if (item.current !== undefined) view.current = item.current;
  if (item.properties) view.properties = item.properties;
  return view;
}

export const syncSlice = createSlice({
  name: 'sync',
  initialState,
  reducers: {
    outboxSummaryLoaded(state, action: PayloadAction<{ pendingCount: number; attention: AttentionItem[] }>) {
      state.pendingCount = action.payload.pendingCount;
      state.attention = action.payload.attention;
    },
    drainStarted(state) {
      state.draining = true;
    },
    drainSucceeded(state, action: PayloadAction<{ at: string }>) {
      state.draining = false;
      state.failures = 0;
      state.retryAt = null;
      state.authRequired = false;
      state.lastSyncAt = action.payload.at;
    },
    drainBackedOff(state, action: PayloadAction<{ retryAt: number }>) {
      state.draining = false;
      state.failures += 1;
      state.retryAt = action.payload.retryAt;
    },
    drainHeldForSignIn(state) {
      state.draining = false;
      state.authRequired = true;
    },
    drainStopped(state) {
      state.draining = false;
    },
    storageErrorReported(state, action: PayloadAction<{ kind: 'quota' | 'other'; at: string }>) {
      state.storageError = action.payload;
    },
    storageErrorDismissed(state) {
      state.storageError = null;
    },
    reloadRequired(state) {
      state.reloadRequired = true;
    },
  },
  selectors: {
    selectPendingCount: (state) => state.pendingCount,
    selectLastSyncAt: (state) => state.lastSyncAt,
    selectAttentionItems: (state) => state.attention,
    selectIsDraining: (state) => state.draining,
    selectSyncAuthRequired: (state) => state.authRequired,
    selectStorageError: (state) => state.storageError,
    selectRetryAt: (state) => state.retryAt,
    selectReloadRequired: (state) => state.reloadRequired,
  },
});

export const { outboxSummaryLoaded, drainStarted, drainSucceeded, drainBackedOff, drainHeldForSignIn, drainStopped, storageErrorReported, reloadRequired } =
  syncSlice.actions;

export const { selectPendingCount, selectLastSyncAt, selectAttentionItems, selectSyncAuthRequired, selectStorageError, selectRetryAt } = syncSlice.selectors;

export const selectFailedItems = createSelector([selectAttentionItems], (items) => items.filter((item) => item.status === 'failed'));
export const selectConflicts = createSelector([selectAttentionItems], (items) => items.filter((item) => item.status === 'conflict'));
