/**
 * Every page of a records search: POST …/search page by page (PAGE_SIZE asked for) until the rows
 * read reach the server's totalCount or a page comes back empty. Rows are collected by id, so a
 * row that moved between two pages while they were read is not counted twice. The server orders
 * by id when no sort is given (stable paging).
 */
import { PAGE_SIZE } from '../../../common/constants';
import type { SearchRequest } from '../../../common/filter';
import type { WireRecord } from '../../../common/schemas/wire';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { ApiError } from './base-query';
import { searchPage } from './paths';
import { nextReadNo } from './read-no';
import { recordsApi } from './records';

/** Any store's dispatch that runs thunks (lib does not know the app's store type). */
type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

export type SearchAllResult = { records: WireRecord[]; pages: number; error?: undefined } | { error: ApiError; records?: undefined; pages: number };

/**
 * Every page is asked for anew, never shared with an identical read already in flight: callers
 * keep device rows acknowledged after they asked (refreshRows' requestedAt), so an answer to an
 * older request would bring back the state from before an acknowledgement (an old version, which
 * the next edit of that row then conflicts with).
 */
export async function searchAllRecords(
  dispatch: Dispatch,
  projectId: number,
  body: Omit<SearchRequest, 'page' | 'perPage'>,
  perPage: number = PAGE_SIZE,
): Promise<SearchAllResult> {
  const rows = new Map<number, WireRecord>();
  const readNo = nextReadNo();
  let maxPages = Infinity;
  for (let page = 1; page <= maxPages; page++) {
    const result = await dispatch(
      recordsApi.endpoints.searchRecords.initiate({ projectId, body: searchPage(body, page, perPage), readNo }, { subscribe: false, forceRefetch: true }),
    );
    if (!result.data) return { error: (result.error as ApiError | undefined) ?? { status: 'FETCH_ERROR', message: 'Generic Error' }, pages: page };
    const { records, totalCount } = result.data;
    for (const record of records) rows.set(record.id, record);
    if (records.length === 0 || rows.size >= totalCount) return { records: [...rows.values()], pages: page };
    // A server that answers fewer rows a page than asked for: as many pages as its page size needs
    // (and one more, for rows that shifted while paging), never an endless loop.
    if (page === 1) maxPages = Math.ceil(totalCount / records.length) + 1;
  }
  return { records: [...rows.values()], pages: maxPages };
}
