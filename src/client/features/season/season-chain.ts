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
 * the server does not answer, it reads the offline copy (season-steps.ts). So the screens get the
 * same shape of data either way, and local edits (including offline-made rows) are always included.
 */
import { FARMERS_PAGE_SIZE, PAGE_SIZE } from '../../../common/constants';
import { and, eq, isIn } from '../../../common/filter';
import { sl, slSync } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { publicAppApi } from '../../lib/api/public-app';
import type { StoredRecord } from '../../lib/db/database';
import { isLocalId } from '../../../common/record-id';
import { getMeta, setMeta } from '../../lib/db/local-data';
import { saveEdit } from '../../lib/db/outbox';
import { readRow, toProperties } from '../../lib/db/model';
import { refKeysFor } from '../../lib/db/refs';
import type { createAppAsyncThunk, RootState } from '../../app/store-types';
import { NO_SEASON, type SeasonData } from './season-actions';
import { askFarmerAhead, type FarmerAhead } from './season-ahead';
import {
  commentsRequest,
  currentDuration,
  durationsRequest,
  formsRequest,
  indicatorsRequest,
  isOwnFarmer,
  localDate,
  ownFarmerRequest,
} from './season-requests';
import { askRows, ChainError, currentIds, idsNow, isOnline, loadRows, rolesKeyOf, settle, takeRows, type StepContext } from './season-steps';

export interface LoadSeasonArgs {
  /** The signed-in user's e-mail (farmers are found by it). */
  email: string;
  /** Editors/readers: the farmer whose season to load; omitted → only the farmers list. */
  farmerId?: number | null;
  /** Overrides the config in the store (tests). */
  config?: AppConfig;
}

export type ThunkApi = Parameters<Parameters<typeof createAppAsyncThunk<SeasonData, LoadSeasonArgs>>[1]>[1];

type Roles = { editor: boolean; reader: boolean };

/**
 * The chain's first reads. Roles, the farmer's own record (by e-mail) and the durations need no
 * earlier answer: they are read together; the rest of the chain waits only for the ids it filters
 * by (a farmer's, for the server's answers, not for the device to store them: askFarmerAhead).
 */
function askFirstReads(ctx: StepContext, args: LoadSeasonArgs, now: number) {
  const { config, dispatch } = ctx;
  const mine = isOwnFarmer(config, args.email);
  const ownAsked = askRows(ctx, ownFarmerRequest(config, args.email));
  const durationsAsked = askRows(ctx, durationsRequest());
  const rolesAnswer = ctx.online
    ? Promise.resolve(dispatch(publicAppApi.endpoints.roles.initiate({ projectId: config.projectId }, { subscribe: false, forceRefetch: true })))
    : null;
  const today = localDate(now);
  const farmerAhead = rolesAnswer && ownAsked && durationsAsked ? askFarmerAhead(ctx, rolesAnswer, ownAsked, durationsAsked, args.email, today) : null;
  const ownRead = settle(takeRows(ctx, 'farmers', ownAsked, mine));
  const durationsRead = settle(takeRows(ctx, 'durations', durationsAsked, () => true));
  return { rolesAnswer, today, farmerAhead, ownRead, durationsRead };
}

type FirstReads = ReturnType<typeof askFirstReads>;

/** 1. Roles; kept on the device for offline starts. */
async function readRole(ctx: StepContext, args: LoadSeasonArgs, first: FirstReads): Promise<NonNullable<SeasonData['role']>> {
  const rolesKey = rolesKeyOf(ctx.config, args.email);
  let roles: Roles | undefined;
  if (first.rolesAnswer) {
    const result = await first.rolesAnswer;
    await ctx.deviceFirst;
    if (result.data) {
      roles = { editor: result.data.editor, reader: result.data.reader };
      await setMeta(ctx.db, rolesKey, roles);
    } else {
      ctx.online = false;
      ctx.source = 'device';
    }
  }
  roles ??= await getMeta<Roles>(ctx.db, rolesKey);
  return roles?.editor ? 'editor' : roles?.reader ? 'reader' : 'farmer';
}

