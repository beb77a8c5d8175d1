/** Forms ('/forms'): features/forms' list of this season's forms (features/season rows). */
import { useMemo } from 'react';
import { FormsScreen, type FormListItem } from '../../features/forms';
import { buildPathRows } from '../../features/paths';
import { columnKey } from '../../lib/db/refs';
import type { ScreenProps } from '../router/routes';
import { useReloadSeason, useSeasonView, chooseFarmerFirst } from './screen-data';

export default function FormsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const reload = useReloadSeason();
  const { config } = view;
  const items = useMemo<FormListItem[]>(() => {
    if (!config) return [];
    const f = (c: string) => columnKey(config, 'forms', c);
    const kinds = Object.values(config.forms);
    return buildPathRows(view, config).flatMap((row) =>
      [...row.forms].reverse().map((form) => ({
        id: form.id,
        kindTitle: kinds.find((k) => k.id === form.properties[f('form_id')])?.title ?? '',
        pathId: row.id,
        pathName: row.name,
        areaName: row.areaName,
        score: typeof form.properties[f('score')] === 'number' ? (form.properties[f('score')] as number) : null,
        completed: form.properties[f('completed')] === true,
        updatedAt: form.updatedAt,
      })),
    );
  }, [config, view]);
  const seasonName = config && view.duration ? String(view.duration.properties[columnKey(config, 'durations', 'name')] ?? '') : null;
  return <FormsScreen items={items} seasonName={seasonName} status={config ? view.status : 'loading'} error={view.error} fromDevice={view.fromDevice} hasData={view.hasData} onRetry={reload} emptyText={chooseFarmerFirst(view)} />;
}
