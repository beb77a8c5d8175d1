/**
 * What the user and the screens do with the outbox: save an edit (resolves only after it is
 * stored, so "saved" is never shown for an edit that is not), and resolve waiting items
 * (retry / discard a failed one, keep mine / take theirs for a conflict).
 */
import { discardItem, keepMine, retryItem, saveEdit, takeTheirs, type LocalEdit, type SavedEdit } from '../../lib/db/outbox';
import { StorageError } from '../../lib/db/database';
import { createAppAsyncThunk } from '../../app/store-types';
import { slSync } from '../../../common/i18n/sl';

export const editSaved = createAppAsyncThunk<SavedEdit, LocalEdit>('sync/editSaved', async (edit, { extra, rejectWithValue }) => {
  try {
    return await saveEdit(extra.db, edit);
  } catch (error) {
    return rejectWithValue(error instanceof StorageError && error.kind === 'quota' ? slSync.sync.quotaExceeded : slSync.sync.storageFailed);
  }
});

export const failedItemRetried = createAppAsyncThunk<void, number>('sync/failedItemRetried', (seq, { extra }) => retryItem(extra.db, seq));
export const failedItemDiscarded = createAppAsyncThunk<void, number>('sync/failedItemDiscarded', (seq, { extra }) => discardItem(extra.db, seq));
export const conflictKeptMine = createAppAsyncThunk<void, number>('sync/conflictKeptMine', (seq, { extra }) => keepMine(extra.db, seq));
export const conflictTookTheirs = createAppAsyncThunk<void, number>('sync/conflictTookTheirs', (seq, { extra }) => takeTheirs(extra.db, seq));
