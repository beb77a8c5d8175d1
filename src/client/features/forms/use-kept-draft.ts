/**
 * The form screen's unsaved answers kept on the device (draft-stash.ts): restored once when the
 * form opens, kept again a moment after each change (never on a tap's frame), at once when the
 * page is hidden (the camera opens, the phone locks, another app comes up: the moments before a
 * phone kills a tab), and forgotten when saved (in the save's own transaction, `saveWith`: a
 * reload right after a save must not bring the saved answers back as unsaved ones, new photos
 * twice), discarded or left on purpose (`forget`).
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useOfflineDb } from '../../app/hooks';
import type { FormDraft } from './form-draft';
import { applyChanges, changesOf, dropChanges, findChanges, keepChanges, keptDraftKey } from './draft-stash';

/** How long after a change its answers are kept: a run of taps is one write. */
const KEEP_DRAFT_DELAY_MS = 400;

export interface KeptDraft {
  /** Answers kept from an earlier visit are on the screen (until saved or discarded). */
  restored: boolean;
  /** Back to the form as stored, the kept answers forgotten. */
  discard: () => void;
  /** Forgets the kept answers now (discarded, or left on purpose); resolves once they are gone from the device. */
  forget: () => Promise<void>;
  /**
   * Runs a save of the answers: `save` is given the `meta` row holding them (null: none), to delete
   * in its own transaction; no write of them runs meanwhile (it could land after the save). Saved,
   * nothing is kept any more; failed, every answer on the screen is kept, a change not written yet
   * or made meanwhile too.
   */
  saveWith: <T>(save: (keptRow: string | null) => Promise<T>) => Promise<T>;
}

export function useKeptDraft(args: {
  formId: number;
  /** False for a form the user cannot change: nothing is kept or restored. */
  active: boolean;
  draft: FormDraft;
  base: FormDraft;
  setDraft: Dispatch<SetStateAction<FormDraft>>;
}): KeptDraft {
  const { formId, active, draft, base, setDraft } = args;
  const db = useOfflineDb();
  const [restored, setRestored] = useState(false);
  // Until the device was asked for answers kept earlier, none is written (it would replace them).
  const [ready, setReady] = useState(false);
  const ids = useRef<number[]>([]);
  if (!ids.current.includes(formId)) ids.current.push(formId);
  const key = useRef<string | null>(null);
  const baseRef = useRef(base);
  baseRef.current = base;
  // Writes go one after another, in the order of the changes.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const pending = useRef<(() => void) | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** A save of the answers is under way (`saveWith`). */
  const saving = useRef(false);
  const run = useCallback((write: () => Promise<void>) => {
    queue.current = queue.current.then(write).catch(() => undefined);
  }, []);

  useEffect(() => {
    if (!active) return undefined;
    let cancelled = false;
    void findChanges(db, ids.current[0]!)
      .then((found) => {
        if (cancelled || !found) return;
        key.current = found.key;
        for (const id of found.ids) if (!ids.current.includes(id)) ids.current.push(id);
        setDraft((now) => applyChanges(now, baseRef.current, found.changes));
        setRestored(true);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!cancelled) setReady(true);
      });
    return () => {
      cancelled = true;
    };
    // Once per screen: what was kept is asked for when the form opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, db]);

  useEffect(() => {
    pending.current = null;
    if (!active || !ready) return undefined;
    const changes = changesOf(draft, base);
    const write = () => {
      // A save is under way: this waits for its outcome (gone with it, or written if it fails).
      if (saving.current) return;
      pending.current = null;
      if (changes) {
        key.current ??= keptDraftKey(ids.current[0]!);
        const rowKey = key.current;
        run(() => keepChanges(db, rowKey, ids.current, changes));
      } else if (key.current) {
        const rowKey = key.current;
        key.current = null;
        run(() => dropChanges(db, rowKey));
      }
    };
    if (!changes && !key.current) return undefined;
    pending.current = write;
    timer.current = setTimeout(write, KEEP_DRAFT_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [active, ready, draft, base, db, run]);

  // Hidden or left: what waits for its moment is written now.
  useEffect(() => {
    if (!active) return undefined;
    const flush = () => pending.current?.();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [active]);

  const forget = useCallback(async () => {
    clearTimeout(timer.current);
    pending.current = null;
    setRestored(false);
    const rowKey = key.current;
    key.current = null;
    if (rowKey) run(() => dropChanges(db, rowKey));
    await queue.current;
  }, [db, run]);

  const saveWith = useCallback(async <T>(save: (keptRow: string | null) => Promise<T>): Promise<T> => {
    // What waits for its moment is in the save, and written only if the save fails: written now it
    // would cost the save a transaction of its own (a visible page that dies mid-save loses what a
    // page that dies within KEEP_DRAFT_DELAY_MS of a tap does).
    clearTimeout(timer.current);
    saving.current = true;
    try {
      await queue.current;
      const result = await save(key.current);
      pending.current = null;
      key.current = null;
      setRestored(false);
      return result;
    } catch (error) {
      saving.current = false;
      pending.current?.();
      throw error;
    } finally {
      saving.current = false;
    }
  }, []);

  const discard = useCallback(() => {
    setDraft(baseRef.current);
    void forget();
  }, [setDraft, forget]);

  return { restored, discard, forget, saveWith };
}
