/**
 * The season load (`loadSeason`): one chain at a time per offline database, the device copy shown
 * first when there is one, then the full read (season-chain.ts), its rows following the outbox's
 * deliveries made while it read, into the season slice.
 */
import { slSync } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { endEarlyAnswers } from '../../lib/api/early-answers';
import type { OfflineDb } from '../../lib/db/database';
import { isLocalId } from '../../../common/record-id';
import { resolveIds } from '../../lib/db/identity';
import { getMeta } from '../../lib/db/local-data';
import { createAppAsyncThunk, type RootState } from '../../app/store-types';
import { followSeason, ROW_LISTS, seasonLoaded, seasonLoadFailed, seasonLoadStarted, type SeasonData } from './season-actions';
import { readChain, type LoadSeasonArgs, type ThunkApi } from './season-chain';
import { ChainError, isOnline, rolesKeyOf } from './season-steps';

export type { LoadSeasonArgs } from './season-chain';

/**
 * One chain at a time per offline database: two overlapping loads (a reload right after a save)
 * would both see a path without a link and both create one.
 */
const running = new WeakMap<OfflineDb, Promise<unknown>>();

export const loadSeason = createAppAsyncThunk<SeasonData, LoadSeasonArgs>('season/load', async (args, thunkApi) => {
  const db = thunkApi.extra.db;
  const previous = running.get(db) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(() => runChain(args, thunkApi));
  running.set(db, current);
  try {
    return await current;
  } finally {
    if (running.get(db) === current) running.delete(db);
  }
});

/** The read with every delivered offline id replaced, in ids and reference columns. */
async function followDeliveries(db: OfflineDb, data: SeasonData): Promise<SeasonData> {
  const lists = [...ROW_LISTS.map((list) => data[list]), data.duration ? [data.duration] : []];
  const named = lists.flatMap((rows) => rows.flatMap((row) => [row.id, ...(data.refKeys[row.tableId] ?? []).map((key) => row.properties[key])]));
  return followSeason(data, await resolveIds(db, 'record', named.filter(isLocalId)));
}

/**
 * Device first: when the device holds this user's season and the server is to be read, the device
 * copy is shown at once and the server's answer replaces it when it arrives (the screens keep what
 * the user is typing; an online start is never slower than an offline one). Its source stays what
 * the screen showed before, so no "from the device" note flickers while the server answers.
 */
async function showDeviceCopy(args: LoadSeasonArgs, thunkApi: ThunkApi): Promise<void> {
  const { dispatch, getState, extra } = thunkApi;
  const state = getState() as RootState & { config?: { value: AppConfig | null } };
  const config = args.config ?? state.config?.value ?? null;
  if (!config || !isOnline(state.connectivity)) return;
  try {
    if (!(await getMeta(extra.db, rolesKeyOf(config, args.email)))) return;
    const data = await followDeliveries(extra.db, await readChain(args, thunkApi, 'device-first'));
    // A farmer chosen for the first time has nothing here: "no meadows" until the server answers would be false.
    if (data.farmerId !== null && data.areas.length === 0) return;
    dispatch(seasonLoaded({ ...data, source: state.season.source }));
  } catch {
    // Whatever the device copy lacks, the full read reports.
  }
}

async function runChain(args: LoadSeasonArgs, thunkApi: ThunkApi) {
  const { dispatch, getState, extra, rejectWithValue } = thunkApi;
  const nothingShown = getState().season.loadedAt === null;
  dispatch(seasonLoadStarted());
  // The server is asked at once, beside the device read: on a first visit opening the offline
  // database alone takes a round trip's time, and with a season on screen the device copy only
  // refreshes it. The one exception is the start of a later visit of the installed app: the
  // device answers at once there, and taking in the server's answers (with their re-renders)
  // would hold up the first screen on the phone's one busy thread, so the server is asked once
  // the device copy is shown. Either way the device copy comes before the server's answer.
  const deviceCopy = showDeviceCopy(args, thunkApi);
  if (extra.installedVisit && nothingShown) await deviceCopy;
  try {
    // Rows the outbox delivered while the chain read them carry their server ids from here on.
    const data = await followDeliveries(extra.db, await readChain(args, thunkApi, 'full', deviceCopy));
    await deviceCopy;
    dispatch(seasonLoaded(data));
    return data;
  } catch (error) {
    await deviceCopy;
    if (!(error instanceof ChainError)) console.error('season load failed', error);
    const failure = error instanceof ChainError ? error : new ChainError(slSync.season.loadFailed);
    dispatch(seasonLoadFailed({ message: failure.message, role: failure.role ?? null }));
    return rejectWithValue(failure.message);
  } finally {
    // What the start-up's early reads asked and this read did not take is of no further use.
    endEarlyAnswers();
  }
}
