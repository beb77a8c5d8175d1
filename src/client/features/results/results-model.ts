/**
 * Results as rows: one per form (a path may have two forms of a kind in a season; each is a
 * result and counts in the summaries), with its stored score, the explanation recomputed from its
 * indicators (src/common/scheme), and the same path's score in the season before. Pure, so the
 * screen, the path screen and the exports share it.
 */
import { csvText } from '../../../common/csv';
import { changeText } from '../../../common/history-diff';
import { formatDateTime } from '../../../common/format';
import { sl, slAudit, slReview, slReviewQueue, slScreens } from '../../../common/i18n/sl';
import { reviewStateOf, type ReviewState } from '../../../common/review';
import { classifyScore, type ScoreClass } from '../../../common/score';
import { computeScore, valuesFromIndicators, type ScoreResult } from '../../../common/scheme/scoring';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import type { AuditEntry } from '../../../common/schemas/audit';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, type Form, type Indicator } from '../../lib/db/model';
import type { SeasonHistory } from './use-season-history';

export interface ResultRow {
  pathId: number;
  pathName: string;
  areaId: number | null;
  areaName: string;
  farmerId: number | null;
  durationId: number;
  seasonName: string;
  seasonStart: string;
  formId: number;
  kindId: number | null;
  kindTitle: string;
  score: number | null;
  scoreClass: ScoreClass | null;
  ruleVersion: string;
  completed: boolean;
  updatedAt: string;
  /** The review (common/review.ts): the state, who moved the form to it, when, and why. */
  reviewState: ReviewState;
  reviewedBy: string | null;
  reviewedAt: string | null;
  reviewReason: string | null;
  explanation: ScoreResult | null;
  previous: { score: number | null; seasonName: string } | null;
  geometry: StoredRecord['geometry'];
}

/** The explained score of a form from its indicators rows (null for an unknown kind). */
function explainForm(config: AppConfig, form: Form, indicators: readonly Indicator[]): ScoreResult | null {
  const kind = formKindById(form.form_id, config.forms);
  if (!kind) return null;
  const rows = [...indicators].sort((a, b) => a.id - b.id).map((i) => ({ key: i.key ?? '', value: i.value, deleted: i.deleted, archived: i.archived }));
  return computeScore(kind, valuesFromIndicators(kind, rows));
}

export function buildResults(config: AppConfig, base: { areas: readonly StoredRecord[]; paths: readonly StoredRecord[] }, history: SeasonHistory): ResultRow[] {
  const areas = new Map(base.areas.filter((a) => !a.archived).map((a) => [a.id, readRow(config, 'areas', a)]));
  const paths = new Map(base.paths.filter((p) => !p.archived).map((p) => [p.id, readRow(config, 'paths', p)]));
  const durations = new Map(history.durations.map((d) => [d.id, readRow(config, 'durations', d)]));
  const links = new Map(history.durationPaths.filter((d) => !d.archived && !d.deleted).map((d) => [d.id, readRow(config, 'durationPaths', d)]));
  // Each form's indicators, read once (every season of every farmer, for editors).
  const indicatorsOf = new Map<number, Indicator[]>();
  for (const record of history.indicators) {
    const indicator = readRow(config, 'indicators', record);
    if (indicator.parent === null) continue;
    const list = indicatorsOf.get(indicator.parent) ?? [];
    list.push(indicator);
    indicatorsOf.set(indicator.parent, list);
  }
  const live: Array<{ form: Form; pathId: number; durationId: number }> = [];
  for (const record of history.forms) {
    if (record.archived || record.deleted) continue;
    const form = readRow(config, 'forms', record);
    const link = links.get(form.parent ?? -1);
    if (!link) continue;
    const pathId = link.path_id;
    const durationId = link.duration_id;
    if (pathId === null || durationId === null || !paths.has(pathId) || !durations.has(durationId)) continue;
    live.push({ form, pathId, durationId });
  }
  const rows: ResultRow[] = [];
  for (const { form, pathId, durationId } of live) {
    const path = paths.get(pathId)!;
    const duration = durations.get(durationId)!;
    const areaId = path.parent;
    const area = areaId !== null ? areas.get(areaId) : undefined;
    const kindId = form.form_id;
    const score = form.score;
    rows.push({
      pathId,
      pathName: path.name ?? `#${pathId}`,
      areaId,
      areaName: area?.name ?? '',
      farmerId: area ? area.user : null,
      durationId,
      seasonName: duration.name ?? `#${durationId}`,
      seasonStart: duration.filter_start ?? '',
      formId: form.id,
      kindId,
      kindTitle: formKindById(kindId, config.forms)?.title ?? String(kindId ?? ''),
      score,
      scoreClass: score === null ? null : classifyScore(score),
      ruleVersion: form.rule_version ?? '',
      completed: form.completed === true,
      updatedAt: form.updatedAt,
      reviewState: reviewStateOf(form.review_state),
      reviewedBy: form.reviewed_by,
      reviewedAt: form.reviewed_at,
      reviewReason: form.review_reason,
      explanation: explainForm(config, form, indicatorsOf.get(form.id) ?? []),
      previous: null,
      geometry: path.geometry ?? null,
    });
  }
  // The season before, per path and kind (its latest form when it had several).
  const byPathKind = new Map<string, ResultRow[]>();
  for (const row of rows) {
    const list = byPathKind.get(`${row.pathId}:${row.kindId}`) ?? [];
    list.push(row);
    byPathKind.set(`${row.pathId}:${row.kindId}`, list);
  }
  for (const list of byPathKind.values()) {
    list.sort((a, b) => a.seasonStart.localeCompare(b.seasonStart) || a.updatedAt.localeCompare(b.updatedAt) || a.formId - b.formId);
    for (const row of list) {
      const before = list.filter((r) => r.seasonStart < row.seasonStart).at(-1);
      if (before) row.previous = { score: before.score, seasonName: before.seasonName };
    }
  }
  return rows.sort(
    (a, b) =>
      b.seasonStart.localeCompare(a.seasonStart) ||
      a.areaName.localeCompare(b.areaName, 'sl') ||
      a.pathName.localeCompare(b.pathName, 'sl') ||
      (a.kindId ?? 0) - (b.kindId ?? 0) ||
      a.formId - b.formId,
  );
}

