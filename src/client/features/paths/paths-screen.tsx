/**
 * Paths ('/paths'): every path of the farmer with its meadow, length, last walk, this
 * season's status and score. A list of cards on a phone, a table on a desk (CSS switches at the
 * 480 px mobile breakpoint). Pure props; app/routes passes the rows.
 */
import { formatDate, formatNumber } from '../../../common/format';
import { sl, slScreens } from '../../../common/i18n/sl';
import { EmptyState } from '../../components/empty-state/empty-state';
import { ChevronRightIcon, PathIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import { ScoreBadge } from '../../components/score-badge/score-badge';
import { ScreenState } from '../../components/screen-state/screen-state';
import type { PathRow, PathStatus } from './path-rows';
import { routeHref } from '../../lib/links';

export function formatLength(m: number | null): string {
  if (m === null) return '–';
  return m >= 1000 ? `${formatNumber(m / 1000, 2)} km` : `${formatNumber(m, 0)} m`;
}

export function PathStatusChip({ status }: { status: PathStatus }) {
  return (
    <span className={`status-chip status-chip--${status}`} data-status={status}>
      {slScreens.status[status]}
    </span>
  );
}

export interface PathsScreenProps {
  rows: PathRow[];
  status: 'idle' | 'loading' | 'ready' | 'failed';
  error: string | null;
  fromDevice: boolean;
  hasData: boolean;
  onRetry?: () => void;
  /** What the empty list says instead (editors and readers before they chose a farmer); it then links to home, where they choose one. */
  emptyText?: string;
}

export function PathsScreen({ rows, status, error, fromDevice, hasData, onRetry, emptyText }: PathsScreenProps) {
  const t = slScreens.paths;
  return (
    <Page title={sl.screens.paths.title} lead={sl.screens.paths.lead}>
      <ScreenState status={status} hasData={hasData} error={error} fromDevice={fromDevice} onRetry={onRetry}>
        {rows.length === 0 ? (
          <EmptyState icon={PathIcon} action={emptyText ? <a href={routeHref('home')}>{sl.nav.home}</a> : undefined}>
            <p>{emptyText ?? sl.screens.paths.empty}</p>
          </EmptyState>
        ) : (
          <table className="data-table paths-table">
            <thead>
              <tr>
                <th scope="col">{slScreens.forms.path}</th>
                <th scope="col">{t.area}</th>
                <th scope="col">{t.length}</th>
                <th scope="col">{t.lastWalk}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{slScreens.score.label}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid={`path-row-${row.id}`}>
                  <th scope="row" data-label={slScreens.forms.path}>
                    <a href={routeHref('path', { pathId: row.id })} className="table-link">
                      {row.name} <ChevronRightIcon size={18} aria-hidden="true" />
                    </a>
                  </th>
                  <td data-label={t.area}>{row.areaName}</td>
                  <td data-label={t.length}>{formatLength(row.lengthM)}</td>
                  <td data-label={t.lastWalk}>{row.lastWalk ? formatDate(row.lastWalk) : t.notWalked}</td>
                  <td data-label={t.status}>
                    <PathStatusChip status={row.status} />
                  </td>
                  <td data-label={slScreens.score.label}>
                    <ScoreBadge score={row.score} size="small" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ScreenState>
    </Page>
  );
}
