/**
 * Results of all farmers at once (editors and readers): the farmers, their areas and
 * paths, every season, every duration-path link, form and indicator of the project — the season
 * chain (features/season) loads one farmer's current season only. Each table is read whole
 * (non-archived rows; every page, lib/api/search-all.ts), stored in the offline database like every other
 * read (lib/db refreshRows, pending edits never overwritten), then read back from there, so the
 * screen is the same offline with what was loaded last time, local edits included. Once an online
 * read has brought them all whole to the device, a later one shows the device's copy first
 * (`showFirst`, as use-season-history.ts), then the server's.
 */
import { markWholeOnDevice, useLoaded, wholeOnDevice, type LoadedState } from './use-loaded';
import { eq } from '../../../common/filter';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { useAppDispatch, useOfflineDb } from '../../app/hooks';
import type { AppDispatch } from '../../app/store-types';
import { isTransientError } from '../../lib/api/base-query';
import type { OfflineDb, StoredRecord } from '../../lib/db/database';
import { readRows, refreshRows } from '../../lib/db/local-data';
import { searchAllRecords } from '../../lib/api/search-all';
import type { SeasonHistory } from './use-season-history';

export interface AllFarmersData extends SeasonHistory {
  farmers: StoredRecord[];
  areas: StoredRecord[];
  paths: StoredRecord[];
}

export type AllFarmersState = LoadedState<AllFarmersData>;

const TABLES = ['farmers', 'areas', 'paths', 'durations', 'durationPaths', 'forms', 'indicators'] as const satisfies readonly TableKey[];
/** What `wholeOnDevice` calls a read of every table whole. */
const ALL_FARMERS = ['all-farmers'];

/** Thrown when the server answered with a refusal (not a lost connection): the screen shows the error. */
class AllFarmersLoadError extends Error {}

export async function loadAllFarmers(
  dispatch: AppDispatch,
  db: OfflineDb,
  config: AppConfig,
  online: boolean,
  showFirst?: (data: AllFarmersData) => void,
): Promise<{ data: AllFarmersData; fromDevice: boolean }> {
  let fromDevice = !online;
  const live = (row: StoredRecord) => !row.archived;
  if (online && showFirst && (await wholeOnDevice(db, ALL_FARMERS))) showFirst(await readAll((table) => readRows(db, config.tables[table].id, live)));
  const data = await readAll(async (table) => {
    const tableId = config.tables[table].id;
    if (online) {
      const requestedAt = Date.now();
      const result = await searchAllRecords(dispatch, config.projectId, { tableId, filters: eq('archived', false) });
      if (result.records) await refreshRows(db, result.records, { projectId: config.projectId, tableId, inScope: live, requestedAt });
      else if (isTransientError(result.error) || result.error.status === 401 || result.error.status === 'ABORTED') fromDevice = true;
      else throw new AllFarmersLoadError(result.error.message);
    }
    return readRows(db, tableId, live);
  });
  if (!fromDevice) await markWholeOnDevice(db, ALL_FARMERS);
  return { data, fromDevice };
}

/** Every table by `load`: they do not depend on each other (whole tables), so side by side. */
async function readAll(load: (table: TableKey) => Promise<StoredRecord[]>): Promise<AllFarmersData> {
  const [farmers, areas, paths, durations, durationPaths, forms, indicators] = await Promise.all(TABLES.map(load));
  return { farmers: farmers!, areas: areas!, paths: paths!, durations: durations!, durationPaths: durationPaths!, forms: forms!, indicators: indicators! };
}

/** Loads when `config` is given (null: not an editor or reader, nothing is read). */
export function useAllFarmers(config: AppConfig | null, online: boolean, refreshKey: unknown = null): AllFarmersState {
  const dispatch = useAppDispatch();
  const db = useOfflineDb();
  return useLoaded(
    config ? (showFirst) => loadAllFarmers(dispatch, db, config, online, showFirst) : null,
    [config, online, dispatch, refreshKey, db],
    'all farmers results',
  );
}
