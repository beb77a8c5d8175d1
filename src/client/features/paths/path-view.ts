/**
 * What one path's screen shows, from the season rows (features/season, passed in by app/routes):
 * the path's row, its stored path and meadow records (for the map), this season's forms as the
 * screen lists them, the form kinds one may add, the season's name and who may edit. Pure apart
 * from the memo of the row.
 */
import { useMemo, type ReactNode } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import { buildPathRows, type PathRow, type SeasonRows } from './path-rows';
import type { PathFormItem, PathScreenProps } from './path-screen';

export interface PathViewRows extends SeasonRows {
  config: AppConfig | null;
  role: 'editor' | 'reader' | 'farmer' | null;
}

export interface PathView {
  /** What PathScreen shows of the rows. */
  props: Pick<PathScreenProps, 'row' | 'seasonName' | 'forms' | 'formKinds' | 'canEdit'>;
  row: PathRow | null;
  /** The path's stored record, for the walk recorder and the correction. */
  path: StoredRecord | undefined;
  /** Editors archive paths. */
  canArchive: boolean;
  /** The records the map shows: the meadow and the path (not while its line is being corrected: Draw shows it). */
  mapRows: (correcting: boolean) => { areas: StoredRecord[]; paths: StoredRecord[]; selectedPathId: number };
}

/**
 * The path screen's rows, or null without config.json. `review` renders a form's review state
 * from its stored record (features/review, passed in by app/routes).
 */
export function usePathView(rows: PathViewRows, pathId: number, review: (form: StoredRecord) => ReactNode): PathView | null {
  const { config } = rows;
  const row = useMemo(() => (config ? (buildPathRows(rows, config).find((r) => r.id === pathId) ?? null) : null), [config, rows, pathId]);
  if (!config) return null;
  const forms: PathFormItem[] = (row?.forms ?? []).map((form) => {
    const stored = rows.forms.find((f) => f.id === form.id);
    return {
      id: form.id,
      kindTitle: formKindById(form.form_id, config.forms)?.title ?? '',
      score: form.score,
      completed: form.completed === true,
      updatedAt: form.updatedAt,
      review: stored ? review(stored) : undefined,
    };
  });
  const path = rows.paths.find((p) => p.id === pathId);
  const area = rows.areas.find((a) => a.id === row?.areaId);
  return {
    props: {
      row,
      seasonName: rows.duration ? (readRow(config, 'durations', rows.duration).name ?? '') : null,
      forms,
      formKinds: Object.values(config.forms).map((k) => ({ id: k.id, title: k.title })),
      canEdit: rows.role === 'farmer' || rows.role === 'editor',
    },
    row,
    path,
    canArchive: rows.role === 'editor',
    mapRows: (correcting) => ({ areas: area ? [area] : [], paths: path && !correcting ? [path] : [], selectedPathId: pathId }),
  };
}

/** The path screen before config.json is there: loading, nothing to add or open. */
export const pathScreenLoading: PathScreenProps = {
  row: null,
  seasonName: null,
  forms: [],
  formKinds: [],
  canEdit: false,
  status: 'loading',
  error: null,
  fromDevice: false,
  hasData: false,
  onAddForm: async () => 0,
  onOpenForm: () => undefined,
};
