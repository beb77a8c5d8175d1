/**
 * Results ('/results'): features/results. Farmers see their own paths (features/season)
 * over all their seasons; editors and readers see all farmers at once (features/results
 * useAllFarmers: every page of every farmer's rows, kept on the device for offline use). Editors
 * export CSV and GeoJSON of the shown rows with each form's change history (GET …/detailed),
 * read a few forms at a time with the progress on the button.
 */
import { useMemo, useRef, useState } from 'react';
import {
  fetchFormHistories,
  buildAllFarmersResults,
  buildResults,
  resultsCsv,
  resultsGeoJson,
  type ResultRow,
  ResultsScreen,
  useAllFarmers,
  useSeasonHistory,
} from '../../features/results';
import { readRow } from '../../lib/db/model';
import { downloadFile } from '../../lib/download-file';
import { selectBrowserOnline, selectServerReachable } from '../../features/sync';
import { buildReviewResults, ReviewResults } from '../../features/review';
import { useAppDispatch, useAppSelector } from '../hooks';
import type { ScreenProps } from '../router/routes';
import { useSeasonView } from './screen-data';

export default function ResultsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const dispatch = useAppDispatch();
  const { config } = view;
  const staff = view.role === 'editor' || view.role === 'reader';
  // Farmers: their own paths' seasons (the season chain); editors and readers: every farmer.
  const pathIds = useMemo(() => view.paths.filter((p) => !p.archived).map((p) => p.id), [view.paths]);
  const history = useSeasonHistory(view.hasData && !staff ? config : null, pathIds, view.online, view.loadedAt);
  // Like the season chain: ask the server unless it is known to be out of reach (before the first
  // probe too, so a fresh start shows 'Nalagam...' rather than an empty device copy).
  const browserOnline = useAppSelector(selectBrowserOnline);
  const serverReachable = useAppSelector(selectServerReachable);
  const all = useAllFarmers(staff ? config : null, browserOnline && serverReachable !== false, view.loadedAt);
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
  const rows = staff ? staffRows : ownRows;
  // Farmers: each form's review state and the informative payment per meadow and season.
  const reviewRows = useMemo(
    () => (config && !staff && hasData && history.data ? buildReviewResults(config, { areas, paths }, history.data) : null),
    [config, staff, hasData, areas, paths, history.data],
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
  const status = staff ? all.status : !view.hasData ? (view.status === 'failed' ? 'failed' : 'loading') : history.status;
  return (
    <>
      <ResultsScreen
        rows={rows}
        status={status}
        fromDevice={staff ? all.fromDevice : history.fromDevice || view.fromDevice}
        canExport={view.role === 'editor'}
        online={view.online}
        farmers={farmers}
        exportProgress={progress}
        onExportCsv={async (shown) => {
          const changes = await histories(shown);
          downloadFile(`rezultati-${stamp}.csv`, resultsCsv(shown, farmerName, changes), 'text/csv;charset=utf-8');
        }}
        onExportGeoJson={async (shown) => {
          const changes = await histories(shown);
          downloadFile(`rezultati-${stamp}.geojson`, resultsGeoJson(shown, farmerName, changes), 'application/geo+json');
        }}
      />
      {reviewRows ? (
        <div className="page review-results-page">
          <ReviewResults rows={reviewRows} />
        </div>
      ) : null}
    </>
  );
}
