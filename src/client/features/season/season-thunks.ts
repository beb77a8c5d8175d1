/**
 * The loading chain (docs/architecture.md, States and timers): roles → farmers (all for editors and readers, FARMERS_PAGE_SIZE;
 * a farmer's own record by e-mail, missing → the missing-farmer error) → the current duration (its window
 * contains today; read before the areas so that editors know it before choosing a farmer) → areas
 * of the farmer (user column) → paths of the areas → the duration-path links (only non-deleted,
 * non-archived; created through the outbox when a path has none, also offline) → forms →
 * indicators → the forms' comments (their threads), each every page of PAGE_SIZE rows.
 *
 * Every step reads the server when it is reachable and stores the answer in the offline database
 * (without overwriting rows with pending edits), then reads the rows from there; offline, or when
 * the server does not answer, it reads the offline copy. So the screens get the same shape of
 * data either way, and local edits (including offline-made rows) are always included.
 */
import { FARMERS_PAGE_SIZE, PAGE_SIZE } from '../../../common/constants';
import { and, eq, isIn } from '../../../common/filter';
import { sl, slSync } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { isTransientError, type ApiError } from '../../lib/api/base-query';
import { publicAppApi } from '../../lib/api/public-app';
import { earlyAnswersAskedAt, endEarlyAnswers } from '../../lib/api/early-answers';
import { searchAllRecords, type SearchAllResult } from '../../lib/api/search-all';
import type { OfflineDb, StoredRecord } from '../../lib/db/database';
import { isLocalId } from '../../../common/record-id';
import { resolveIds } from '../../lib/db/identity';
import { getMeta, readRows, refreshRows, setMeta } from '../../lib/db/local-data';
import { saveEdit } from '../../lib/db/outbox';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import { createAppAsyncThunk, type AppDispatch, type RootState } from '../../app/store-types';
import { followSeason, ROW_LISTS, seasonLoaded, seasonLoadFailed, seasonLoadStarted, type SeasonData } from './season-actions';
import {
  currentDuration,
  durationsRequest,
  farmerAheadRequests,
  commentsRequest,
  formsRequest,
  indicatorsRequest,
  isOwnFarmer,
  localDate,
  ownFarmerRequest,
  searchOf,
  type RowsRequest,
} from './season-requests';

