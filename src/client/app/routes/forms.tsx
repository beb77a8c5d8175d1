/** Forms ('/forms'): features/forms' list of this season's forms (features/season rows). */
import { useMemo } from 'react';
import { formKindById } from '../../../common/scheme/form-kinds';
import { FormsScreen, type FormListItem } from '../../features/forms';
import { buildPathRows } from '../../features/paths';
import { readRow } from '../../lib/db/model';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSeasonView, chooseFarmerFirst } from './screen-data';

export default function FormsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const reload = useReloadSeason();
  const { config } = view;
  const items = useMemo<FormListItem[]>(() => {
    if (!config) return [];
    return buildPathRows(view, config).flatMap((row) =>
      [...row.forms].reverse().map((form) => ({
        id: form.id,
        kindTitle: formKindById(form.form_id, config.forms)?.title ?? '',
        pathId: row.id,
        pathName: row.name,
        areaName: row.areaName,
        score: form.score,
        completed: form.completed === true,
        updatedAt: form.updatedAt,
      })),
    );
  }, [config, view]);
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
