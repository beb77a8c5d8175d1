/**
 * The review queue as rows: each waiting form with its farmer, meadow and path (the chain above it,
 * read from the server), its kind, state, when it was submitted and its score. Pure, so the screen
 * and its tests share it.
 */
import { reviewStateOf, type ReviewState } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import { classifyScore, type ScoreClass } from '../../../common/score';
import type { WireRecord } from '../../../common/schemas/wire';
import { readRow, type Form } from '../../lib/db/model';

export interface QueueRow {
  form: Form;
  /** The server's record of the form (stored on the device before a move is saved on it). */
  record: WireRecord;
  state: ReviewState;
  farmerId: number | null;
  farmerName: string;
  areaId: number | null;
  areaName: string;
  pathId: number | null;
  pathName: string;
  kindId: number | null;
  kindTitle: string;
  /** When the form entered its state (reviewed_at: the submission or the appeal), ISO. */
  submittedAt: string | null;
  score: number | null;
  scoreClass: ScoreClass | null;
}

export interface QueueChain {
  forms: readonly WireRecord[];
  links: readonly WireRecord[];
  paths: readonly WireRecord[];
  areas: readonly WireRecord[];
  farmers: readonly WireRecord[];
}

/** Rows of the waiting forms, oldest submission first (a form without a time last), then by id. */
export function queueRows(config: AppConfig, chain: QueueChain): QueueRow[] {
  const byId = <T extends 'durationPaths' | 'paths' | 'areas' | 'farmers'>(table: T, records: readonly WireRecord[]) =>
    new Map(records.map((r) => [r.id, readRow(config, table, r)]));
  const links = byId('durationPaths', chain.links);
  const paths = byId('paths', chain.paths);
  const areas = byId('areas', chain.areas);
  const farmers = byId('farmers', chain.farmers);
  const rows = chain.forms.map((record): QueueRow => {
    const form = readRow(config, 'forms', record);
    const link = form.parent !== null ? links.get(form.parent) : undefined;
    const pathId = link?.path_id ?? null;
    const path = pathId !== null ? paths.get(pathId) : undefined;
    const areaId = path?.parent ?? null;
    const area = areaId !== null ? areas.get(areaId) : undefined;
    const farmerId = area?.user ?? null;
    const farmer = farmerId !== null ? farmers.get(farmerId) : undefined;
    return {
      form,
      record,
      state: reviewStateOf(form.review_state),
      farmerId,
      farmerName: farmer?.name ?? (farmerId !== null ? `#${farmerId}` : ''),
      areaId,
      areaName: area?.name ?? (areaId !== null ? `#${areaId}` : ''),
      pathId,
      pathName: path?.name ?? (pathId !== null ? `#${pathId}` : ''),
      kindId: form.form_id,
      kindTitle: formKindById(form.form_id, config.forms)?.title ?? String(form.form_id ?? ''),
      submittedAt: form.reviewed_at,
      score: form.score,
      scoreClass: form.score === null ? null : classifyScore(form.score),
    };
  });
  return rows.sort((a, b) => (a.submittedAt ?? '\uffff').localeCompare(b.submittedAt ?? '\uffff') || a.form.id - b.form.id);
}

/** The choices of the screen's filters that the server does not apply (farmer and meadow). */
export interface LocalFilters {
  farmerId: number | null;
  areaId: number | null;
}

export function filterRows(rows: readonly QueueRow[], filters: LocalFilters): QueueRow[] {
  return rows.filter((r) => (filters.farmerId === null || r.farmerId === filters.farmerId) && (filters.areaId === null || r.areaId === filters.areaId));
}

/** Distinct values of the rows for a filter's options, by name. */
export function optionsOf(rows: readonly QueueRow[], pick: (row: QueueRow) => { id: number | null; name: string }): Array<{ id: number; name: string }> {
  const seen = new Map<number, string>();
  for (const row of rows) {
    const { id, name } = pick(row);
    if (id !== null && !seen.has(id)) seen.set(id, name);
  }
  return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, 'sl') || a.id - b.id);
}