/** 2. Farmers: a farmer's own record, or every farmer for editors and readers. */
async function readFarmers(ctx: StepContext, args: LoadSeasonArgs, role: SeasonData['role'], first: FirstReads) {
  if (role !== 'farmer') {
    return { farmers: await loadRows(ctx, { table: 'farmers', perPage: FARMERS_PAGE_SIZE }, () => true), farmerId: args.farmerId ?? null };
  }
  const own = await first.ownRead;
  if (!own.ok) {
    // The server refuses a user with neither a role nor a farmer record: that is the
    // missing-farmer case, not a generic failure.
    if (own.error instanceof ChainError && own.error.status === 403) throw new ChainError(sl.farmer.missing);
    throw own.error;
  }
  const farmers = own.value;
  if (!farmers.length) throw new ChainError(sl.farmer.missing);
  return { farmers, farmerId: farmers[0]!.id as number | null };
}

/** The season with its farmers and nothing under them yet. */
function emptySeason(config: AppConfig, role: SeasonData['role'], farmers: StoredRecord[], farmerId: number | null, now: number): SeasonData {
  const refKeys: Record<number, string[]> = {};
  for (const table of Object.keys(config.tables) as TableKey[]) refKeys[config.tables[table].id] = refKeysFor(config, table);
  return { ...NO_SEASON, role, farmers, farmerId, refKeys, loadedAt: new Date(now).toISOString() };
}

/** 4. Areas of the farmer (the `user` column links to the farmer id), and 5. paths of the areas. */
async function readAreasAndPaths(ctx: StepContext, data: SeasonData, ahead: FarmerAhead | null, farmerId: number): Promise<void> {
  const { config, db } = ctx;
  const areasAsked = ahead ? ahead.areas : askRows(ctx, { table: 'areas', filters: eq(config.tables.areas.columns.user, farmerId), perPage: PAGE_SIZE });
  data.areas = await takeRows(ctx, 'areas', areasAsked, (row) => readRow(config, 'areas', row).user === farmerId);

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
}

/** 6. Duration-path links: only non-deleted, non-archived ones. */
async function readLinks(ctx: StepContext, data: SeasonData, ahead: FarmerAhead | null, durationId: number): Promise<StoredRecord[]> {
  const { config, db } = ctx;
  const pathIds = await idsNow(db, data.paths);
  const pathSet = new Set(pathIds);
  const inDp = (row: StoredRecord) =>
    readRow(config, 'durationPaths', row).duration_id === durationId && pathSet.has(readRow(config, 'durationPaths', row).path_id ?? -1);
  const links = pathIds.length
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
  return links.filter((row) => !row.deleted && !row.archived);
}

/** 6. (continued) Creates the links missing for the season's paths; answers the links, sorted. */
async function createMissingLinks(
  ctx: StepContext,
  data: SeasonData,
  links: StoredRecord[],
  durationId: number,
  pass: 'device-first' | 'full',
): Promise<StoredRecord[]> {
  const { config, db } = ctx;
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
  return links.sort((a, b) => a.id - b.id);
}

/** 7. Forms of the links. */
async function readForms(ctx: StepContext, data: SeasonData, ahead: FarmerAhead | null): Promise<void> {
  const { config, db } = ctx;
  const dpIds = await idsNow(db, data.durationPaths);
  const dpSet = new Set(dpIds);
  // The forms asked ahead serve when they were asked for every link the device has (offline
  // ids have none on the server); a link delivered or made meanwhile is asked for anew.
  const formsAhead = ahead ? await ahead.forms : null;
  const formsAsked = () =>
    formsAhead && dpIds.every((id) => isLocalId(id) || formsAhead.linkIds.has(id)) ? formsAhead.asked : askRows(ctx, formsRequest(config, dpIds));
  data.forms = dpIds.length ? await takeRows(ctx, 'forms', formsAsked(), (row) => dpSet.has(readRow(config, 'forms', row).parent ?? -1), dpSet) : [];
}

/**
 * 8. Indicators of the forms, and 9. their comments (the threads with the advisers), like the
 * indicators by parent form, for every role; both asked at once, taken in order. An older
 * cached config.json without the comments table reads none.
 */
