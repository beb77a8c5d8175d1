/**
 * What '/results' shows, from the season rows (features/season, passed in by app/routes): farmers
 * see their own paths over all their seasons; editors and readers see all farmers at once
 * (useAllFarmers: every page of every farmer's rows, kept on the device for offline use). Editors
 * export CSV and GeoJSON of the shown rows with each form's change history (GET …/detailed), read a
 * few forms at a time with the progress on the button.
 */
import { useMemo, useRef, useState } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch } from '../../app/hooks';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import { downloadFile } from '../../lib/download-file';
import { fetchFormHistories } from './export-history';
import { buildAllFarmersResults, buildResults, resultsCsv, resultsGeoJson, type ResultRow } from './results-model';
import type { ResultsScreenProps } from './results-screen';
import { useAllFarmers } from './use-all-farmers';
import { useSeasonHistory } from './use-season-history';

export interface ResultsViewRows {
  config: AppConfig | null;
  role: 'editor' | 'reader' | 'farmer' | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  fromDevice: boolean;
  hasData: boolean;
  loadedAt: unknown;
  online: boolean;
  farmers: readonly StoredRecord[];
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
}

/** `reachable`: ask the server for all farmers' rows (it is not known to be out of reach). */
export function useResultsView(view: ResultsViewRows, reachable: boolean) {
  const dispatch = useAppDispatch();
  const { config } = view;
  const staff = view.role === 'editor' || view.role === 'reader';
  // Farmers: their own paths' seasons (the season chain); editors and readers: every farmer.
  const pathIds = useMemo(() => view.paths.filter((p) => !p.archived).map((p) => p.id), [view.paths]);
  const history = useSeasonHistory(view.hasData && !staff ? config : null, pathIds, view.online, view.loadedAt);
  const all = useAllFarmers(staff ? config : null, reachable, view.loadedAt);
  const farmerRows = staff ? all.data?.farmers : view.farmers;
  const farmerName = useMemo(() => {
    const names = new Map((farmerRows ?? []).map((f) => [f.id, config ? (readRow(config, 'farmers', f).name ?? '') : '']));
    return (id: number | null) => (id === null ? '' : (names.get(id) ?? ''));
  }, [farmerRows, config]);
  const farmers = useMemo(
    () =>
      staff && all.data
        ? all.data.farmers
            .filter((f) => !f.archived)
            .map((f) => ({ id: f.id, name: farmerName(f.id) || `#${f.id}` }))
            .sort((a, b) => a.name.localeCompare(b.name, 'sl') || a.id - b.id)
        : null,
    [staff, all.data, farmerName],
  );
  // Built only when their inputs change (not on every render, e.g. each export progress step).
  const { areas, paths, hasData } = view;
  const staffRows = useMemo(() => (config && all.data ? buildAllFarmersResults(config, all.data, all.data, farmerName) : null), [config, all.data, farmerName]);
  const ownRows = useMemo(
    () => (config && hasData && history.data ? buildResults(config, { areas, paths }, history.data) : null),
    [config, hasData, areas, paths, history.data],
  );
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  // History texts by form and its last change, kept between the CSV and GeoJSON exports.
  const historyCache = useRef(new Map<string, string>());
  if (!config) return null;
  const stamp = new Date().toISOString().slice(0, 10);
  // Change history per form from the server (who, when, old → new); offline the file has none.
  const histories = async (shown: ResultRow[]): Promise<Map<number, string> | undefined> => {
    if (!view.online) return undefined;
    try {
      return await fetchFormHistories(dispatch, config, shown, { cache: historyCache.current, onProgress: (done, total) => setProgress({ done, total }) });
    } finally {
      setProgress(null);
    }
  };
  const screen: ResultsScreenProps = {
    rows: staff ? staffRows : ownRows,
    status: staff ? all.status : !view.hasData ? (view.status === 'failed' ? 'failed' : 'loading') : history.status,
    fromDevice: staff ? all.fromDevice : history.fromDevice || view.fromDevice,
    canExport: view.role === 'editor',
    online: view.online,
    farmers,
    exportProgress: progress,
    onExportCsv: async (shown) => {
      const changes = await histories(shown);
      downloadFile(`rezultati-${stamp}.csv`, resultsCsv(shown, farmerName, changes), 'text/csv;charset=utf-8');
    },
    onExportGeoJson: async (shown) => {
      const changes = await histories(shown);
      downloadFile(`rezultati-${stamp}.geojson`, resultsGeoJson(shown, farmerName, changes), 'application/geo+json');
    },
  };
  // Farmers: their seasons, for each form's review state and the payment per meadow and season.
  return { screen, ownSeasons: !staff && hasData ? history.data : null };
}
