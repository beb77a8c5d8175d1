/**
 * Shared set-up of the screen tests: the test config of the data-layer tests with the scheme's
 * real form kinds, season rows made like the loading chain stores them, and a render helper with a
 * fresh store (over a fake-indexeddb database when given) and the unsaved-changes provider.
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import type { RouteName } from '../../../src/client/lib/links';
import { compileRoutes, routeDefinitions } from '../../../src/client/app/router/routes';
import { parseHash } from '../../../src/client/app/router/match';
import { RouterContext, type RouterState } from '../../../src/client/app/router/router';
import { makeStore } from '../../../src/client/app/store';
import { localIdsRemapped } from '../../../src/client/lib/db/actions';
import { onIdentityChange } from '../../../src/client/lib/db/identity';
import type { RootState } from '../../../src/client/app/root-reducer';
import type { SeasonData } from '../../../src/client/features/season/season-actions';
import { UnsavedChangesProvider } from '../../../src/client/components/confirm-leave/unsaved-changes';
import type { OfflineDb, StoredRecord } from '../../../src/client/lib/db/database';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { AppConfig } from '../../../src/common/schemas/config';
import { testConfig } from '../data-layer/helpers';
import { renderRouter } from '../render-app';

window.scrollTo = () => undefined;

export const config: AppConfig = { ...testConfig, forms: { ...FORM_KINDS } };
const T = config.tables;

let nextId = 10_000_100;
export function row(tableId: number, properties: Record<string, unknown>, extra: Partial<StoredRecord> = {}): StoredRecord {
  nextId += 1;
  return {
    id: nextId,
    tableId,
    properties: Object.fromEntries(Object.entries(properties)),
    geometry: null,
    deleted: false,
    archived: false,
    createdAt: '2026-05-01T08:00:00.000Z',
    updatedAt: '2026-05-01T08:00:00.000Z',
    version: 1,
    ...extra,
  };
}

const c = <K extends keyof AppConfig['tables']>(table: K, column: string) => String((T[table].columns as Record<string, number>)[column]);

/** A farmer's season: two meadows, three paths (one walked, one with a completed form), 2025 and 2026. */
export function season() {
  const farmer = row(T.farmers.id, { [c('farmers', 'name')]: 'Ana Kovač', [c('farmers', 'email')]: 'kmet1@example.si' });
  const areaA = row(T.areas.id, { [c('areas', 'name')]: 'Travnik pod gozdom', [c('areas', 'user')]: farmer.id });
  const areaB = row(T.areas.id, { [c('areas', 'name')]: 'Senožet', [c('areas', 'user')]: farmer.id });
  const line = {
    type: 'LineString' as const,
    coordinates: [
      [16.2, 46.8],
      [16.201, 46.801],
    ],
  };
  const pathDone = row(
    T.paths.id,
    {
      [c('paths', 'name')]: 'Pot 1',
      [c('paths', 'parent')]: areaA.id,
      [c('paths', 'length_m')]: 240,
      [c('paths', 'walk')]: { recordedAt: '2026-06-02T09:00:00.000Z' },
    },
    { geometry: line },
  );
  const pathWalked = row(T.paths.id, {
    [c('paths', 'name')]: 'Pot 2',
    [c('paths', 'parent')]: areaA.id,
    [c('paths', 'length_m')]: 1250,
    [c('paths', 'walk')]: { recordedAt: '2026-06-03T09:00:00.000Z' },
  });
  const pathNew = row(T.paths.id, {
    [c('paths', 'name')]: 'Pot 3',
    [c('paths', 'parent')]: areaB.id,
    [c('paths', 'walk')]: { recordedAt: '2025-06-03T09:00:00.000Z' },
  });
  const d2025 = row(T.durations.id, {
    [c('durations', 'name')]: '2025',
    [c('durations', 'filter_start')]: '2025-04-01',
    [c('durations', 'filter_end')]: '2025-10-31',
  });
  const d2026 = row(T.durations.id, {
    [c('durations', 'name')]: '2026',
    [c('durations', 'filter_start')]: '2026-04-01',
    [c('durations', 'filter_end')]: '2026-10-31',
  });
  const link = (path: StoredRecord, d: StoredRecord) =>
    row(T.durationPaths.id, { [c('durationPaths', 'path_id')]: path.id, [c('durationPaths', 'duration_id')]: d.id });
  const dp1 = link(pathDone, d2026);
  const dp2 = link(pathWalked, d2026);
  const dp3 = link(pathNew, d2026);
  const dpOld = link(pathDone, d2025);
  const kind = FORM_KINDS.travnik;
  const form = (parent: StoredRecord, score: number, completed: boolean, updatedAt = '2026-06-02T10:00:00.000Z') =>
    row(
      T.forms.id,
      {
        [c('forms', 'parent')]: parent.id,
        [c('forms', 'form_id')]: kind.id,
        [c('forms', 'score')]: score,
        [c('forms', 'rule_version')]: kind.scoring.version,
        [c('forms', 'completed')]: completed,
      },
      { updatedAt },
    );
  const formDone = form(dp1, 72, true);
  const formOld = form(dpOld, 40, true, '2025-06-10T10:00:00.000Z');
  const indicator = (parent: StoredRecord, key: string, value: unknown) =>
    row(T.indicators.id, { [c('indicators', 'parent')]: parent.id, [c('indicators', 'key')]: key, [c('indicators', 'value')]: value });
  const indicators = [indicator(formDone, 'salvia-pratensis', true), indicator(formDone, 'solidago', true)];
  const oldIndicators = [indicator(formOld, 'salvia-pratensis', true)];
  return {
    farmer,
    areas: [areaA, areaB],
    paths: [pathDone, pathWalked, pathNew],
    pathDone,
    pathWalked,
    pathNew,
    durations: [d2025, d2026],
    duration: d2026,
    d2025,
    durationPaths: [dp1, dp2, dp3],
    allDurationPaths: [dp1, dp2, dp3, dpOld],
    forms: [formDone],
    formDone,
    formOld,
    indicators,
    oldIndicators,
  };
}

