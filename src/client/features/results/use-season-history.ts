/**
 * All seasons of a set of paths: the durations, every duration-path of the paths (any season),
 * their forms and indicators. The season chain (features/season) loads only the current season;
 * results and a path's earlier seasons need the rest. Like the chain, an online read refreshes the
 * device copy (lib/db refreshRows, pending edits never overwritten) and the rows are then read
 * from the device, so the screen is the same offline with whatever was loaded last time.
 *
 * Device first: once an online read has brought a path's whole history to the device
 * (`wholeOnDevice`), a later read shows the device's copy at once (`showFirst`) and then the
 * server's. The four reads one after another (each needs the ids of the one before) kept the
 * results about a second behind the same screen offline on a phone's line (bench/README.md, "The
 * results from the device first").
 */
import { markWholeOnDevice, useLoaded, wholeOnDevice, type LoadedState } from './use-loaded';
import { and, eq, isIn, type FilterNode } from '../../../common/filter';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { useAppDispatch, useOfflineDb } from '../../app/hooks';
import type { OfflineDb, StoredRecord } from '../../lib/db/database';
import { readRows, refreshRows } from '../../lib/db/local-data';
import { readRow } from '../../lib/db/model';
import { searchAllRecords } from '../../lib/api/search-all';

export interface SeasonHistory {
  durations: StoredRecord[];
  durationPaths: StoredRecord[];
  forms: StoredRecord[];
  indicators: StoredRecord[];
}

export type SeasonHistoryState = LoadedState<SeasonHistory>;

/** Reads one table's rows of the history (`filters`: on the server; `inScope`: the same on the device). */
type LoadTable = (table: TableKey, filters: FilterNode | undefined, inScope: (r: StoredRecord) => boolean) => Promise<StoredRecord[]>;

/** The history of `pathIds`, table after table (each filtered by the ids of the one before). */
async function readHistory(config: AppConfig, pathIds: readonly number[], load: LoadTable): Promise<SeasonHistory> {
  const pathSet = new Set(pathIds);
  const { tables } = config;
  const durations = await load('durations', undefined, () => true);
  const durationPaths = pathIds.length
    ? await load('durationPaths', and(isIn(tables.durationPaths.columns.path_id, [...pathIds]), eq('archived', false)), (r) =>
        pathSet.has(readRow(config, 'durationPaths', r).path_id ?? -1),
      )
    : [];
  const dpSet = new Set(durationPaths.map((d) => d.id));
  const forms = dpSet.size
    ? await load('forms', isIn(tables.forms.columns.parent, [...dpSet]), (r) => dpSet.has(readRow(config, 'forms', r).parent ?? -1))
    : [];
  const formSet = new Set(forms.map((f) => f.id));
  const indicators = formSet.size
    ? await load('indicators', isIn(tables.indicators.columns.parent, [...formSet]), (r) => formSet.has(readRow(config, 'indicators', r).parent ?? -1))
    : [];
  return { durations, durationPaths, forms, indicators };
}

/** What a read of these paths' seasons covers (`wholeOnDevice`): each path's every season. */
export const historyKeys = (pathIds: readonly number[]) => pathIds.map((id) => `path:${id}`);

/** The server reads of seasons under way on each device, by the paths they cover. */
const underWay = new WeakMap<OfflineDb, Map<string, Promise<unknown>>>();

export async function loadSeasonHistory(
  dispatch: ReturnType<typeof useAppDispatch>,
  db: OfflineDb,
  config: AppConfig,
  pathIds: readonly number[],
  online: boolean,
  showFirst?: (data: SeasonHistory) => void,
): Promise<{ data: SeasonHistory; fromDevice: boolean }> {
  const fromDevice: LoadTable = async (table, _filters, inScope) => (await readRows(db, config.tables[table].id, inScope)).filter((r) => !r.archived);
  const wholeKeys = historyKeys(pathIds);
  const readKey = wholeKeys.join(',');
  const running = online ? underWay.get(db)?.get(readKey) : undefined;
  if (running) {
    // The same seasons are being read from the server (read ahead, or a screen opened twice):
    // their answers come to the device, and are taken from there, not asked for again.
    await running.catch(() => undefined);
    if (await wholeOnDevice(db, wholeKeys)) return { data: await readHistory(config, pathIds, fromDevice), fromDevice: false };
  }
  if (online && showFirst && pathIds.length && (await wholeOnDevice(db, wholeKeys))) showFirst(await readHistory(config, pathIds, fromDevice));
  let reachable = online;
  const load: LoadTable = async (table, filters, inScope) => {
    const tableId = config.tables[table].id;
    if (reachable) {
      // The outbox drains while this reads: a row it delivers after the ask (the season links the
      // season chain has just made) is missing from the answer, and without the time of the ask it
      // would be taken off the device as gone from the server.
      const requestedAt = Date.now();
      // Every page (lib/api/search-all.ts), not only the first PAGE_SIZE rows.
      const result = await searchAllRecords(dispatch, config.projectId, { tableId, ...(filters ? { filters } : {}) });
      if (result.records) await refreshRows(db, result.records, { projectId: config.projectId, tableId, inScope, requestedAt });
      else reachable = false;
    }
    return fromDevice(table, filters, inScope);
  };
  const reading = readHistory(config, pathIds, load).then(async (data) => {
    if (reachable) await markWholeOnDevice(db, wholeKeys);
    return { data, fromDevice: !reachable };
  });
  const reads = underWay.get(db) ?? new Map<string, Promise<unknown>>();
  underWay.set(db, reads);
  if (online) reads.set(readKey, reading);
  try {
    return await reading;
  } finally {
    if (reads.get(readKey) === reading) reads.delete(readKey);
  }
}

export function useSeasonHistory(config: AppConfig | null, pathIds: readonly number[], online: boolean, refreshKey: unknown = null): SeasonHistoryState {
  const dispatch = useAppDispatch();
  const db = useOfflineDb();
  const key = pathIds.join(',');
  return useLoaded(
    config ? (showFirst) => loadSeasonHistory(dispatch, db, config, key ? key.split(',').map(Number) : [], online, showFirst) : null,
    [config, key, online, dispatch, refreshKey, db],
    'season history',
  );
}