export interface LoadSeasonArgs {
  /** The signed-in user's e-mail (farmers are found by it). */
  email: string;
  /** Editors/readers: the farmer whose season to load; omitted → only the farmers list. */
  farmerId?: number | null;
  /** Overrides the config in the store (tests). */
  config?: AppConfig;
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

/** A step's server read, asked ahead of the step's turn (null when the step reads only the device). */
interface AskedRows {
  requestedAt: number;
  answer: Promise<SearchAllResult>;
}

/** Asks the server for one table's rows of a chain step (every page), when the chain is online. */
function askRows(ctx: StepContext, request: RowsRequest): AskedRows | null {
  if (!ctx.online) return null;
  // Every page: the device copy of the step's rows is replaced by the answer (refreshRows drops
  // rows in scope that the server no longer lists), so one page of many would delete the rest.
  // An answer the early entry asked for is as old as that ask (lib/api/early-answers).
  return {
    requestedAt: Math.min(Date.now(), earlyAnswersAskedAt() ?? Infinity),
    answer: searchAllRecords(ctx.dispatch, ctx.config.projectId, searchOf(ctx.config, request), request.perPage),
  };
}

/**
 * Takes a step's server answer into the offline copy, then reads the step's rows from there. An
 * answer asked ahead is used only while the chain is still online: after an earlier step failed,
 * the rest of the chain reads the device, as if it had never asked.
 */
async function takeRows(
  ctx: StepContext,
  table: TableKey,
  asked: AskedRows | null,
  inScope: (row: StoredRecord) => boolean,
  /** The parent ids `inScope` checks: before the device read they gain the server ids of parents delivered meanwhile. */
  parentIds?: Set<number>,
): Promise<StoredRecord[]> {
  const tableId = ctx.config.tables[table].id;
  if (asked && ctx.online) {
    const result = await asked.answer;
    await ctx.deviceFirst;
    if (result.records) {
      await refreshRows(ctx.db, result.records, { projectId: ctx.config.projectId, tableId, inScope, requestedAt: asked.requestedAt });
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
function loadRows(ctx: StepContext, request: RowsRequest, inScope: (row: StoredRecord) => boolean, parentIds?: Set<number>): Promise<StoredRecord[]> {
  return takeRows(ctx, request.table, askRows(ctx, request), inScope, parentIds);
}

/** Forms asked under the season links a server answer named. */
interface AskedForms {
  /** The season links the forms were asked for. */
  linkIds: ReadonlySet<number>;
  /** Null when the answer named no link: nothing to ask. */
  asked: AskedRows | null;
}

/** A farmer's later steps, asked from the server's answers before these are on the device. */
interface FarmerAhead {
  farmerId: number;
  durationId: number | null;
  areas: AskedRows | null;
  paths: AskedRows | null;
  links: AskedRows | null;
  forms: Promise<AskedForms | null>;
}

/** Asks the forms of the season links an answer named, once it is in. */
async function askForms(ctx: StepContext, links: AskedRows | null): Promise<AskedForms | null> {
  const result = links ? await links.answer : null;
  if (!result?.records || !ctx.online) return null;
  const linkIds = new Set(result.records.map((row) => row.id));
  return { linkIds, asked: linkIds.size ? askRows(ctx, formsRequest(ctx.config, [...linkIds])) : null };
}

/**
 * A farmer's areas, paths, season links and forms, asked as soon as the server's answers say the
 * user is a farmer and name their record and the current season (farmerAheadRequests), without
 * waiting for the device to store them; the forms are asked under the links the links' answer
 * named. Null for editors and readers and when an answer failed.
 */
async function askFarmerAhead(
  ctx: StepContext,
  rolesAnswer: Promise<{ data?: { editor: boolean; reader: boolean } }>,
  own: AskedRows,
  durations: AskedRows,
  email: string,
  today: string,
): Promise<FarmerAhead | null> {
  const [roles, ownResult, durationsResult] = await Promise.all([rolesAnswer, own.answer, durations.answer]);
  if (!ctx.online || !roles.data || !ownResult.records || !durationsResult.records) return null;
  const requests = farmerAheadRequests(ctx.config, roles.data, ownResult.records, durationsResult.records, email, today);
  if (!requests) return null;
  const links = requests.links && askRows(ctx, requests.links);
  return {
    farmerId: requests.farmerId,
    durationId: requests.durationId,
    areas: askRows(ctx, requests.areas),
    paths: askRows(ctx, requests.paths),
    links,
    forms: askForms(ctx, links),
  };
}

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
    // are read together; the rest of the chain waits only for the ids it filters by (a farmer's,
    // for the server's answers, not for the device to store them: askFarmerAhead).
    const mine = isOwnFarmer(config, args.email);
    const ownAsked = askRows(ctx, ownFarmerRequest(config, args.email));
    const durationsAsked = askRows(ctx, durationsRequest());
    const rolesAnswer = ctx.online
      ? Promise.resolve(dispatch(publicAppApi.endpoints.roles.initiate({ projectId: config.projectId }, { subscribe: false, forceRefetch: true })))
      : null;
    const today = localDate(extra.now());
    const farmerAhead = rolesAnswer && ownAsked && durationsAsked ? askFarmerAhead(ctx, rolesAnswer, ownAsked, durationsAsked, args.email, today) : null;
    const ownRead = settle(takeRows(ctx, 'farmers', ownAsked, mine));
    const durationsRead = settle(takeRows(ctx, 'durations', durationsAsked, () => true));

    // 1. Roles; kept on the device for offline starts.
    const rolesKey = rolesKeyOf(config, args.email);
    let roles: { editor: boolean; reader: boolean } | undefined;
    if (rolesAnswer) {
      const result = await rolesAnswer;
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
      farmers = await loadRows(ctx, { table: 'farmers', perPage: FARMERS_PAGE_SIZE }, () => true);
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
      comments: [],
      refKeys,
      loadedAt: new Date(extra.now()).toISOString(),
      notice: null,
    };
    // 3. The current duration (the chain's order puts it after the areas; read first here so that editors and
    // readers, who have not chosen a farmer yet, see the season and every farmer's progress in it).
    const durations = await durationsRead;
    if (!durations.ok) throw durations.error;
    data.duration = currentDuration(durations.value, config, today);
    if (farmerId === null) {
      data.source = ctx.source;
      return data;
    }

    // 4.–7. Areas, paths, season links and forms. A farmer's were asked as soon as the server's
    // answers named the farmer and the season (askFarmerAhead); they are used when the device
    // agrees on both. Otherwise (editors and readers, or a device that disagrees) each step asks
    // with the ids the step before left on the device. Either way the answers are taken in order,
    // each step's device rows reconciled by the ids of the step before.
    const durationId = data.duration?.id ?? null;
    const fromAhead = role === 'farmer' && farmerAhead ? await farmerAhead : null;
    const ahead = fromAhead && fromAhead.farmerId === farmerId && fromAhead.durationId === durationId ? fromAhead : null;

    // 4. Areas of the farmer (the `user` column links to the farmer id).
    const areasAsked = ahead ? ahead.areas : askRows(ctx, { table: 'areas', filters: eq(config.tables.areas.columns.user, farmerId), perPage: PAGE_SIZE });
    data.areas = await takeRows(ctx, 'areas', areasAsked, (row) => readRow(config, 'areas', row).user === farmerId);

    // 5. Paths of the areas.
    const areaIds = await idsNow(db, data.areas);
    const areaSet = new Set(areaIds);
    const inAreas = (row: StoredRecord) => areaSet.has(readRow(config, 'paths', row).parent ?? -1);
    data.paths = areaIds.length
      ? await takeRows(
          ctx,
          'paths',
          ahead ? ahead.paths : askRows(ctx, { table: 'paths', filters: isIn(config.tables.paths.columns.parent, areaIds), perPage: PAGE_SIZE }),
          inAreas,
          areaSet,
        )
      : [];

    if (durationId === null) {
      data.notice = slSync.season.noCurrentDuration;
      data.source = ctx.source;
      return data;
    }

    // 6. Duration-path links: only non-deleted, non-archived ones; create missing ones.
    const pathIds = await idsNow(db, data.paths);
    const pathSet = new Set(pathIds);
    const inDp = (row: StoredRecord) =>
      readRow(config, 'durationPaths', row).duration_id === durationId && pathSet.has(readRow(config, 'durationPaths', row).path_id ?? -1);
    let links = pathIds.length
      ? await takeRows(
          ctx,
          'durationPaths',
          ahead
            ? ahead.links
            : askRows(ctx, {
                table: 'durationPaths',
                filters: and(
                  eq(config.tables.durationPaths.columns.duration_id, durationId),
                  isIn(config.tables.durationPaths.columns.path_id, pathIds),
                  eq('archived', false),
                ),
                perPage: PAGE_SIZE,
              }),
          inDp,
          pathSet,
        )
      : [];
    links = links.filter((row) => !row.deleted && !row.archived);
    const linked = new Set(links.map((row) => readRow(config, 'durationPaths', row).path_id));
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
        properties: toProperties(config, 'durationPaths', { duration_id: durationId, path_id: pathId }),
        refs: refKeysFor(config, 'durationPaths'),
      });
      links.push(saved.record!);
      linked.add(pathId);
    }
    data.durationPaths = links.sort((a, b) => a.id - b.id);

