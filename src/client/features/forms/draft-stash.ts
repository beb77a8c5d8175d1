/**
 * The unsaved answers of a form, kept on the device while they are made: a phone kills a
 * background tab without warning (often while the camera takes a photo for the form), and the
 * page's `beforeunload` guard never runs then. The next time the form opens, the answers come back
 * on the screen, still unsaved, for the user to save or discard.
 *
 * What is kept is the change, not the whole screen: each indicator the user changed (value, note,
 * location, new photos as bytes), the form's note and completion where changed. Restored, the
 * changes go over the form as the device holds it then, so an answer that arrived meanwhile (a
 * sync, an adviser's edit) shows wherever the user did not change it.
 *
 * One `meta` row per form (`formDraft:<id>`), named by the id the form had when its first change
 * was kept. It lists every id the form has had on this screen, so it is found again after the
 * outbox delivered the form (offline id → server id, identity.ts) whichever id the address names.
 */
import { resolveIds } from '../../lib/db/identity';
import type { OfflineDb } from '../../lib/db/database';
import { guardWrite } from '../../lib/db/database';
import { readBlobBytes } from '../../lib/file/read-blob';
import { answerChanged, type FormDraft, type IndicatorDraft, type NewPhoto } from './form-draft';

const PREFIX = 'formDraft:';

interface KeptPhoto {
  tempId: string;
  name: string;
  type: string;
  /** Bytes rather than a Blob: they clone reliably in every engine (as the attachments store's). */
  data: ArrayBuffer;
}

interface KeptIndicator extends Omit<IndicatorDraft, 'photos'> {
  photos: KeptPhoto[];
}

/** What the user changed on a form: the changed indicators by key, the note and completion where changed. */
export interface DraftChanges {
  indicators: Record<string, IndicatorDraft>;
  note?: string;
  completed?: boolean;
}

interface KeptDraft {
  /** Every id the form has had while its changes were kept (an offline id, then the server's). */
  ids: number[];
  indicators: Record<string, KeptIndicator>;
  note?: string;
  completed?: boolean;
}

/** Changed on the screen: its answer, or a new photo (a new photo is never in the baseline). */
const changedOnScreen = (now: IndicatorDraft, before: IndicatorDraft | undefined) => answerChanged(before, now) || now.photos.length > 0;

/** What `draft` changes of `base`, or null when nothing. */
export function changesOf(draft: FormDraft, base: FormDraft): DraftChanges | null {
  const indicators: Record<string, IndicatorDraft> = {};
  for (const [key, answer] of Object.entries(draft.indicators)) {
    if (changedOnScreen(answer, base.indicators[key])) indicators[key] = answer;
  }
  const changes: DraftChanges = { indicators };
  if (draft.note !== base.note) changes.note = draft.note;
  if (draft.completed !== base.completed) changes.completed = draft.completed;
  return Object.keys(indicators).length || changes.note !== undefined || changes.completed !== undefined ? changes : null;
}

/**
 * `draft` with the kept changes applied, except where the user changed it already on this screen
 * (compared with `base`): what was just tapped is newer than what was kept.
 */
export function applyChanges(draft: FormDraft, base: FormDraft, changes: DraftChanges): FormDraft {
  const indicators = { ...draft.indicators };
  for (const [key, answer] of Object.entries(changes.indicators)) {
    const now = draft.indicators[key];
    if (now && base.indicators[key] && changedOnScreen(now, base.indicators[key])) continue;
    indicators[key] = answer;
  }
  return {
    indicators,
    note: changes.note !== undefined && draft.note === base.note ? changes.note : draft.note,
    completed: changes.completed !== undefined && draft.completed === base.completed ? changes.completed : draft.completed,
  };
}

/** The photo bytes, read once per photo (a photo's Blob never changes). */
const photoBytes = new WeakMap<Blob, Promise<ArrayBuffer>>();

function bytesOf(blob: Blob): Promise<ArrayBuffer> {
  let bytes = photoBytes.get(blob);
  if (!bytes) {
    bytes = readBlobBytes(blob);
    photoBytes.set(blob, bytes);
  }
  return bytes;
}

async function keptPhotos(photos: readonly NewPhoto[]): Promise<KeptPhoto[]> {
  return Promise.all(photos.map(async (photo) => ({ tempId: photo.tempId, name: photo.name, type: photo.blob.type, data: await bytesOf(photo.blob) })));
}

/** Keeps the changes of the form known by `ids` (its first id names the row); `key` is the row's name. */
export async function keepChanges(db: OfflineDb, key: string, ids: readonly number[], changes: DraftChanges): Promise<void> {
  const indicators: Record<string, KeptIndicator> = {};
  for (const [indicatorKey, answer] of Object.entries(changes.indicators)) indicators[indicatorKey] = { ...answer, photos: await keptPhotos(answer.photos) };
  const value: KeptDraft = { ids: [...ids], indicators, note: changes.note, completed: changes.completed };
  await guardWrite(db, () => db.meta.put({ key, value }));
}

/** The name of the row a form's changes are kept in when none was found for it. */
export const keptDraftKey = (formId: number): string => `${PREFIX}${formId}`;

/** Forgets the kept changes in row `key`. */
export async function dropChanges(db: OfflineDb, key: string): Promise<void> {
  await guardWrite(db, () => db.meta.delete(key));
}

function isKeptDraft(value: unknown): value is KeptDraft {
  const kept = value as KeptDraft | null;
  return typeof kept === 'object' && kept !== null && Array.isArray(kept.ids) && typeof kept.indicators === 'object' && kept.indicators !== null;
}

/**
 * The kept changes of form `formId` (by any id it has had), with the row's name and the form's
 * earlier ids; null when none are kept.
 */
export async function findChanges(db: OfflineDb, formId: number): Promise<{ key: string; ids: number[]; changes: DraftChanges } | null> {
  const rows = await db.meta.where('key').startsWith(PREFIX).toArray();
  for (const row of rows) {
    if (!isKeptDraft(row.value)) continue;
    const { ids } = row.value;
    const delivered = await resolveIds(db, 'record', ids);
    if (!ids.includes(formId) && ![...delivered.values()].includes(formId)) continue;
    const indicators: Record<string, IndicatorDraft> = {};
    for (const [key, answer] of Object.entries(row.value.indicators)) {
      indicators[key] = {
        ...answer,
        photos: answer.photos.map((photo) => ({ tempId: photo.tempId, name: photo.name, blob: new Blob([photo.data], { type: photo.type }) })),
      };
    }
    return { key: row.key, ids, changes: { indicators, note: row.value.note, completed: row.value.completed } };
  }
  return null;
}