async function readIndicatorsAndComments(ctx: StepContext, data: SeasonData, ahead: FarmerAhead | null): Promise<void> {
  const { config, db } = ctx;
  const formIds = await idsNow(db, data.forms);
  const formSet = new Set(formIds);
  const withComments = (config.tables as Partial<AppConfig['tables']>).comments !== undefined;
  // Those asked ahead serve when they were asked for every form the device has (a form made
  // offline and not delivered yet is asked for anew, as it may be delivered by now).
  const underAhead = ahead ? await ahead.underForms : null;
  const fromAhead = underAhead !== null && formIds.every((id) => underAhead.formIds.has(id));
  const indicatorsAsked = fromAhead ? underAhead.indicators : formIds.length ? askRows(ctx, indicatorsRequest(config, formIds)) : null;
  const commentsAsked = fromAhead ? underAhead.comments : formIds.length && withComments ? askRows(ctx, commentsRequest(config, formIds)) : null;
  data.indicators = formIds.length
    ? await takeRows(ctx, 'indicators', indicatorsAsked, (row) => formSet.has(readRow(config, 'indicators', row).parent ?? -1), formSet)
    : [];
  data.comments =
    formIds.length && withComments
      ? await takeRows(ctx, 'comments', commentsAsked, (row) => formSet.has(readRow(config, 'comments', row).parent ?? -1), formSet)
      : [];
}

/**
 * 4.–9. The chosen farmer's season under the current duration. A farmer's areas, paths, season
 * links and forms were asked as soon as the server's answers named the farmer and the season
 * (askFarmerAhead); they are used when the device agrees on both. Otherwise (editors and readers,
 * or a device that disagrees) each step asks with the ids the step before left on the device.
 * Either way the answers are taken in order, each step's device rows reconciled by the ids of the
 * step before.
 */
async function readFarmerSeason(
  ctx: StepContext,
  data: SeasonData,
  farmerAhead: Promise<FarmerAhead | null> | null,
  farmerId: number,
  pass: 'device-first' | 'full',
): Promise<void> {
  const durationId = data.duration?.id ?? null;
  const fromAhead = data.role === 'farmer' && farmerAhead ? await farmerAhead : null;
  const ahead = fromAhead && fromAhead.farmerId === farmerId && fromAhead.durationId === durationId ? fromAhead : null;
  await readAreasAndPaths(ctx, data, ahead, farmerId);
  if (durationId === null) {
    data.notice = slSync.season.noCurrentDuration;
    return;
  }
  // Missing links are created through the outbox (also offline).
  data.durationPaths = await createMissingLinks(ctx, data, await readLinks(ctx, data, ahead, durationId), durationId, pass);
  await readForms(ctx, data, ahead);
  await readIndicatorsAndComments(ctx, data, ahead);
}

/** One read of the chain; throws a ChainError (with the role, when known) for the chain's own errors. */
export async function readChain(
  args: LoadSeasonArgs,
  { dispatch, getState, extra }: ThunkApi,
  pass: 'device-first' | 'full' = 'full',
  deviceFirst?: Promise<unknown>,
): Promise<SeasonData> {
  const state = getState() as RootState & { config?: { value: AppConfig | null } };
  const config = args.config ?? state.config?.value ?? null;
  if (!config) throw new ChainError(slSync.season.loadFailed);
  const online = pass === 'full' && isOnline(getState().connectivity);
  const ctx: StepContext = { dispatch, db: extra.db, config, online, source: online ? 'server' : 'device', deviceFirst };
  let role: SeasonData['role'] = null;
  try {
    const first = askFirstReads(ctx, args, extra.now());
    role = await readRole(ctx, args, first);
    const { farmers, farmerId } = await readFarmers(ctx, args, role, first);
    const data = emptySeason(config, role, farmers, farmerId, extra.now());
    // 3. The current duration (the chain's order puts it after the areas; read first here so that editors and
    // readers, who have not chosen a farmer yet, see the season and every farmer's progress in it).
    const durations = await first.durationsRead;
    if (!durations.ok) throw durations.error;
    data.duration = currentDuration(durations.value, config, first.today);
    if (farmerId !== null) await readFarmerSeason(ctx, data, first.farmerAhead, farmerId, pass);
    data.source = ctx.source;
    return data;
  } catch (error) {
    if (!(error instanceof ChainError)) console.error('season load failed', error);
    const failure = error instanceof ChainError ? error : new ChainError(slSync.season.loadFailed);
    failure.role = role;
    throw failure;
  }
}
