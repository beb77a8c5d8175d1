/**
 * The form being filled in, as the screen holds it, and what saving it means: from the stored
 * indicators rows to a draft per indicator (value, note, location, new photos), and from the draft
 * back to outbox edits — insert, update or delete of indicators rows, their photos as attachments
 * (after the row, so a new row's local id is known), then the form row with its score. Pure, so
 * the save plan is tested without a screen.
 */
import type { Geometry, Point } from 'geojson';
import { computeScore, normalizeValue, validateForm, type FormValues, type ValidationError } from '../../../common/scheme/scoring';
import type { AppConfig, FormKind } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import type { EarlierEdit, LocalEdit } from '../../lib/db/outbox';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';

export interface NewPhoto {
  /** Key in the draft only. */
  tempId: string;
  name: string;
  blob: Blob;
}

export interface IndicatorDraft {
  /** As the input holds it (a string for numbers and dates, a boolean for presence). */
  value: unknown;
  note: string;
  /** [lon, lat] */
  location: [number, number] | null;
  photos: NewPhoto[];
}

export interface FormDraft {
  indicators: Record<string, IndicatorDraft>;
  note: string;
  completed: boolean;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function pointOf(geometry: Geometry | null | undefined): [number, number] | null {
  return geometry && geometry.type === 'Point' ? [geometry.coordinates[0]!, geometry.coordinates[1]!] : null;
}

/** The first live row per indicator key (a form holds one row per key when made by this app). */
export function rowsByKey(config: AppConfig, rows: readonly StoredRecord[]): Map<string, StoredRecord> {
  const map = new Map<string, StoredRecord>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    if (row.deleted || row.archived) continue;
    const k = readRow(config, 'indicators', row).key ?? '';
    if (!map.has(k)) map.set(k, row);
  }
  return map;
}

/**
 * Keys of indicators an editor archived: a row of the key is archived and no live row
 * is left. They leave the form — not shown, not validated, not scored (their draft value is
 * blank, as initialDraft reads live rows only).
 */
export function archivedKeys(config: AppConfig, rows: readonly StoredRecord[]): Set<string> {
  const live = rowsByKey(config, rows);
  const keys = new Set<string>();
  for (const row of rows) {
    const k = readRow(config, 'indicators', row).key ?? '';
    if (row.archived && !row.deleted && !live.has(k)) keys.add(k);
  }
  return keys;
}

export function initialDraft(config: AppConfig, kind: FormKind, form: StoredRecord, rows: readonly StoredRecord[]): FormDraft {
  const byKey = rowsByKey(config, rows);
  const indicators: Record<string, IndicatorDraft> = {};
  for (const def of kind.indicators) {
    const stored = byKey.get(def.key);
    const row = stored ? readRow(config, 'indicators', stored) : undefined;
    const value = row?.value;
    indicators[def.key] = {
      value: value === null || value === undefined ? '' : typeof value === 'number' ? String(value) : value,
      note: row?.note ?? '',
      location: pointOf(row?.geometry),
      photos: [],
    };
  }
  const stored = readRow(config, 'forms', form);
  return { indicators, note: stored.note ?? '', completed: stored.completed === true };
}

/** The values the score and the validation see: normalised where valid, raw where not, blanks left out. */
export function draftValues(kind: FormKind, draft: FormDraft): FormValues {
  const values: FormValues = {};
  for (const def of kind.indicators) {
    const raw = draft.indicators[def.key]?.value;
    if (blank(raw)) continue;
    const n = normalizeValue(def, raw);
    values[def.key] = n.ok ? n.value : raw;
  }
  return values;
}

export function liveScore(kind: FormKind, draft: FormDraft) {
  return computeScore(kind, draftValues(kind, draft));
}

/** Whether any indicator has an answer: before that a form has no score yet (not a bad 0). */
export function hasAnswers(draft: FormDraft): boolean {
  return Object.values(draft.indicators).some((d) => !blank(d.value));
}

/**
 * Required answers still missing. Not a reason to refuse a save while the form is not marked
 * completed (field work is often interrupted), but the user is told on every save.
 */
export function missingAnswers(kind: FormKind, draft: FormDraft): ValidationError[] {
  const values = draftValues(kind, draft);
  return validateForm(kind, values).errors.filter((e) => blank(values[e.key]));
}

/**
 * Errors that stop a save: an invalid value always; a missing required value only when the form
 * is marked completed (a half-filled form may be saved and finished later in the field).
 */
export function blockingErrors(kind: FormKind, draft: FormDraft): ValidationError[] {
  const values = draftValues(kind, draft);
  return validateForm(kind, values).errors.filter((e) => draft.completed || !blank(values[e.key]));
}

