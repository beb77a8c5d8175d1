/** Forms ('/forms'): features/forms' list of this season's forms (features/season rows, listed per path by features/paths). */
import { useMemo } from 'react';
import { FormsScreen, formListItems } from '../../features/forms';
import { buildPathRows } from '../../features/paths';
import { readRow } from '../../lib/db/model';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSeasonView, chooseFarmerFirst } from './screen-data';

export default function FormsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const reload = useReloadSeason();
  const { config } = view;
  const items = useMemo(() => (config ? formListItems(config, buildPathRows(view, config)) : []), [config, view]);
  const seasonName = config && view.duration ? (readRow(config, 'durations', view.duration).name ?? '') : null;
  return (
    <FormsScreen
      items={items}
      seasonName={seasonName}
      status={config ? view.status : 'loading'}
      error={view.error}
      fromDevice={view.fromDevice}
      hasData={view.hasData}
      onRetry={reload}
      emptyText={chooseFarmerFirst(view)}
    />
  );
}
