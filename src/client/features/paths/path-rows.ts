/**
 * The season as the screens list it: one row per path with its area, length, last walk, the
 * duration-path of the current season, its forms, the status (not walked / walked / form done) and
 * the score. Pure over the season rows (features/season selectors, passed in by app/routes) and the
 * column ids of config.json, so it is the same online and offline.
 */
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { columnKey } from '../../lib/db/refs';

export type PathStatus = 'not-walked' | 'walked' | 'form-done';

export interface SeasonRows {
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
  duration: StoredRecord | null;
  durationPaths: readonly StoredRecord[];
  forms: readonly StoredRecord[];
  /** The forms' indicator rows: a form with none answered has no score yet (not a bad 0). */
  indicators?: readonly StoredRecord[];
}

export interface PathRow {
  id: number;
  name: string;
  areaId: number | null;
  areaName: string;
  lengthM: number | null;
  /** ISO time of the last recorded walk (paths.walk.recordedAt), if any. */
  lastWalk: string | null;
  durationPathId: number | null;
  /** Live (not archived, not deleted) forms of this season's duration-path, oldest first. */
  forms: StoredRecord[];
  status: PathStatus;
  /** Score of the latest completed form (else the latest form with a score). */
  score: number | null;
}

const numberOf = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

function textOf(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** The walk's time from the `walk` column written by the recorder (features/map save-walk). */
function walkTime(value: unknown): string | null {
  if (value && typeof value === 'object' && typeof (value as { recordedAt?: unknown }).recordedAt === 'string') {
    return (value as { recordedAt: string }).recordedAt;
  }
  return null;
}

const day = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : '');

/** The form that stands for a set of forms: the latest completed one, else the latest one. */
function representativeForm(forms: readonly StoredRecord[], config: AppConfig): StoredRecord | null {
  const completed = columnKey(config, 'forms', 'completed');
  const live = forms.filter((f) => !f.deleted && !f.archived);
  const done = live.filter((f) => f.properties[completed] === true);
  const pick = (list: StoredRecord[]) => [...list].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id).pop() ?? null;
  return pick(done) ?? pick(live);
}

export function buildPathRows(rows: SeasonRows, config: AppConfig): PathRow[] {
  const c = {
    areaName: columnKey(config, 'areas', 'name'),
    pathName: columnKey(config, 'paths', 'name'),
    pathParent: columnKey(config, 'paths', 'parent'),
    length: columnKey(config, 'paths', 'length_m'),
    walk: columnKey(config, 'paths', 'walk'),
    dpPath: columnKey(config, 'durationPaths', 'path_id'),
    dpDuration: columnKey(config, 'durationPaths', 'duration_id'),
    formParent: columnKey(config, 'forms', 'parent'),
    completed: columnKey(config, 'forms', 'completed'),
    score: columnKey(config, 'forms', 'score'),
    start: columnKey(config, 'durations', 'filter_start'),
    end: columnKey(config, 'durations', 'filter_end'),
  };
  const areas = new Map(rows.areas.filter((a) => !a.archived && !a.deleted).map((a) => [a.id, a]));
  const durationId = rows.duration?.id ?? null;
  const from = rows.duration ? day(rows.duration.properties[c.start]) : '';
  const to = rows.duration ? day(rows.duration.properties[c.end]) : '';
  const indicatorParent = columnKey(config, 'indicators', 'parent');
  const formsWithAnswers = rows.indicators ? new Set(rows.indicators.filter((i) => !i.deleted && !i.archived).map((i) => numberOf(i.properties[indicatorParent]))) : null;
  const answered = (form: StoredRecord) => formsWithAnswers === null || formsWithAnswers.has(form.id);
  const result: PathRow[] = [];
  for (const path of rows.paths) {
    if (path.archived || path.deleted) continue;
    const areaId = numberOf(path.properties[c.pathParent]);
    if (areaId !== null && !areas.has(areaId) && rows.areas.some((a) => a.id === areaId)) continue; // archived area
    const link =
      durationId === null
        ? undefined
        : rows.durationPaths.find((d) => !d.archived && !d.deleted && numberOf(d.properties[c.dpPath]) === path.id && numberOf(d.properties[c.dpDuration]) === durationId);
    const forms = link ? rows.forms.filter((f) => !f.archived && !f.deleted && numberOf(f.properties[c.formParent]) === link.id).sort((a, b) => a.id - b.id) : [];
    const lastWalk = walkTime(path.properties[c.walk]);
    const walkedThisSeason = lastWalk !== null && from !== '' && day(lastWalk) >= from && day(lastWalk) <= to;
    const done = forms.some((f) => f.properties[c.completed] === true);
    const shown = representativeForm(forms, config);
    result.push({
      id: path.id,
      name: textOf(path.properties[c.pathName]) || `#${path.id}`,
      areaId,
      areaName: areaId !== null ? textOf(areas.get(areaId)?.properties[c.areaName]) : '',
      lengthM: numberOf(path.properties[c.length]),
      lastWalk,
      durationPathId: link?.id ?? null,
      forms,
      status: done ? 'form-done' : walkedThisSeason ? 'walked' : 'not-walked',
      score: shown && answered(shown) ? numberOf(shown.properties[c.score]) : null,
    });
  }
  return result.sort((a, b) => a.areaName.localeCompare(b.areaName, 'sl') || a.name.localeCompare(b.name, 'sl') || a.id - b.id);
}

/** Rows grouped by area, in the order of buildPathRows. */
export function groupByArea(rows: readonly PathRow[], areas: readonly StoredRecord[], config: AppConfig): Array<{ id: number; name: string; paths: PathRow[] }> {
  const nameKey = columnKey(config, 'areas', 'name');
  const groups = areas
    .filter((a) => !a.archived && !a.deleted)
    .map((a) => ({ id: a.id, name: textOf(a.properties[nameKey]) || `#${a.id}`, paths: rows.filter((r) => r.areaId === a.id) }));
  return groups.sort((a, b) => a.name.localeCompare(b.name, 'sl') || a.id - b.id);
}