    // 7. Forms of the links.
    const dpIds = await idsNow(db, data.durationPaths);
    const dpSet = new Set(dpIds);
    // The forms asked ahead serve when they were asked for every link the device has (offline
    // ids have none on the server); a link delivered or made meanwhile is asked for anew.
    const formsAhead = ahead ? await ahead.forms : null;
    const formsAsked = () =>
      formsAhead && dpIds.every((id) => isLocalId(id) || formsAhead.linkIds.has(id)) ? formsAhead.asked : askRows(ctx, formsRequest(config, dpIds));
    data.forms = dpIds.length ? await takeRows(ctx, 'forms', formsAsked(), (row) => dpSet.has(readRow(config, 'forms', row).parent ?? -1), dpSet) : [];

    // 8. Indicators of the forms, and 9. their comments (the threads with the advisers), like the
    // indicators by parent form, for every role; both asked at once, taken in order. An older
    // cached config.json without the comments table reads none.
    const formIds = await idsNow(db, data.forms);
    const formSet = new Set(formIds);
    const withComments = (config.tables as Partial<AppConfig['tables']>).comments !== undefined;
    const indicatorsAsked = formIds.length ? askRows(ctx, indicatorsRequest(config, formIds)) : null;
    const commentsAsked = formIds.length && withComments ? askRows(ctx, commentsRequest(config, formIds)) : null;
    data.indicators = formIds.length
      ? await takeRows(ctx, 'indicators', indicatorsAsked, (row) => formSet.has(readRow(config, 'indicators', row).parent ?? -1), formSet)
      : [];
    data.comments =
      formIds.length && withComments
        ? await takeRows(ctx, 'comments', commentsAsked, (row) => formSet.has(readRow(config, 'comments', row).parent ?? -1), formSet)
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
  const map = await resolveIds(
    db,
    'record',
    rows.map((row) => row.id),
  );
  return [...new Set(rows.map((row) => map.get(row.id) ?? row.id))];
}

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