/**
 * All farmers' results (editors and readers): rows of live paths on live areas of live farmers
 * only (an archived area or farmer takes its paths' results with it), newest season first, then
 * by farmer, area and path.
 */
export function buildAllFarmersResults(
  config: AppConfig,
  data: { farmers: readonly StoredRecord[]; areas: readonly StoredRecord[]; paths: readonly StoredRecord[] },
  history: SeasonHistory,
  farmerName: (id: number | null) => string,
): ResultRow[] {
  const archivedFarmers = new Set(data.farmers.filter((f) => f.archived).map((f) => f.id));
  const areas = data.areas.filter((a) => !a.archived && !archivedFarmers.has(readRow(config, 'areas', a).user ?? -1));
  const areaIds = new Set(areas.map((a) => a.id));
  const paths = data.paths.filter((p) => !p.archived && areaIds.has(readRow(config, 'paths', p).parent ?? -1));
  const names = new Map<number | null, string>();
  const nameOf = (id: number | null) => {
    if (!names.has(id)) names.set(id, farmerName(id));
    return names.get(id)!;
  };
  return buildResults(config, { areas, paths }, history).sort(
    (a, b) =>
      b.seasonStart.localeCompare(a.seasonStart) ||
      nameOf(a.farmerId).localeCompare(nameOf(b.farmerId), 'sl') ||
      (a.farmerId ?? 0) - (b.farmerId ?? 0) ||
      a.areaName.localeCompare(b.areaName, 'sl') ||
      a.pathName.localeCompare(b.pathName, 'sl') ||
      (a.kindId ?? 0) - (b.kindId ?? 0),
  );
}

export interface ScoreSummary {
  key: string;
  name: string;
  /** Rows (forms) in the group, and how many of them have a score. */
  forms: number;
  scored: number;
  average: number | null;
}

/** Average score of rows grouped by `keyOf` (per farmer, per area), in the order first seen. */
export function summarise(rows: readonly ResultRow[], keyOf: (row: ResultRow) => string, nameOf: (row: ResultRow) => string): ScoreSummary[] {
  const groups = new Map<string, { name: string; forms: number; scores: number[] }>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key) ?? { name: nameOf(row), forms: 0, scores: [] };
    group.forms += 1;
    if (row.score !== null) group.scores.push(row.score);
    groups.set(key, group);
  }
  return [...groups].map(([key, g]) => ({
    key,
    name: g.name,
    forms: g.forms,
    scored: g.scores.length,
    average: g.scores.length ? Math.round(g.scores.reduce((a, b) => a + b, 0) / g.scores.length) : null,
  }));
}

