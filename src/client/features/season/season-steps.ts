/**
 * One step of the loading chain (season-chain.ts): the step's server read, asked when the chain
 * is online, taken into the offline copy (without overwriting rows with pending edits), then the
 * step's rows read from the device. A failed server read turns the rest of the chain to the
 * device; so the screens get the same shape of data either way, and local edits (including
 * offline-made rows) are always included.
 */
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { isTransientError, type ApiError } from '../../lib/api/base-query';
import { earlyAnswersAskedAt } from '../../lib/api/early-answers';
import { searchAllRecords, type SearchAllResult } from '../../lib/api/search-all';
import type { OfflineDb, StoredRecord } from '../../lib/db/database';
import { resolveIds } from '../../lib/db/identity';
import { readRows, refreshRows } from '../../lib/db/local-data';
import type { AppDispatch, RootState } from '../../app/store-types';
import type { SeasonData } from './season-actions';
import { searchOf, type RowsRequest } from './season-requests';

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A read started ahead of its turn: its failure is looked at when its answer is needed, not before. */
export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

export const rolesKeyOf = (config: AppConfig, email: string) => `roles:${config.projectId}:${email.toLowerCase()}`;

export const isOnline = (connectivity: RootState['connectivity']) => connectivity.browserOnline && connectivity.serverReachable !== false;

/** The chain's own errors (shown as they are); anything else is reported as a failed load. */
export class ChainError extends Error {
  /** The user's role as far as the chain got (null before the roles step). */
  role: SeasonData['role'] | undefined;

  constructor(
    message: string,
    readonly status?: number | string,
  ) {
    super(message);
  }
}

export interface StepContext {
  dispatch: AppDispatch;
  db: OfflineDb;
  config: AppConfig;
  /** Turns false at the first failed server read: the rest of the chain reads the device. */
  online: boolean;
  source: 'server' | 'device';
  /**
   * Server answers are stored only after this settles (the device copy shown, or none there):
   * the requests travel meanwhile, but the device read gets the phone's time first.
   */
  deviceFirst?: Promise<unknown>;
}

/** A step's server read, asked ahead of the step's turn (null when the step reads only the device). */
export interface AskedRows {
  requestedAt: number;
  answer: Promise<SearchAllResult>;
}

/** Asks the server for one table's rows of a chain step (every page), when the chain is online. */
export function askRows(ctx: StepContext, request: RowsRequest): AskedRows | null {
  if (!ctx.online) return null;
  // Every page: the device copy of the step's rows is replaced by the answer (refreshRows drops
  // rows in scope that the server no longer lists), so one page of many would delete the rest.
  // An answer the early entry asked for is as old as that ask (lib/api/early-answers).
  return {
    requestedAt: Math.min(Date.now(), earlyAnswersAskedAt() ?? Infinity),
    answer: searchAllRecords(ctx.dispatch, ctx.config.projectId, searchOf(ctx.config, request), request.perPage),
  };
}

/** Stores a step's server answer in the offline copy; a failed read turns the chain to the device (or fails it). */
async function storeAnswer(ctx: StepContext, tableId: number, asked: AskedRows, inScope: (row: StoredRecord) => boolean): Promise<void> {
  const result = await asked.answer;
  await ctx.deviceFirst;
  if (result.records) {
    await refreshRows(ctx.db, result.records, { projectId: ctx.config.projectId, tableId, inScope, requestedAt: asked.requestedAt });
    return;
  }
  const error: ApiError | undefined = result.error;
  if (!error || isTransientError(error) || error.status === 401) {
    ctx.online = false;
    ctx.source = 'device';
  } else {
    throw new ChainError(error.message, error.status);
  }
}

/**
 * Takes a step's server answer into the offline copy, then reads the step's rows from there. An
 * answer asked ahead is used only while the chain is still online: after an earlier step failed,
 * the rest of the chain reads the device, as if it had never asked.
 */
export async function takeRows(
  ctx: StepContext,
  table: TableKey,
  asked: AskedRows | null,
  inScope: (row: StoredRecord) => boolean,
  /** The parent ids `inScope` checks: before the device read they gain the server ids of parents delivered meanwhile. */
  parentIds?: Set<number>,
): Promise<StoredRecord[]> {
  const tableId = ctx.config.tables[table].id;
  if (asked && ctx.online) await storeAnswer(ctx, tableId, asked, inScope);
  // The outbox drains while the chain reads: a parent read under its offline id may have been
  // delivered since, and its children on the device now name its server id (lib/db/identity).
  // The mappings and the rows are read in one transaction, so both see the device before an
  // acknowledgement or both after it: one committing between the two reads would rename the
  // children after their parent's ids were resolved, and they would fall out of scope (a form
  // shown with none of its answers).
  const { db } = ctx;
  return db.transaction('r', [db.features, db.meta], async () => {
    if (parentIds) for (const id of (await resolveIds(db, 'record', [...parentIds])).values()) parentIds.add(id);
    return readRows(db, tableId, inScope);
  });
}

/** Reads one table for a chain step: server → offline copy, or offline copy alone. */
export function loadRows(ctx: StepContext, request: RowsRequest, inScope: (row: StoredRecord) => boolean, parentIds?: Set<number>): Promise<StoredRecord[]> {
  return takeRows(ctx, request.table, askRows(ctx, request), inScope, parentIds);
}

/**
 * The ids of `rows` and, for rows the outbox delivered meanwhile, their server ids too: the chain
 * reads while the outbox drains, so a parent read under its offline id may have children that
 * already name its server id. Resolved through lib/db/identity, never by reading again.
 */
export async function idsNow(db: OfflineDb, rows: readonly StoredRecord[]): Promise<number[]> {
  const ids = rows.map((row) => row.id);
  return [...ids, ...(await resolveIds(db, 'record', ids)).values()];
}

/** The ids `rows` have now (server ids for delivered offline ids). */
export async function currentIds(db: OfflineDb, rows: readonly StoredRecord[]): Promise<number[]> {
  const map = await resolveIds(
    db,
    'record',
    rows.map((row) => row.id),
  );
  return [...new Set(rows.map((row) => map.get(row.id) ?? row.id))];
}
