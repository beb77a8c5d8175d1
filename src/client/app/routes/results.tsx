/**
 * Results (seed §2 '/results'): features/results over the farmer's paths (features/season) and all
 * their seasons; editors export CSV with each form's change history (GET …/detailed, DESIGN §8)
 * and GeoJSON.
 */
import { useMemo } from 'react';
import type { DetailedFeature } from '../../../common/schemas/wire';
import { featuresApi } from '../../lib/api/features';
import { isLocalId } from '../../lib/db/local-data';
import { columnKey } from '../../lib/db/refs';
import { buildResults, historyText, resultsCsv, resultsGeoJson } from '../../features/results/results-model';
import { ResultsScreen } from '../../features/results/results-screen';
import { useSeasonHistory } from '../../features/results/use-season-history';
import { useAppDispatch } from '../hooks';
import type { ScreenProps } from '../router/routes';
import { useSeasonView } from './screen-data';

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function ResultsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const dispatch = useAppDispatch();
  const { config } = view;
  const pathIds = useMemo(() => view.paths.filter((p) => !p.archived).map((p) => p.id), [view.paths]);
  const history = useSeasonHistory(view.hasData ? config : null, pathIds, view.online, view.loadedAt);
  const rows = useMemo(() => (config && history.data ? buildResults(config, view, history.data) : null), [config, view, history.data]);
  if (!config) return null;
  const farmerName = (id: number | null) => String(view.farmers.find((f) => f.id === id)?.properties[columnKey(config, 'farmers', 'name')] ?? '');
  const staff = view.role === 'editor' || view.role === 'reader';
  const stamp = new Date().toISOString().slice(0, 10);
  return (
    <ResultsScreen
      rows={view.hasData ? rows : null}
      status={!view.hasData ? (view.status === 'failed' ? 'failed' : 'loading') : history.status}
      fromDevice={history.fromDevice || view.fromDevice}
      canExport={view.role === 'editor'}
      online={view.online}
      farmerName={staff ? farmerName(view.farmerId) || null : null}
      onExportCsv={async (shown) => {
        // Change history per form from the server (who, when, old → new); offline the file has none.
        let changes: Map<number, string> | undefined;
        if (view.online) {
          changes = new Map();
          const names = new Map<string, string>(Object.entries(config.tables.forms.columns).map(([name, id]) => [String(id), name]));
          for (const row of shown) {
            if (isLocalId(row.formId)) continue;
            const result = await dispatch(featuresApi.endpoints.featureDetailed.initiate({ projectId: config.projectId, tableId: config.tables.forms.id, recordId: row.formId }, { subscribe: false }));
            if (result.error) throw new Error('history failed');
            changes.set(row.formId, historyText((result.data as DetailedFeature).history ?? [], names));
          }
        }
        download(`rezultati-${stamp}.csv`, 'text/csv;charset=utf-8', resultsCsv(shown, farmerName, changes));
      }}
      onExportGeoJson={(shown) => download(`rezultati-${stamp}.geojson`, 'application/geo+json', resultsGeoJson(shown, farmerName))}
    />
  );
}
