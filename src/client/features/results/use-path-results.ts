/** One path's results over all its seasons (the path screen's "earlier seasons"), from its season history. */
import { useMemo } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { buildResults, type ResultRow } from './results-model';
import { useSeasonHistory } from './use-season-history';

export interface PathResultsRows {
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
  online: boolean;
  /** When the season was last loaded: the history reloads with it. */
  loadedAt: unknown;
}

export function usePathResults(config: AppConfig | null, rows: PathResultsRows, pathId: number) {
  const pathIds = useMemo(() => (Number.isFinite(pathId) ? [pathId] : []), [pathId]);
  const history = useSeasonHistory(config, pathIds, rows.online, rows.loadedAt);
  const results = useMemo<ResultRow[] | null>(
    () => (config && history.data ? buildResults(config, rows, history.data).filter((r) => r.pathId === pathId) : null),
    [config, rows, history.data, pathId],
  );
  return { rows: results, status: history.status, fromDevice: history.fromDevice };
}
