/**
 * Forms ('/forms'): this season's forms of every path, newest first per path, with their
 * kind, state (completed or in progress), last change and score. New forms are added on a path's
 * screen, where the season's duration-path is.
 */
import { sl, slScreens } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import type { Form } from '../../lib/db/model';
import { EmptyState } from '../../components/empty-state/empty-state';
import { FormIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import { FormRow } from '../../components/form-row/form-row';
import { ScreenState } from '../../components/screen-state/screen-state';
import { routeHref } from '../../lib/links';

export interface FormListItem {
  id: number;
  kindTitle: string;
  pathId: number;
  pathName: string;
  areaName: string;
  score: number | null;
  completed: boolean;
  updatedAt: string;
}

/** The season's forms, newest first within each path, from the paths as features/paths lists them (app/routes passes them in). */
export function formListItems(config: AppConfig, paths: ReadonlyArray<{ id: number; name: string; areaName: string; forms: readonly Form[] }>): FormListItem[] {
  return paths.flatMap((row) =>
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
}

export interface FormsScreenProps {
  items: FormListItem[];
  seasonName: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  fromDevice: boolean;
  hasData: boolean;
  onRetry?: () => void;
  /** What the empty list says instead (editors and readers before they chose a farmer); it then links to home, where they choose one. */
  emptyText?: string;
}

export function FormsScreen({ items, seasonName, status, error, fromDevice, hasData, onRetry, emptyText }: FormsScreenProps) {
  const byPath = new Map<number, FormListItem[]>();
  for (const item of items) byPath.set(item.pathId, [...(byPath.get(item.pathId) ?? []), item]);
  return (
    <Page title={sl.screens.forms.title} lead={seasonName ? `${sl.screens.forms.lead} ${slScreens.home.seasonTitle(seasonName)}.` : sl.screens.forms.lead}>
      <ScreenState status={status} hasData={hasData} error={error} fromDevice={fromDevice} onRetry={onRetry}>
        {items.length === 0 ? (
          <EmptyState icon={FormIcon} action={emptyText ? <a href={routeHref('home')}>{sl.nav.home}</a> : <a href={routeHref('paths')}>{sl.nav.paths}</a>}>
            <p>{emptyText ?? sl.screens.forms.empty}</p>
            {emptyText ? null : <p>{sl.screens.forms.emptyHint}</p>}
          </EmptyState>
        ) : (
          [...byPath.entries()].map(([pathId, list]) => (
            <section key={pathId} className="card" aria-labelledby={`forms-path-${pathId}`}>
              <h2 id={`forms-path-${pathId}`}>
                <a href={routeHref('path', { pathId })}>{list[0]!.pathName}</a> <span className="muted small">{list[0]!.areaName}</span>
              </h2>
              <ul className="row-list">
                {list.map((f) => (
                  <FormRow key={f.id} form={f} testId={`form-item-${f.id}`} />
                ))}
              </ul>
            </section>
          ))
        )}
      </ScreenState>
    </Page>
  );
}