export function isDirty(a: FormDraft, b: FormDraft): boolean {
  return (
    JSON.stringify({ ...a, indicators: strip(a) }) !== JSON.stringify({ ...b, indicators: strip(b) }) ||
    Object.values(a.indicators).some((d) => d.photos.length > 0)
  );
}

/** Whether an indicator's answer (value, note, location) differs from `before`; new photos are not part of it. */
export function answerChanged(before: IndicatorDraft | undefined, after: IndicatorDraft): boolean {
  return !before || JSON.stringify([before.value, before.note, before.location]) !== JSON.stringify([after.value, after.note, after.location]);
}

function strip(d: FormDraft) {
  return Object.fromEntries(Object.entries(d.indicators).map(([k, v]) => [k, { value: v.value, note: v.note, location: v.location }]));
}

function toPoint(location: [number, number] | null): Point | null {
  return location ? { type: 'Point', coordinates: location } : null;
}

/**
 * The form's draft once `sent` was saved, `now` being the draft on the screen by then: the photos
 * the save stored live on the device from now on, and answers changed while the save ran stay as
 * they are, unsaved. An answer with none of those photos stays the same object (its row is not
 * rendered again).
 */
export function savedDraft(sent: FormDraft, now: FormDraft): FormDraft {
  const stored = new Set(Object.values(sent.indicators).flatMap((answer) => answer.photos.map((photo) => photo.tempId)));
  const indicators: Record<string, IndicatorDraft> = {};
  for (const [key, answer] of Object.entries(now.indicators)) {
    indicators[key] = answer.photos.some((photo) => stored.has(photo.tempId))
      ? { ...answer, photos: answer.photos.filter((photo) => !stored.has(photo.tempId)) }
      : answer;
  }
  return { ...now, indicators };
}

/** Outbox edits for saving `draft` over the stored rows of the form. */
export function planSave(args: {
  config: AppConfig;
  kind: FormKind;
  form: StoredRecord;
  rows: readonly StoredRecord[];
  draft: FormDraft;
  initial: FormDraft;
}): LocalEdit[] {
  const { config, kind, form, rows, draft, initial } = args;
  const projectId = config.projectId;
  const tableId = config.tables.indicators.id;
  const photosSlot = config.tables.indicators.attachments?.photos;
  const byKey = rowsByKey(config, rows);
  const steps: LocalEdit[] = [];
  for (const def of kind.indicators) {
    const d = draft.indicators[def.key];
    const before = initial.indicators[def.key];
    if (!d) continue;
    const n = normalizeValue(def, d.value);
    const value = n.ok ? (n.value ?? null) : null;
    const note = d.note.trim() === '' ? null : d.note;
    const hasContent = value !== null || note !== null || d.location !== null || d.photos.length > 0;
    const row = byKey.get(def.key);
    const changed = answerChanged(before, d);
    // A new row's photos name it by its place in the save: its offline id is given when it is stored.
    let indicatorId: number | EarlierEdit | null = row?.id ?? null;
    if (row) {
      if (!hasContent && changed) {
        steps.push({ kind: 'delete', projectId, tableId, id: row.id });
        continue;
      }
      if (changed) {
        steps.push({
          kind: 'update',
          projectId,
          tableId,
          id: row.id,
          properties: toProperties(config, 'indicators', { value, note }),
          geometry: toPoint(d.location),
          refs: refKeysFor(config, 'indicators'),
        });
      }
    } else if (hasContent) {
      indicatorId = { savedIndex: steps.length };
      steps.push({
        kind: 'insert',
        projectId,
        tableId,
        properties: toProperties(config, 'indicators', { parent: form.id, key: def.key, value, note }),
        geometry: toPoint(d.location),
        refs: refKeysFor(config, 'indicators'),
      });
    }
    if (photosSlot !== undefined && indicatorId !== null) {
      for (const photo of d.photos) {
        steps.push({
          kind: 'attachment',
          projectId,
          tableId,
          recordId: indicatorId,
          tableAttachmentInfoId: photosSlot,
          name: photo.name,
          mimeType: photo.blob.type || 'image/jpeg',
          data: photo.blob,
        });
      }
    }
  }
  const score = liveScore(kind, draft);
  steps.push({
    kind: 'update',
    projectId,
    tableId: config.tables.forms.id,
    id: form.id,
    properties: toProperties(config, 'forms', {
      note: draft.note.trim() === '' ? null : draft.note,
      completed: draft.completed,
      score: score.score,
      rule_version: score.ruleVersion,
    }),
    refs: refKeysFor(config, 'forms'),
  });
  return steps;
}
