/**
 * What the user and the screens do with the outbox: save edits (resolves only after they are
 * stored, so "saved" is never shown for an edit that is not), and resolve waiting items
 * (retry / discard a failed one, keep mine / take theirs for a conflict).
 */
import { discardItem, keepMine, retryItem, saveEdit, saveEdits, takeTheirs, type LocalEdit, type SavedEdit, type SaveOptions } from '../../lib/db/outbox';
import { StorageError, type OfflineDb, type OutboxItem } from '../../lib/db/database';
import { toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import { selectConfig } from '../../lib/config/config-slice';
import { toAttentionItem } from './sync-slice';
import { createAppAsyncThunk } from '../../app/store-types';
import { slSync } from '../../../common/i18n/sl';

/** What a screen's save stores: its edits, together (lib/db `saveEdits`: all of them or none), and what they make obsolete. */
export const editsSaved = createAppAsyncThunk<SavedEdit[], { edits: LocalEdit[] } & SaveOptions>(
  'sync/editsSaved',
  async ({ edits, ...options }, { extra, rejectWithValue }) => {
    try {
      return await saveEdits(extra.db, edits, options);
    } catch (error) {
      return rejectWithValue(error instanceof StorageError && error.kind === 'quota' ? slSync.sync.quotaExceeded : slSync.sync.storageFailed);
    }
  },
);

export const failedItemRetried = createAppAsyncThunk<void, number>('sync/failedItemRetried', (seq, { extra }) => retryItem(extra.db, seq));
export const failedItemDiscarded = createAppAsyncThunk<void, number>('sync/failedItemDiscarded', (seq, { extra }) => discardItem(extra.db, seq));
export const conflictKeptMine = createAppAsyncThunk<void, number>('sync/conflictKeptMine', (seq, { extra }) => keepMine(extra.db, seq));
export const conflictTookTheirs = createAppAsyncThunk<void, number>('sync/conflictTookTheirs', (seq, { extra }) => takeTheirs(extra.db, seq));

/**
 * Drops an edit the form's review keeps out: the server's row replaces the device's when the
 * server sent this row back, else the edit's local effect is undone (a new indicator goes).
 */
function dropLocked(db: OfflineDb, item: OutboxItem): Promise<void> {
  const current = item.current as { tableId?: unknown } | undefined;
  return current?.tableId === item.tableId ? takeTheirs(db, item.seq!) : discardItem(db, item.seq!);
}

export const lockedEditDiscarded = createAppAsyncThunk<void, number>('sync/lockedEditDiscarded', async (seq, { extra }) => {
  const item = await extra.db.outbox.get(seq);
  if (item) await dropLocked(extra.db, item);
});

/**
 * An edit the form's review keeps out becomes a comment to the adviser, in words (queued like any
 * edit, so offline too), and then leaves the outbox: the farmer's values are not lost, and the
 * adviser decides whether to return the form.
 */
export const lockedEditSentAsComment = createAppAsyncThunk<void, number>('sync/lockedEditSentAsComment', async (seq, { extra, getState, rejectWithValue }) => {
  const config = selectConfig(getState());
  const item = await extra.db.outbox.get(seq);
  if (!config || !item) return;
  const view = toAttentionItem(item);
  // The panel that asks for this loaded the same code (./attention-details) when it opened.
  const { attentionDetails, lockedEditComment, lockedFormId } = await import(/* webpackChunkName: "sync-panel" */ './attention-details');
  const formId = lockedFormId(config, view);
  if (formId === null) return rejectWithValue(slSync.sync.lockedNoForm);
  const text = lockedEditComment(attentionDetails(config, view));
  await saveEdit(extra.db, {
    kind: 'insert',
    projectId: item.projectId,
    tableId: config.tables.comments.id,
    properties: toProperties(config, 'comments', { parent: formId, text }),
    refs: refKeysFor(config, 'comments'),
  });
  await dropLocked(extra.db, item);
});