export type Season = ReturnType<typeof season>;

/**
 * The fixture farmer's season as the loading chain delivers it: this season's rows, read from the
 * server. `changes` replaces any part (another role, the device as the source, other rows).
 */
export function seasonData(s: Season, changes: Partial<SeasonData> = {}): SeasonData {
  return {
    source: 'server',
    role: 'farmer',
    farmers: [s.farmer],
    farmerId: s.farmer.id,
    areas: s.areas,
    duration: s.duration,
    paths: s.paths,
    durationPaths: s.durationPaths,
    forms: s.forms,
    indicators: s.indicators,
    comments: [],
    refKeys: {},
    loadedAt: '2026-06-05T08:00:00.000Z',
    notice: null,
    ...changes,
  };
}

/** The store's state once the config is ready and `data` is the loaded season: offline unless `online`. */
export function loadedState(data: SeasonData, { online = false }: { online?: boolean } = {}): Partial<RootState> {
  return {
    config: { status: 'ready', source: 'network', value: config },
    connectivity: { browserOnline: online, serverReachable: online, lastProbeAt: null },
    season: { status: 'ready', error: null, ...data },
  } as unknown as Partial<RootState>;
}

/**
 * A screen rendered on its own (not through the route table): its navigate() changes the address
 * as a link would, and the test reads the address.
 */
const outsideRouter: RouterState = {
  location: parseHash(''),
  match: null,
  idsResolved: true,
  screenKey: 'test',
  blocked: null,
  navigate: async (to) => {
    window.location.hash = to.startsWith('#') ? to : `#${to}`;
    return true;
  },
};

export function OutsideRouter({ children }: { children: ReactNode }) {
  return <RouterContext.Provider value={outsideRouter}>{children}</RouterContext.Provider>;
}

export function renderWithStore(ui: ReactNode, { preloaded, db, fetchFn }: { preloaded?: Partial<RootState>; db?: OfflineDb; fetchFn?: typeof fetch } = {}) {
  const store = makeStore(
    preloaded,
    db || fetchFn ? { extra: { ...(db ? { db } : {}), ...(fetchFn ? { api: { baseUrl: 'http://server.test', fetchFn } } : {}) } } : undefined,
  );
  const utils = render(
    <Provider store={store}>
      <UnsavedChangesProvider>
        <OutsideRouter>{ui}</OutsideRouter>
      </UnsavedChangesProvider>
    </Provider>,
  );
  return { store, ...utils };
}

/**
 * One route's real screen at `hash`, through the app's router (which resolves the record id in the
 * address), signed in as a farmer with a farmers record. The store follows the database's
 * announced deliveries as the app's sync listeners make it do.
 */
export function renderRoute(name: RouteName, hash: string, { preloaded, db }: { preloaded?: Partial<RootState>; db: OfflineDb }) {
  const routes = compileRoutes(routeDefinitions.filter((def) => def.name === name));
  const rendered = renderRouter({ hash, routes, access: { role: 'farmer', farmerRecord: 'found' }, db, ...(preloaded ? { preloaded } : {}) });
  const stopFollowing = onIdentityChange(db, (learned) => rendered.store.dispatch(localIdsRemapped(learned)));
  return { ...rendered, stopFollowing };
}