/** Seasons present in the rows, newest first. */
export function seasonsOf(rows: readonly ResultRow[]): Array<{ id: number; name: string; start: string }> {
  const seen = new Map<number, { id: number; name: string; start: string }>();
  for (const r of rows) if (!seen.has(r.durationId)) seen.set(r.durationId, { id: r.durationId, name: r.seasonName, start: r.seasonStart });
  return [...seen.values()].sort((a, b) => b.start.localeCompare(a.start));
}

/**
 * A form's trail as one cell of the export, oldest first: '1. 6. 2026, 12:00 kmet1@example.si
 * ustvarjeno | 2. 6. 2026, 12:00 urednik@example.si spremenjeno · Kukavica: vrednost: Ne → Da'
 * (a row under the form named, values by their names, whole).
 */
export function historyText(entries: readonly AuditEntry[]): string {
  const t = slAudit;
  return [...entries]
    .reverse()
    .map((e) => {
      const under = e.record && e.table !== 'forms' ? ` · ${e.record}` : '';
      const changes = e.changes.map((c) => changeText(c, Number.POSITIVE_INFINITY));
      return `${formatDateTime(e.changedAt)} ${e.changedBy ?? t.unknownUser} ${t.actions[e.action]}${under}${changes.length ? `: ${changes.join(', ')}` : ''}`;
    })
    .join(' | ');
}

/** The review of a row as the exports write it: the state as a Slovenian word, who, when (formatted), why. */
function reviewColumns(r: ResultRow) {
  return {
    state: slReview.state[r.reviewState],
    by: r.reviewedBy ?? '',
    at: r.reviewedAt ? formatDateTime(r.reviewedAt) : '',
    reason: r.reviewReason ?? '',
  };
}

/** The same, under the form's column names (GeoJSON properties). */
function reviewProperties(r: ResultRow) {
  const { state, by, at, reason } = reviewColumns(r);
  return { review_state: state, reviewed_by: by, reviewed_at: at, review_reason: reason };
}

/** CSV (semicolon separated, as Slovenian spreadsheets expect) with a header row. */
export function resultsCsv(rows: readonly ResultRow[], farmerName: (id: number | null) => string, history?: Map<number, string>): string {
  const h = slScreens.results.csv;
  const rv = slReviewQueue.csv;
  const header = [
    h.farmer,
    h.area,
    h.path,
    h.season,
    h.form,
    h.kind,
    h.score,
    h.class,
    h.rule,
    h.completed,
    h.updated,
    rv.state,
    rv.by,
    rv.at,
    rv.reason,
    ...(history ? [h.history] : []),
  ];
  const lines = rows.map((r) => [
    farmerName(r.farmerId),
    r.areaName,
    r.pathName,
    r.seasonName,
    r.formId,
    r.kindTitle,
    r.score ?? '',
    r.scoreClass ? sl.scheme.scoreClass[r.scoreClass] : '',
    r.ruleVersion,
    r.completed ? slScreens.forms.yes : slScreens.forms.no,
    r.updatedAt,
    ...Object.values(reviewColumns(r)),
    ...(history ? [history.get(r.formId) ?? ''] : []),
  ]);
  return csvText(header, lines);
}

/** GeoJSON of the season: each path's line with its result (and the form's history, when given) as properties. */
export function resultsGeoJson(rows: readonly ResultRow[], farmerName: (id: number | null) => string, history?: Map<number, string>): string {
  return JSON.stringify({
    type: 'FeatureCollection',
    features: rows
      .filter((r) => r.geometry)
      .map((r) => ({
        type: 'Feature',
        id: r.formId,
        geometry: r.geometry,
        properties: {
          farmer: farmerName(r.farmerId),
          area: r.areaName,
          path: r.pathName,
          season: r.seasonName,
          form: r.formId,
          kind: r.kindTitle,
          score: r.score,
          class: r.scoreClass,
          rule_version: r.ruleVersion,
          completed: r.completed,
          updated: r.updatedAt,
          ...reviewProperties(r),
          ...(history ? { history: history.get(r.formId) ?? '' } : {}),
        },
      })),
  });
}
