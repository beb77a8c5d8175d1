/**
 * The forms waiting for advisers, read from the server with the app's records search (RTK Query,
 * lib/api): the forms in a waiting state (review_state submitted or appealed, or the one chosen;
 * of the chosen kind), oldest submission first, then the chain above them — season links, paths,
 * meadows, farmers — by id, each step once the one before answered. Every read provides the
 * 'Record' tag, so a delivered move (the outbox's bulk call invalidates it) reads them again.
 * Online only: the queue spans every farmer, which no device holds.
 */
import { PAGE_SIZE } from '../../../common/constants';
import { and, eq, isIn, type FilterNode } from '../../../common/filter';
import { AWAITING_REVIEW, type ReviewState } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import type { RecordPage, WireRecord } from '../../../common/schemas/wire';
import type { ApiError } from '../../lib/api/base-query';
import { recordsApi } from '../../lib/api/records';
import { readRow } from '../../lib/db/model';
import type { QueueChain } from './review-queue-model';

const searchRecords = recordsApi.endpoints.searchRecords;

/** The server-side choices of the queue: which waiting state, which form kind. */
export interface QueueQuery {
  state: ReviewState | 'waiting';
  kindId: number | null;
}

/** The filter of the waiting forms (a state of AWAITING_REVIEW, or all of them), live ones only. */
function waitingFilter(config: AppConfig, state: QueueQuery['state'] = 'waiting', kindId: number | null = null): FilterNode {
  const columns = config.tables.forms.columns;
  const states = state === 'waiting' ? [...AWAITING_REVIEW] : [state];
  return and(isIn(columns.review_state, states), eq('archived', false), ...(kindId !== null ? [eq(columns.form_id, kindId)] : []));
}

export type QueueData = { status: 'loading' } | { status: 'failed'; error: string | undefined } | { status: 'ready'; chain: QueueChain; totalCount: number };

function ids(values: Iterable<number | null>): number[] {
  return [...new Set([...values].filter((v): v is number => v !== null))].sort((a, b) => a - b);
}

/** One table's rows by id (skipped while the ids are not known; none asked → none). */
function useRowsById(config: AppConfig | null, table: TableKey, wanted: number[] | undefined, skip: boolean) {
  const asked = !skip && config && wanted && wanted.length > 0;
  const result = searchRecords.useQuery(
    asked
      ? { projectId: config.projectId, body: { tableId: config.tables[table].id, page: 1, perPage: PAGE_SIZE, filters: isIn('id', wanted) } }
      : { projectId: 0, body: { tableId: 0 } },
    { skip: !asked, refetchOnMountOrArgChange: true },
  );
  const none: WireRecord[] = [];
  const rows = !wanted ? undefined : wanted.length === 0 ? none : result.currentData?.records;
  return { rows, error: asked ? (result.error as ApiError | undefined) : undefined, fetching: result.isFetching };
}

export function useReviewQueue(config: AppConfig | null, online: boolean, query: QueueQuery): QueueData & { fetching: boolean } {
  const skip = !config || !online;
  const forms = searchRecords.useQuery(
    config && !skip
      ? {
          projectId: config.projectId,
          body: {
            tableId: config.tables.forms.id,
            page: 1,
            perPage: PAGE_SIZE,
            filters: waitingFilter(config, query.state, query.kindId),
            sorts: [{ columnId: config.tables.forms.columns.reviewed_at, direction: 'asc' }],
          },
        }
      : { projectId: 0, body: { tableId: 0 } },
    { skip, refetchOnMountOrArgChange: true },
  );
  const formRows = forms.currentData?.records;
  const linkIds = formRows && config ? ids(formRows.map((r) => readRow(config, 'forms', r).parent)) : undefined;
  const links = useRowsById(config, 'durationPaths', linkIds, skip);
  const pathIds = links.rows && config ? ids(links.rows.map((r) => readRow(config, 'durationPaths', r).path_id)) : undefined;
  const paths = useRowsById(config, 'paths', pathIds, skip);
  const areaIds = paths.rows && config ? ids(paths.rows.map((r) => readRow(config, 'paths', r).parent)) : undefined;
  const areas = useRowsById(config, 'areas', areaIds, skip);
  const farmerIds = areas.rows && config ? ids(areas.rows.map((r) => readRow(config, 'areas', r).user)) : undefined;
  const farmers = useRowsById(config, 'farmers', farmerIds, skip);
  const fetching = forms.isFetching || links.fetching || paths.fetching || areas.fetching || farmers.fetching;
  const error = (forms.error as ApiError | undefined) ?? links.error ?? paths.error ?? areas.error ?? farmers.error;
  if (error) return { status: 'failed', error: error.detail ?? error.message, fetching };
  if (!formRows || !links.rows || !paths.rows || !areas.rows || !farmers.rows) return { status: 'loading', fetching };
  const page = forms.currentData as RecordPage;
  return {
    status: 'ready',
    chain: { forms: formRows, links: links.rows, paths: paths.rows, areas: areas.rows, farmers: farmers.rows },
    totalCount: page.totalCount,
    fetching,
  };
}

/**
 * How many forms wait for advisers (the navigation's count): one row asked for, the server's total
 * read. Null while unknown (offline, not an editor, not answered yet).
 */
export function useWaitingCount(config: AppConfig | null, online: boolean, enabled: boolean): number | null {
  const asked = Boolean(config && online && enabled);
  const result = searchRecords.useQuery(
    asked && config
      ? { projectId: config.projectId, body: { tableId: config.tables.forms.id, page: 1, perPage: 1, filters: waitingFilter(config) } }
      : { projectId: 0, body: { tableId: 0 } },
    { skip: !asked, refetchOnMountOrArgChange: true },
  );
  return asked ? (result.currentData?.totalCount ?? null) : null;
}
