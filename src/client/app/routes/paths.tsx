/** Paths ('/paths'): features/paths' list over the season rows of features/season. */
import { useMemo } from 'react';
import { PathsScreen, buildPathRows } from '../../features/paths';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSeasonView, chooseFarmerFirst } from './screen-data';

export default function PathsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const reload = useReloadSeason();
  const { config } = view;
  const rows = useMemo(() => (config ? buildPathRows(view, config) : []), [config, view]);
  return (
    <PathsScreen
      rows={rows}
      status={config ? view.status : 'loading'}
      error={view.error}
      fromDevice={view.fromDevice}
      hasData={view.hasData}
      onRetry={reload}
      emptyText={chooseFarmerFirst(view)}
    />
  );
}
