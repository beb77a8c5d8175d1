/**
 * The season as the screens list it: one row per path with its area, length, last walk, the
 * duration-path of the current season, its forms, the status (not walked / walked / form done) and
 * the score. Pure over the season rows (features/season selectors, passed in by app/routes), read
 * through the typed model (lib/db/model.ts), so it is the same online and offline.
 */
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, type Form } from '../../lib/db/model';

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
  forms: Form[];
  status: PathStatus;
  /** Score of the latest completed form (else the latest form with a score). */
  score: number | null;
}

/** The walk's time from the `walk` column written by the recorder (features/map save-walk). */
function walkTime(value: unknown): string | null {
  if (value && typeof value === 'object' && typeof (value as { recordedAt?: unknown }).recordedAt === 'string') {
    return (value as { recordedAt: string }).recordedAt;
  }
  return null;
}

const day = (value: string | null) => (value ?? '').slice(0, 10);

/** The form that stands for a set of forms: the latest completed one, else the latest one. */
function representativeForm(forms: readonly Form[]): Form | null {
  const live = forms.filter((f) => !f.deleted && !f.archived);
  const done = live.filter((f) => f.completed === true);
  const pick = (list: Form[]) => [...list].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id).pop() ?? null;
  return pick(done) ?? pick(live);
}

export function buildPathRows(rows: SeasonRows, config: AppConfig): PathRow[] {
  const areas = new Map(rows.areas.filter((a) => !a.archived && !a.deleted).map((a) => [a.id, readRow(config, 'areas', a)]));
  const duration = rows.duration ? readRow(config, 'durations', rows.duration) : null;
  const durationId = duration?.id ?? null;
  const from = duration ? day(duration.filter_start) : '';
  const to = duration ? day(duration.filter_end) : '';
  const links = rows.durationPaths.filter((d) => !d.archived && !d.deleted).map((d) => readRow(config, 'durationPaths', d));
  const forms = rows.forms.map((f) => readRow(config, 'forms', f));
  const formsWithAnswers = rows.indicators
    ? new Set(rows.indicators.filter((i) => !i.deleted && !i.archived).map((i) => readRow(config, 'indicators', i).parent))
    : null;
  const answered = (form: Form) => formsWithAnswers === null || formsWithAnswers.has(form.id);
  const result: PathRow[] = [];
  for (const record of rows.paths) {
    if (record.archived || record.deleted) continue;
    const path = readRow(config, 'paths', record);
    const areaId = path.parent;
    if (areaId !== null && !areas.has(areaId) && rows.areas.some((a) => a.id === areaId)) continue; // archived area
    const link = durationId === null ? undefined : links.find((d) => d.path_id === path.id && d.duration_id === durationId);
    const own = link ? forms.filter((f) => !f.archived && !f.deleted && f.parent === link.id).sort((a, b) => a.id - b.id) : [];
    const lastWalk = walkTime(path.walk);
    const walkedThisSeason = lastWalk !== null && from !== '' && day(lastWalk) >= from && day(lastWalk) <= to;
    const done = own.some((f) => f.completed === true);
    const shown = representativeForm(own);
    result.push({
      id: path.id,
      name: path.name || `#${path.id}`,
      areaId,
      areaName: areaId !== null ? (areas.get(areaId)?.name ?? '') : '',
      lengthM: path.length_m,
      lastWalk,
      durationPathId: link?.id ?? null,
      forms: own,
      status: done ? 'form-done' : walkedThisSeason ? 'walked' : 'not-walked',
      score: shown && answered(shown) ? shown.score : null,
    });
  }
  return result.sort((a, b) => a.areaName.localeCompare(b.areaName, 'sl') || a.name.localeCompare(b.name, 'sl') || a.id - b.id);
}

/** Rows grouped by area, in the order of buildPathRows. */
export function groupByArea(
  rows: readonly PathRow[],
  areas: readonly StoredRecord[],
  config: AppConfig,
): Array<{ id: number; name: string; paths: PathRow[] }> {
  const groups = areas
    .filter((a) => !a.archived && !a.deleted)
    .map((a) => readRow(config, 'areas', a))
    .map((a) => ({ id: a.id, name: a.name || `#${a.id}`, paths: rows.filter((r) => r.areaId === a.id) }));
  return groups.sort((a, b) => a.name.localeCompare(b.name, 'sl') || a.id - b.id);
}

/** The season's paths grouped by their meadows (home). */
export function pathsByArea(rows: SeasonRows, config: AppConfig): Array<{ id: number; name: string; paths: PathRow[] }> {
  return groupByArea(buildPathRows(rows, config), rows.areas, config);
}
