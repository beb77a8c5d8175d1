/**
 * The loading chain (docs/architecture.md, States and timers): roles → farmers (all for editors and readers, FARMERS_PAGE_SIZE;
 * a farmer's own record by e-mail, missing → the missing-farmer error) → the current duration (its window
 * contains today; read before the areas so that editors know it before choosing a farmer) → areas
 * of the farmer (user column) → paths of the areas → the duration-path links (only non-deleted,
 * non-archived; created through the outbox when a path has none, also offline) → forms →
 * indicators, each every page of PAGE_SIZE rows.
 *
 * Every step reads the server when it is reachable and stores the answer in the offline database
 * (without overwriting rows with pending edits), then reads the rows from there; offline, or when
 * the server does not answer, it reads the offline copy. So the screens get the same shape of
 * data either way, and local edits (including offline-made rows) are always included.
 */
import { FARMERS_PAGE_SIZE, PAGE_SIZE } from '../../../common/constants';
import { and, eq, isIn, type FilterNode } from '../../../common/filter';
import { sl, slSync } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { isTransientError, type ApiError } from '../../lib/api/base-query';
import { publicAppApi } from '../../lib/api/public-app';
import { searchAllRecords } from '../../lib/api/search-all';
import type { OfflineDb, StoredRecord } from '../../lib/db/database';
import { followIds, isLocalId, resolveIds } from '../../lib/db/identity';
import { getMeta, readRows, refreshRows, setMeta } from '../../lib/db/local-data';
import { saveEdit } from '../../lib/db/outbox';
import { columnKey, refKeysFor } from '../../lib/db/refs';
import { createAppAsyncThunk, type AppDispatch, type RootState } from '../../app/store-types';
import { seasonLoaded, seasonLoadFailed, seasonLoadStarted, type SeasonData } from './season-actions';
import { ROW_LISTS } from './season-slice';

export interface LoadSeasonArgs {
  /** The signed-in user's e-mail (farmers are found by it). */
  email: string;
  /** Editors/readers: the farmer whose season to load; omitted → only the farmers list. */
  farmerId?: number | null;
  /** Overrides the config in the store (tests). */
  config?: AppConfig;
}

/** Today as YYYY-MM-DD in the device's time zone (the farmer's day, not UTC's). */
export function localDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The duration whose window [filter_start, filter_end] contains `today` (dates compared by day). */
export function currentDuration(durations: StoredRecord[], config: AppConfig, today: string): StoredRecord | null {
  const start = columnKey(config, 'durations', 'filter_start');
  const end = columnKey(config, 'durations', 'filter_end');
  const day = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : '');
  const matching = durations.filter((d) => {
    const from = day(d.properties[start]);
    const to = day(d.properties[end]);
    return from !== '' && to !== '' && from <= today && today <= to;
  });
  // Overlapping windows: the one that started last is the current one.
  matching.sort((a, b) => day(b.properties[start]).localeCompare(day(a.properties[start])));
  return matching[0] ?? null;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A read started ahead of its turn: its failure is looked at when its answer is needed, not before. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

const rolesKeyOf = (config: AppConfig, email: string) => `roles:${config.projectId}:${email.toLowerCase()}`;

const isOnline = (connectivity: RootState['connectivity']) => connectivity.browserOnline && connectivity.serverReachable !== false;

class ChainError extends Error {
  /** The user's role as far as the chain got (null before the roles step). */
  role: SeasonData['role'] | undefined;

  constructor(
    message: string,
    readonly status?: number | string,
  ) {
    super(message);
  }
}

