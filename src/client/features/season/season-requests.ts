/**
 * The loading chain's server reads as plain requests, and the choices that decide them: built here
 * once for the chain (season-thunks.ts) and for the first visit's early reads
 * (app/bootstrap/early-reads.ts), so both send byte-for-byte the same requests and the chain can
 * take the answers the early entry already has. Small and free of the store, Dexie and React: the
 * early entry runs before those have downloaded.
 */
import { FARMERS_PAGE_SIZE, PAGE_SIZE } from '../../../common/constants';
import { and, eq, isIn, type FilterNode, type SearchRequest } from '../../../common/filter';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { readRow } from '../../lib/db/model';

/** One chain step's read: every page of one table's rows, filtered. */
export interface RowsRequest {
  table: TableKey;
  filters?: FilterNode;
  perPage: number;
}

/** The search a request sends, without the page fields. */
export function searchOf(config: AppConfig, request: RowsRequest): Omit<SearchRequest, 'page' | 'perPage'> {
  const tableId = config.tables[request.table].id;
  return request.filters ? { tableId, filters: request.filters } : { tableId };
}

/** A row as far as the choices below look at it (a server record or a device row). */
interface RowLike {
  id: number;
  properties: Record<string, unknown>;
}

/** Today as YYYY-MM-DD in the device's time zone (the farmer's day, not UTC's). */
export function localDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The duration whose window [filter_start, filter_end] contains `today` (dates compared by day). */
export function currentDuration<T extends RowLike>(durations: T[], config: AppConfig, today: string): T | null {
  const start = (d: T) => readRow(config, 'durations', d).filter_start;
  const end = (d: T) => readRow(config, 'durations', d).filter_end;
  const day = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : '');
  const matching = durations.filter((d) => {
    const from = day(start(d));
    const to = day(end(d));
    return from !== '' && to !== '' && from <= today && today <= to;
  });
  // Overlapping windows: the one that started last is the current one.
  matching.sort((a, b) => day(start(b)).localeCompare(day(start(a))));
  return matching[0] ?? null;
}

/** Whether a farmers row is the signed-in user's own (by e-mail, as the server compares it). */
export function isOwnFarmer(config: AppConfig, email: string): (row: RowLike) => boolean {
  const own = email.trim().toLowerCase();
  return (row) => (readRow(config, 'farmers', row).email ?? '').trim().toLowerCase() === own;
}

/** The user's own farmer record, by e-mail. */
export function ownFarmerRequest(config: AppConfig, email: string): RowsRequest {
  return { table: 'farmers', filters: eq(config.tables.farmers.columns.email, email.trim()), perPage: FARMERS_PAGE_SIZE };
}

/** Every duration (the current one is chosen on the device: the device's today). */
export function durationsRequest(): RowsRequest {
  return { table: 'durations', perPage: PAGE_SIZE };
}

/** A farmer's later steps, decided from the first answers before they are on the device. */
export interface FarmerAheadRequests {
  farmerId: number;
  durationId: number | null;
  areas: RowsRequest;
  paths: RowsRequest;
  /** Null without a current duration. */
  links: RowsRequest | null;
}

/**
 * The areas, paths and season links of a farmer, from the first answers (roles, own farmer rows,
 * durations): the server gives a farmer only their own rows, so paths and links need no filter by
 * the previous step's ids. Null for editors and readers (they see every farmer's rows) and when
 * the user has no farmer record.
 */
export function farmerAheadRequests(
  config: AppConfig,
  roles: { editor: boolean; reader: boolean },
  ownRows: RowLike[],
  durations: RowLike[],
  email: string,
  today: string,
): FarmerAheadRequests | null {
  const farmer = ownRows.filter(isOwnFarmer(config, email)).sort((a, b) => a.id - b.id)[0];
  if (roles.editor || roles.reader || !farmer) return null;
  const durationId = currentDuration(durations, config, today)?.id ?? null;
  return {
    farmerId: farmer.id,
    durationId,
    areas: { table: 'areas', filters: eq(config.tables.areas.columns.user, farmer.id), perPage: PAGE_SIZE },
    paths: { table: 'paths', perPage: PAGE_SIZE },
    links:
      durationId === null
        ? null
        : { table: 'durationPaths', filters: and(eq(config.tables.durationPaths.columns.duration_id, durationId), eq('archived', false)), perPage: PAGE_SIZE },
  };
}

/** The forms under the season links an answer named (in the answer's order). */
export function formsRequest(config: AppConfig, linkIds: readonly number[]): RowsRequest {
  return { table: 'forms', filters: isIn(config.tables.forms.columns.parent, [...linkIds]), perPage: PAGE_SIZE };
}

/** The indicators of the forms (their ids in ascending order, as the chain reads them from the device). */
export function indicatorsRequest(config: AppConfig, formIds: readonly number[]): RowsRequest {
  return { table: 'indicators', filters: isIn(config.tables.indicators.columns.parent, [...formIds]), perPage: PAGE_SIZE };
}

/** The comments of the forms (their threads), like the indicators: by parent form. */
export function commentsRequest(config: AppConfig, formIds: readonly number[]): RowsRequest {
  return { table: 'comments', filters: isIn(config.tables.comments.columns.parent, [...formIds]), perPage: PAGE_SIZE };
}
