/**
 * Home ('/'): the current season per meadow with its paths (features/home), built from the
 * season rows (features/season) by features/paths; editors and readers also get the farmers panel
 * (features/farmers), and choosing a farmer loads that farmer's season.
 */
import { useMemo } from 'react';
import { farmerChosen } from '../../features/season';
import { HomeScreen } from '../../features/home';
import { buildPathRows, groupByArea } from '../../features/paths';
import { FarmersPanel, useFarmersProgress } from '../../features/farmers';
import { readRow } from '../../lib/db/model';
import { dayInSlovenia } from '../../../common/review';
import { formKindById } from '../../../common/scheme/form-kinds';
import { farmerTodo, ReviewTodo } from '../../features/review';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch } from '../hooks';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSaveEdits, useSeasonView, type SeasonView } from './screen-data';
import { routeHref } from '../../lib/links';

function StaffPanel({ view, config }: { view: SeasonView; config: AppConfig }) {
  const dispatch = useAppDispatch();
  const progress = useFarmersProgress(config, view.duration?.id ?? null, view.online);
  return (
    <FarmersPanel
      config={config}
      farmers={view.farmers}
      selectedId={view.farmerId}
      onChoose={(id) => dispatch(farmerChosen(id))}
      online={view.online}
      progress={progress}
    />
  );
}

export default function HomeRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const reload = useReloadSeason();
  const saveEdits = useSaveEdits();
  const { config } = view;
  const areas = useMemo(() => {
    if (!config) return [];
    const rows = buildPathRows(view, config);
    return groupByArea(rows, view.areas, config);
  }, [config, view]);
  const season = useMemo(() => {
    if (!config || !view.duration) return null;
    const duration = readRow(config, 'durations', view.duration);
    const day = (v: string | null) => (v ?? '').slice(0, 10);
    return { name: duration.name ?? '', from: day(duration.filter_start), to: day(duration.filter_end) };
  }, [config, view.duration]);
  const todo = useMemo(() => (config && view.role === 'farmer' ? farmerTodo(config, view, dayInSlovenia(new Date())) : null), [config, view]);
  const formLabel = (formId: number) => {
    if (!config) return '';
    const form = view.forms.find((f) => f.id === formId);
    if (!form) return '';
    const row = readRow(config, 'forms', form);
    const link = view.durationPaths.find((d) => d.id === row.parent);
    const path = link ? view.paths.find((p) => p.id === readRow(config, 'durationPaths', link).path_id) : undefined;
    return [formKindById(row.form_id, config.forms)?.title, path ? readRow(config, 'paths', path).name : null].filter(Boolean).join(' · ');
  };
  const farmer = view.farmers.find((f) => f.id === view.farmerId);
  const staff = view.role === 'editor' || view.role === 'reader';
  return (
    <HomeScreen
      role={view.role}
      status={config ? view.status : 'loading'}
      error={view.error}
      fromDevice={view.fromDevice}
      season={season}
      areas={areas}
      farmerName={farmer && config ? (readRow(config, 'farmers', farmer).name ?? '') : null}
      hasFarmer={view.farmerId !== null}
      sync={{ online: view.online, pending: view.pending, lastSyncAt: view.lastSyncAt }}
      farmersPanel={staff && config ? <StaffPanel view={view} config={config} /> : undefined}
      todo={todo && view.forms.length ? <ReviewTodo todo={todo} formLabel={formLabel} /> : undefined}
      onRetry={reload}
      onArchiveArea={
        view.role === 'editor' && config
          ? async (areaId) => {
              // One archive edit through the outbox (works offline); the area's paths leave every
              // view with it (path-rows skips paths of archived areas), so they are not archived one by one.
              await saveEdits([{ kind: 'archive', projectId: config.projectId, tableId: config.tables.areas.id, id: areaId }]);
            }
          : undefined
      }
      newPathHref={view.role === 'farmer' || view.role === 'editor' ? (areaId) => routeHref('path-new', {}, { area: areaId }) : undefined}
      snapshotKey={config && view.email ? `${config.projectId}:${view.email}` : null}
    />
  );
}