interface StepContext {
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

/** Reads one table for a chain step: server → offline copy, or offline copy alone. */
async function loadRows(
  ctx: StepContext,
  table: TableKey,
  filters: FilterNode | undefined,
  perPage: number,
  inScope: (row: StoredRecord) => boolean,
  /** The parent ids `inScope` checks: before the device read they gain the server ids of parents delivered meanwhile. */
  parentIds?: Set<number>,
): Promise<StoredRecord[]> {
  const tableId = ctx.config.tables[table].id;
  if (ctx.online) {
    const requestedAt = Date.now();
    // Every page: the device copy of the step's rows is replaced by the answer (refreshRows drops
    // rows in scope that the server no longer lists), so one page of many would delete the rest.
    const result = await searchAllRecords(ctx.dispatch, ctx.config.projectId, filters ? { tableId, filters } : { tableId }, perPage);
    await ctx.deviceFirst;
    if (result.records) {
      await refreshRows(ctx.db, result.records, { projectId: ctx.config.projectId, tableId, inScope, requestedAt });
    } else {
      const error: ApiError | undefined = result.error;
      if (!error || isTransientError(error) || error.status === 401) {
        ctx.online = false;
        ctx.source = 'device';
      } else {
        throw new ChainError(error.message, error.status);
      }
    }
  }
  // The outbox drains while the chain reads: a parent read under its offline id may have been
  // delivered since, and its children on the device now name its server id (lib/db/identity).
  if (parentIds) for (const id of (await resolveIds(ctx.db, 'record', [...parentIds])).values()) parentIds.add(id);
  return readRows(ctx.db, tableId, inScope);
}

const numberOf = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

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

type ThunkApi = Parameters<Parameters<typeof createAppAsyncThunk<SeasonData, LoadSeasonArgs>>[1]>[1];

/** One read of the chain; throws a ChainError (with the role, when known) for the chain's own errors. */
async function readChain(
  args: LoadSeasonArgs,
  { dispatch, getState, extra }: ThunkApi,
  pass: 'device-first' | 'full' = 'full',
  deviceFirst?: Promise<unknown>,
): Promise<SeasonData> {
  const state = getState() as RootState & { config?: { value: AppConfig | null } };
  const config = args.config ?? state.config?.value ?? null;
  if (!config) throw new ChainError(slSync.season.loadFailed);
  const { db } = extra;
  const { connectivity } = getState();
  const ctx: StepContext = {
    dispatch,
    db,
    config,
    online: pass === 'full' && isOnline(connectivity),
    source: 'server',
    deviceFirst,
  };
  ctx.source = ctx.online ? 'server' : 'device';
  let role: SeasonData['role'] = null;
  try {
    // Roles, the farmer's own record (by e-mail) and the durations need no earlier answer: they
    // are read together; the rest of the chain waits only for the ids it filters by.
    const emailKey = columnKey(config, 'farmers', 'email');
    const email = args.email.trim().toLowerCase();
    const mine = (row: StoredRecord) => String(row.properties[emailKey] ?? '').trim().toLowerCase() === email;
    const ownRead = settle(loadRows(ctx, 'farmers', eq(Number(emailKey), args.email.trim()), FARMERS_PAGE_SIZE, mine));
    const durationsRead = settle(loadRows(ctx, 'durations', undefined, PAGE_SIZE, () => true));

    // 1. Roles; kept on the device for offline starts.
    const rolesKey = rolesKeyOf(config, args.email);
    let roles: { editor: boolean; reader: boolean } | undefined;
    if (ctx.online) {
      const result = await dispatch(publicAppApi.endpoints.roles.initiate({ projectId: config.projectId }, { subscribe: false, forceRefetch: true }));
      await deviceFirst;
      if (result.data) {
        roles = { editor: result.data.editor, reader: result.data.reader };
        await setMeta(db, rolesKey, roles);
      } else {
        ctx.online = false;
        ctx.source = 'device';
      }
    }
    roles ??= await getMeta<{ editor: boolean; reader: boolean }>(db, rolesKey);
    role = roles?.editor ? 'editor' : roles?.reader ? 'reader' : 'farmer';

    // 2. Farmers.
    let farmers: StoredRecord[];
    let farmerId: number | null;
    if (role === 'farmer') {
      const own = await ownRead;
      if (!own.ok) {
        // The server refuses a user with neither a role nor a farmer record: that is the
        // missing-farmer case, not a generic failure.
        if (own.error instanceof ChainError && own.error.status === 403) throw new ChainError(sl.farmer.missing);
        throw own.error;
      }
      farmers = own.value;
      if (!farmers.length) throw new ChainError(sl.farmer.missing);
      farmerId = farmers[0]!.id;
    } else {
      farmers = await loadRows(ctx, 'farmers', undefined, FARMERS_PAGE_SIZE, () => true);
      farmerId = args.farmerId ?? null;
    }

    const refKeys: Record<number, string[]> = {};
    for (const table of Object.keys(config.tables) as TableKey[]) refKeys[config.tables[table].id] = refKeysFor(config, table);
    const data: SeasonData = {
      source: ctx.source,
      role,
      farmers,
      farmerId,
      areas: [],
      duration: null,
      paths: [],
      durationPaths: [],
      forms: [],
      indicators: [],
      refKeys,
      loadedAt: new Date(extra.now()).toISOString(),
      notice: null,
    };
    // 3. The current duration (the chain's order puts it after the areas; read first here so that editors and
    // readers, who have not chosen a farmer yet, see the season and every farmer's progress in it).
    const durations = await durationsRead;
    if (!durations.ok) throw durations.error;
    data.duration = currentDuration(durations.value, config, localDate(extra.now()));
    if (farmerId === null) {
      data.source = ctx.source;
      return data;
    }

    // 4. Areas of the farmer (the `user` column links to the farmer id).
    const userKey = columnKey(config, 'areas', 'user');
    data.areas = await loadRows(ctx, 'areas', eq(Number(userKey), farmerId), PAGE_SIZE, (row) => numberOf(row.properties[userKey]) === farmerId);

    // 5. Paths of the areas.
    const areaIds = await idsNow(db, data.areas);
    const areaSet = new Set(areaIds);
    const pathParent = columnKey(config, 'paths', 'parent');
    data.paths = areaIds.length
      ? await loadRows(ctx, 'paths', isIn(Number(pathParent), areaIds), PAGE_SIZE, (row) => areaSet.has(numberOf(row.properties[pathParent]) ?? -1), areaSet)
      : [];

    if (!data.duration) {
      data.notice = slSync.season.noCurrentDuration;
      data.source = ctx.source;
      return data;
    }

    // 6. Duration-path links: only non-deleted, non-archived ones; create missing ones.
    const durationId = data.duration.id;
    const dpDuration = columnKey(config, 'durationPaths', 'duration_id');
    const dpPath = columnKey(config, 'durationPaths', 'path_id');
    const pathIds = await idsNow(db, data.paths);
    const pathSet = new Set(pathIds);
    const inDp = (row: StoredRecord) => numberOf(row.properties[dpDuration]) === durationId && pathSet.has(numberOf(row.properties[dpPath]) ?? -1);
    let links = pathIds.length
      ? await loadRows(ctx, 'durationPaths', and(eq(Number(dpDuration), durationId), isIn(Number(dpPath), pathIds), eq('archived', false)), PAGE_SIZE, inDp, pathSet)
      : [];
    links = links.filter((row) => !row.deleted && !row.archived);
    const linked = new Set(links.map((row) => numberOf(row.properties[dpPath])));
    const dpTableId = config.tables.durationPaths.id;
    // Each path once, by the id it has now (a path delivered during this read has two).
    for (const pathId of await currentIds(db, data.paths)) {
      // A device-first read shows what the device has; the refresh behind it creates what is missing.
      if (linked.has(pathId) || pass === 'device-first') continue;
      // Through the outbox: offline it waits there, online the drain sends it right away.
      const saved = await saveEdit(db, {
        kind: 'insert',
        projectId: config.projectId,
        tableId: dpTableId,
        properties: { [dpDuration]: durationId, [dpPath]: pathId },
        refs: refKeysFor(config, 'durationPaths'),
      });
      links.push(saved.record!);
      linked.add(pathId);
    }
    data.durationPaths = links.sort((a, b) => a.id - b.id);

    // 7. Forms of the links.
    const dpIds = await idsNow(db, data.durationPaths);
    const dpSet = new Set(dpIds);
    const formParent = columnKey(config, 'forms', 'parent');
    data.forms = dpIds.length
      ? await loadRows(ctx, 'forms', isIn(Number(formParent), dpIds), PAGE_SIZE, (row) => dpSet.has(numberOf(row.properties[formParent]) ?? -1), dpSet)
      : [];

    // 8. Indicators of the forms.
    const formIds = await idsNow(db, data.forms);
    const formSet = new Set(formIds);
    const indicatorParent = columnKey(config, 'indicators', 'parent');
    data.indicators = formIds.length
      ? await loadRows(ctx, 'indicators', isIn(Number(indicatorParent), formIds), PAGE_SIZE, (row) => formSet.has(numberOf(row.properties[indicatorParent]) ?? -1), formSet)
      : [];

    data.source = ctx.source;
    return data;
  } catch (error) {
    if (!(error instanceof ChainError)) console.error('season load failed', error);
    const failure = error instanceof ChainError ? error : new ChainError(slSync.season.loadFailed);
    failure.role = role;
    throw failure;
  }
}

/**
 * The ids of `rows` and, for rows the outbox delivered meanwhile, their server ids too: the chain
 * reads while the outbox drains, so a parent read under its offline id may have children that
 * already name its server id. Resolved through lib/db/identity, never by reading again.
 */
async function idsNow(db: OfflineDb, rows: readonly StoredRecord[]): Promise<number[]> {
  const ids = rows.map((row) => row.id);
  return [...ids, ...(await resolveIds(db, 'record', ids)).values()];
}

/** The ids `rows` have now (server ids for delivered offline ids). */
async function currentIds(db: OfflineDb, rows: readonly StoredRecord[]): Promise<number[]> {
  const map = await resolveIds(db, 'record', rows.map((row) => row.id));
  return [...new Set(rows.map((row) => map.get(row.id) ?? row.id))];
}

/** The read with every delivered offline id replaced, in ids and reference columns. */
async function followDeliveries(db: OfflineDb, data: SeasonData): Promise<SeasonData> {
  const lists = [...ROW_LISTS.map((list) => data[list]), data.duration ? [data.duration] : []];
  const named = lists.flatMap((rows) => rows.flatMap((row) => [row.id, ...(data.refKeys[row.tableId] ?? []).map((key) => row.properties[key])]));
  const map = await resolveIds(db, 'record', named.filter(isLocalId));
  if (!map.size) return data;
  const follow = (row: StoredRecord) => followIds(row, data.refKeys[row.tableId], map);
  const next: SeasonData = { ...data, duration: data.duration ? follow(data.duration) : null };
  for (const list of ROW_LISTS) next[list] = data[list].map(follow);
  if (next.farmerId !== null) next.farmerId = map.get(next.farmerId) ?? next.farmerId;
  return next;
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
  const { dispatch, extra, rejectWithValue } = thunkApi;
  dispatch(seasonLoadStarted());
  // The server is asked at once, not after the device read: on a first visit opening the offline
  // database alone takes a round trip's time, and on later visits the device copy is shown while
  // the first answers travel (they are stored once it is shown). The device copy always comes
  // before the server's answer or the error, never after it.
  const deviceCopy = showDeviceCopy(args, thunkApi);
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
  }
}
