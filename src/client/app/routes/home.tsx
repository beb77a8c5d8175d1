/**
 * Home ('/'): the current season per meadow with its paths (features/home), built from the
 * season rows (features/season) by features/paths, with a farmer's review to-do (features/review);
 * editors and readers also get the farmers panel (features/farmers), and choosing a farmer loads
 * that farmer's season.
 */
import { useMemo } from 'react';
import { farmerChosen } from '../../features/season';
import { HomeScreen, homeFarmerName, useHomeSeason } from '../../features/home';
import { pathsByArea } from '../../features/paths';
import { FarmersPanel, useFarmersProgress } from '../../features/farmers';
import { useFarmerTodo } from '../../features/review';
import { archiveEdit } from '../../lib/db/archive-edit';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch } from '../hooks';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSaveEdits, useSeasonView, type SeasonView } from './screen-data';
import { routeHref } from '../../lib/links';
import { homeSnapshotKey } from '../../lib/home-snapshot';

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
  const areas = useMemo(() => (config ? pathsByArea(view, config) : []), [config, view]);
  const season = useHomeSeason(config, view.duration);
  const todo = useFarmerTodo(config, view);
  const staff = view.role === 'editor' || view.role === 'reader';
  return (
    <HomeScreen
      role={view.role}
      status={config ? view.status : 'loading'}
      error={view.error}
      fromDevice={view.fromDevice}
      season={season}
      areas={areas}
      farmerName={homeFarmerName(config, view.farmers, view.farmerId)}
      hasFarmer={view.farmerId !== null}
      sync={{ online: view.online, pending: view.pending, lastSyncAt: view.lastSyncAt }}
      farmersPanel={staff && config ? <StaffPanel view={view} config={config} /> : undefined}
      todo={todo}
      onRetry={reload}
      onArchiveArea={
        view.role === 'editor' && config
          ? async (areaId) => {
              // One archive edit through the outbox (works offline); the area's paths leave every
              // view with it (path-rows skips paths of archived areas), so they are not archived one by one.
              await saveEdits([archiveEdit(config, 'areas', areaId)]);
            }
          : undefined
      }
      newPathHref={view.role === 'farmer' || view.role === 'editor' ? (areaId) => routeHref('path-new', {}, { area: areaId }) : undefined}
      snapshotKey={config && view.email ? homeSnapshotKey(config.projectId, view.email) : null}
    />
  );
}
