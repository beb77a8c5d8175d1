/**
 * The season set-up screens on their routes, with a real store over a fake-indexeddb device
 * database, offline: who sees them (editors change, readers look, farmers are kept out by the
 * guard and the menu), the Slovenian refusals made before anything is queued (overlapping season,
 * duplicate e-mail / KMG-MID, self-intersecting meadow, transect leaving its meadow), and that a
 * valid edit is queued in the outbox exactly once. The map needs WebGL, which jsdom lacks: a
 * stand-in drawing tool reports the geometry a test chooses (drawing itself is proven in
 * Chromium, test/e2e/season-setup.test.ts).
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Geometry } from 'geojson';
import { Provider } from 'react-redux';
import type { RootState } from '../../../src/client/app/root-reducer';
import { makeStore } from '../../../src/client/app/store';
import { UnsavedChangesProvider } from '../../../src/client/components/confirm-leave/unsaved-changes';
import { openOfflineDb, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { PATH_OUTSIDE_AREA_MARGIN_M } from '../../../src/common/constants';
import { sl, slSetup } from '../../../src/common/i18n/sl';
import { config, loadedState, OutsideRouter, row, season, seasonData } from '../screens/fixtures';

/** The geometry the stand-in drawing tool reports when its button is pressed. */
let nextDrawing: Geometry | null = null;

jest.unstable_mockModule('../../../src/client/features/map/index', () => ({
  MapView: () => null,
  recordsToMapItems: () => [],
  WalkRecorderPanel: () => null,
  pathsTableRef: () => ({}),
  GeometryEditor: ({ onChange }: { onChange?: (g: Geometry | null) => void }) => (
    <button type="button" onClick={() => onChange?.(nextDrawing)}>
      test-draw
    </button>
  ),
}));
const { HashRouter, RouteOutlet } = await import('../../../src/client/app/router/router');
const { compileRoutes, routeDefinitions } = await import('../../../src/client/app/router/routes');
const { default: SetupRoute } = await import('../../../src/client/app/routes/setup');
const { default: PathNewRoute } = await import('../../../src/client/app/routes/path-new');
const { default: PathRoute } = await import('../../../src/client/app/routes/path');
const { MainNav } = await import('../../../src/client/app/layout/bottom-nav');
const { staffOnly, editorsOnly, readersCannotCreate } = await import('../../../src/client/app/router/guards');

jest.setTimeout(30_000);

type Role = 'editor' | 'reader' | 'farmer';
const T = config.tables;
const c = (table: keyof typeof T, column: string) => String((T[table].columns as Record<string, number>)[column]);

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  nextDrawing = null;
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** A device database holding these rows as the server sent them. */
async function deviceWith(rows: StoredRecord[]): Promise<OfflineDb> {
  const db = openOfflineDb({ name: `setup-${dbs.length}-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  await db.features.bulkPut(
    rows.map((r) => ({ tableId: r.tableId, featureId: r.id, projectId: config.projectId, feature: r, isInsert: 0, isEdit: 0, isDelete: 0, isRecord: 1 })),
  );
  return db;
}

function offline(role: Role, extra: Partial<RootState> = {}): Partial<RootState> {
  const s = season();
  const rows = { areas: [], duration: null, paths: [], durationPaths: [], forms: [], indicators: [] };
  return { ...loadedState(seasonData(s, { source: 'device', role, farmerId: role === 'farmer' ? s.farmer.id : null, ...rows })), ...extra };
}

function show(ui: React.ReactNode, preloaded: Partial<RootState>, db: OfflineDb) {
  const store = makeStore(preloaded, { extra: { db } });
  return {
    store,
    ...render(
      <Provider store={store}>
        <UnsavedChangesProvider>
          <OutsideRouter>{ui}</OutsideRouter>
        </UnsavedChangesProvider>
      </Provider>,
    ),
  };
}

/** A set-up screen at its address, through the app's router (its editor follows the address). */
function showAt(hash: string, preloaded: Partial<RootState>, db: OfflineDb) {
  window.history.replaceState(null, '', hash);
  const role = (preloaded.season as { role: Role }).role;
  return show(
    <HashRouter routes={compileRoutes(routeDefinitions)} access={{ role, farmerRecord: 'found' }}>
      <main id="main" tabIndex={-1}>
        <RouteOutlet />
      </main>
    </HashRouter>,
    preloaded,
    db,
  );
}

const props = { params: {}, query: {} };

/** A list's "add" button is offered only once the device's rows are read (the checks of a new row need them). */
async function expectAddOnlyOnceRead(hash: string, rows: StoredRecord[], add: string) {
  showAt(hash, offline('editor'), await deviceWith(rows));
  expect(screen.queryByRole('button', { name: add })).toBeNull();
  expect(await screen.findByRole('button', { name: add })).toBeTruthy();
}
/** Presses a list's "add" button: its address opens the editor (a new record's, 'new'). */
async function openNewEditor(add: string): Promise<void> {
  // The list's address first: a save sends it back from the editor's in an effect after the frame.
  await waitFor(() => expect(window.location.hash).not.toMatch(/\/new$/));
  fireEvent.click(await screen.findByRole('button', { name: add }));
  await waitFor(() => expect(window.location.hash).toMatch(/\/new$/));
  await waitFor(() => expect(document.querySelector('[name="name"]')).not.toBeNull());
}
/** Enters a value as a browser reports it: a select changes, a text field takes input. */
const type = (name: string, value: string) => {
  const field = document.querySelector(`[name="${name}"]`)!;
  if (field instanceof HTMLSelectElement) fireEvent.change(field, { target: { value } });
  else fireEvent.input(field, { target: { value } });
};

describe('who sees the set-up', () => {
  it('editors and readers get the menu entry; farmers do not, and the guard blocks them', () => {
    for (const role of ['editor', 'reader', 'farmer'] as const) {
      render(<MainNav currentPath="/" role={role} />);
      expect(screen.queryByRole('link', { name: slSetup.nav }) !== null).toBe(role !== 'farmer');
      cleanup();
    }
    const input = (role: Role) => ({ access: { role, farmerRecord: 'found' as const }, params: {}, query: {} });
    expect(staffOnly(input('farmer'))?.message).toBe(slSetup.blockedFarmer);
    expect(staffOnly(input('reader'))).toBeNull();
    expect(editorsOnly(input('reader'))?.message).toBe(slSetup.blockedEditorsOnly);
    expect(editorsOnly(input('editor'))).toBeNull();
  });

  it('readers see the seasons and farmers without any control that changes them, and no import', async () => {
    const s = season();
    const db = await deviceWith([...s.durations, s.farmer]);
    showAt('#/setup/seasons', offline('reader'), db);
    expect(await screen.findByText('2026')).toBeTruthy();
    expect(screen.queryByRole('button', { name: slSetup.seasons.add })).toBeNull();
    expect(screen.queryByRole('button', { name: slSetup.common.edit })).toBeNull();
    expect(screen.queryByRole('button', { name: slSetup.common.archive })).toBeNull();
    cleanup();
    showAt('#/setup/farmers', offline('reader'), db);
    expect(await screen.findByText('Ana Kovač')).toBeTruthy();
    expect(screen.queryByRole('button', { name: slSetup.farmers.add })).toBeNull();
    cleanup();
    show(<SetupRoute {...props} />, offline('reader'), db);
    expect(screen.getByRole('link', { name: new RegExp(slSetup.seasons.title) })).toBeTruthy();
    expect(screen.queryByRole('link', { name: new RegExp(slSetup.import.title) })).toBeNull();
  });
});

describe('seasons', () => {
  it("offers a new season only once the device's seasons are read (the overlap check needs them)", async () => {
    await expectAddOnlyOnceRead('#/setup/seasons', [season().duration], slSetup.seasons.add);
  });

  it('marks the current season; refuses an overlap in Slovenian with nothing queued; queues a valid one once', async () => {
    const s = season();
    const db = await deviceWith([s.d2025]);
    const today = new Date();
    const year = today.getFullYear();
    // A season containing today, so the "current" rule has something to mark.
    const current = row(T.durations.id, {
      [c('durations', 'name')]: 'Letos',
      [c('durations', 'filter_start')]: `${year}-01-01`,
      [c('durations', 'filter_end')]: `${year}-12-31`,
    });
    await db.features.put({
      tableId: T.durations.id,
      featureId: current.id,
      projectId: config.projectId,
      feature: current,
      isInsert: 0,
      isEdit: 0,
      isDelete: 0,
      isRecord: 1,
    });
    showAt('#/setup/seasons', offline('editor'), db);
    const marked = within(await screen.findByTestId(`season-${current.id}`));
    expect(marked.getByText(slSetup.seasons.current)).toBeTruthy();
    expect(screen.getByTestId('current-season').textContent).toContain('Letos');

    await openNewEditor(slSetup.seasons.add);
    type('name', 'Prekrivna');
    type('start', `${year}-06-01`);
    type('end', `${year + 1}-02-01`);
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.seasons.overlap('Letos'));
    expect(await db.outbox.count()).toBe(0);

    type('start', `${year + 1}-01-01`);
    type('end', `${year}-12-31`);
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.seasons.badOrder);

    type('name', 'Naslednja');
    type('start', `${year + 1}-03-01`);
    type('end', `${year + 1}-10-31`);
    // The review loop's deadlines: a review deadline before the submission one is refused.
    type('submit_until', `${year + 1}-09-30`);
    type('review_until', `${year + 1}-09-01`);
    type('appeal_days', '15');
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.seasons.reviewBeforeSubmit);
    type('review_until', `${year + 1}-10-31`);
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('status')).textContent).toBe(slSetup.common.savedOffline);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'insert',
      api: 'Records',
      tableId: T.durations.id,
      properties: {
        [c('durations', 'name')]: 'Naslednja',
        [c('durations', 'filter_start')]: `${year + 1}-03-01`,
        [c('durations', 'filter_end')]: `${year + 1}-10-31`,
        [c('durations', 'submit_until')]: `${year + 1}-09-30`,
        [c('durations', 'review_until')]: `${year + 1}-10-31`,
        [c('durations', 'appeal_days')]: 15,
      },
    });
    // The list shows the saved season at once, from the device.
    expect(await screen.findByText('Naslednja')).toBeTruthy();
  });

  it('shows the server’s reason for a refused season edit', async () => {
    const s = season();
    const db = await deviceWith(s.durations);
    const refusal = 'Sezona se prekriva s sezono »2026«.';
    showAt(
      '#/setup/seasons',
      offline('editor', {
        sync: {
          pendingCount: 1,
          attention: [
            {
              seq: 1,
              opId: 'x',
              kind: 'insert',
              tableId: T.durations.id,
              id: 42,
              status: 'failed',
              message: 'Bad Request',
              detail: refusal,
              createdAt: '2026-06-05T08:00:00.000Z',
            },
          ],
          lastSyncAt: null,
          draining: false,
          failures: 0,
          retryAt: null,
          authRequired: false,
          storageError: null,
          reloadRequired: false,
        },
      } as Partial<RootState>),
      db,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(refusal);
  });
});

describe('farmers', () => {
  it("offers a new farmer only once the device's farmers are read (the duplicate checks need them)", async () => {
    await expectAddOnlyOnceRead('#/setup/farmers', [season().farmer], slSetup.farmers.add);
  });

  it('refuses a duplicate e-mail and KMG-MID; queues a new farmer; says accounts need a connection', async () => {
    const s = season();
    const other = row(T.farmers.id, {
      [c('farmers', 'name')]: 'Bojan Zupan',
      [c('farmers', 'email')]: 'bojan@example.si',
      [c('farmers', 'kmg_mid')]: '100200300',
    });
    const db = await deviceWith([s.farmer, other]);
    showAt('#/setup/farmers', offline('editor'), db);
    await openNewEditor(slSetup.farmers.add);
    type('name', 'Cvetka Novak');
    type('email', 'KMET1@example.si');
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.farmers.duplicateEmail);
    type('email', 'cvetka@example.si');
    type('kmg_mid', '100200300');
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.farmers.duplicateKmg);
    expect(await db.outbox.count()).toBe(0);

    type('kmg_mid', '100200301');
    type('phone', '041 123 456');
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('status')).textContent).toBe(slSetup.common.savedOffline);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'insert',
      tableId: T.farmers.id,
      properties: {
        [c('farmers', 'name')]: 'Cvetka Novak',
        [c('farmers', 'email')]: 'cvetka@example.si',
        [c('farmers', 'phone')]: '041 123 456',
        [c('farmers', 'kmg_mid')]: '100200301',
      },
    });
    // The new farmer's account panel: offline, the link cannot be made.
    expect((await screen.findByTestId('account-panel')).textContent).toContain(slSetup.farmers.accountOffline);
  });
});

describe('meadows', () => {
  const square: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [14.5, 46.05],
        [14.502, 46.05],
        [14.502, 46.052],
        [14.5, 46.052],
        [14.5, 46.05],
      ],
    ],
  };
  const bowTie: Geometry = {
    type: 'Polygon',
    coordinates: [
      [
        [14.5, 46.05],
        [14.502, 46.052],
        [14.502, 46.05],
        [14.5, 46.052],
        [14.5, 46.05],
      ],
    ],
  };

  it('refuses a self-intersecting outline; queues a valid one with its area in ha and owner, as a feature', async () => {
    const s = season();
    const db = await deviceWith([s.farmer]);
    showAt('#/setup/areas', offline('editor'), db);
    await openNewEditor(slSetup.areas.add);
    type('name', 'Nov travnik');
    type('gerk_pid', '1234567');
    await waitFor(() => expect(document.querySelectorAll('[name="owner"] option')).toHaveLength(2));
    type('owner', String(s.farmer.id));
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.areas.noPolygon);

    nextDrawing = bowTie;
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.areas.selfIntersecting);
    expect(await db.outbox.count()).toBe(0);

    nextDrawing = square;
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    // About 154 m × 222 m.
    expect(screen.getByTestId('area-ha').textContent).toMatch(/3,4\d ha/);
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('status')).textContent).toBe(slSetup.common.savedOffline);
    const [queued, ...rest] = await db.outbox.toArray();
    expect(rest).toHaveLength(0);
    expect(queued).toMatchObject({
      kind: 'insert',
      api: 'Features',
      tableId: T.areas.id,
      geometry: square,
      properties: { [c('areas', 'name')]: 'Nov travnik', [c('areas', 'gerk_pid')]: '1234567', [c('areas', 'user')]: s.farmer.id },
    });
    expect(queued!.properties![c('areas', 'area_ha')]).toBeCloseTo(3.43, 1);
  });

  it('asks before saving a meadow of thousands of hectares, says the built-in map cannot show parcels, and saves it when the adviser confirms', async () => {
    const s = season();
    const db = await deviceWith([s.farmer]);
    showAt('#/setup/areas', offline('editor'), db);
    await openNewEditor(slSetup.areas.add);
    // The test config names no base map: the built-in one is all there is.
    expect(screen.getByTestId('basemap-note').textContent).toBe(slSetup.areas.basemapNote);
    type('name', 'Štirje tapi');
    await waitFor(() => expect(document.querySelectorAll('[name="owner"] option')).toHaveLength(2));
    type('owner', String(s.farmer.id));
    nextDrawing = {
      type: 'Polygon',
      coordinates: [
        [
          [14.5, 46.05],
          [14.56, 46.05],
          [14.56, 46.11],
          [14.5, 46.11],
          [14.5, 46.05],
        ],
      ],
    };
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    const doubt = await screen.findByTestId('area-doubt');
    expect(doubt.textContent).toMatch(/^Travnik meri \d\.\d{3},\d{1,2} ha, travniki v shemi pa največ okoli 50 ha\./);
    expect(await db.outbox.count()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: slSetup.areas.saveAnyway }));
    expect((await screen.findByRole('status')).textContent).toBe(slSetup.common.savedOffline);
    const [queued] = await db.outbox.toArray();
    expect(queued!.properties![c('areas', 'area_ha')]).toBeGreaterThan(2000);
  });
});

describe('transects', () => {
  it('warns before saving a line that leaves its meadow by more than the margin; "Vseeno shrani" saves it', async () => {
    const s = season();
    const meadow = row(
      T.areas.id,
      { [c('areas', 'name')]: 'Senožet', [c('areas', 'user')]: s.farmer.id },
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [14.5, 46.05],
              [14.502, 46.05],
              [14.502, 46.052],
              [14.5, 46.052],
              [14.5, 46.05],
            ],
          ],
        },
      },
    );
    const db = await deviceWith([s.farmer, meadow]);
    showAt('#/setup/paths', offline('editor'), db);
    await openNewEditor(slSetup.paths.add);
    await waitFor(() => expect(document.querySelectorAll('[name="area"] option')).toHaveLength(2));
    type('area', String(meadow.id));
    type('name', 'Transekt A');
    // 0.001° of longitude at 46° N is about 77 m: the line ends that far east of the meadow.
    nextDrawing = {
      type: 'LineString',
      coordinates: [
        [14.5005, 46.051],
        [14.503, 46.051],
      ],
    };
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    const warning = await screen.findByRole('alert');
    expect(warning.textContent).toMatch(new RegExp(`sega 7\\d m zunaj travnika \\(dovoljeno je ${PATH_OUTSIDE_AREA_MARGIN_M} m\\)`));
    expect(await db.outbox.count()).toBe(0);
    fireEvent.click(within(warning).getByRole('button', { name: slSetup.paths.saveAnyway }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({
      kind: 'insert',
      api: 'Features',
      tableId: T.paths.id,
      geometry: nextDrawing,
      properties: { [c('paths', 'name')]: 'Transekt A', [c('paths', 'parent')]: meadow.id },
    });
  });

  it('a line inside the meadow saves without a question; a path left for the farmer is saved without a line', async () => {
    const s = season();
    const meadow = row(
      T.areas.id,
      { [c('areas', 'name')]: 'Senožet', [c('areas', 'user')]: s.farmer.id },
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [14.5, 46.05],
              [14.502, 46.05],
              [14.502, 46.052],
              [14.5, 46.052],
              [14.5, 46.05],
            ],
          ],
        },
      },
    );
    const db = await deviceWith([s.farmer, meadow]);
    showAt('#/setup/paths', offline('editor'), db);
    await openNewEditor(slSetup.paths.add);
    await waitFor(() => expect(document.querySelectorAll('[name="area"] option')).toHaveLength(2));
    type('area', String(meadow.id));
    type('name', 'Notranja');
    nextDrawing = {
      type: 'LineString',
      coordinates: [
        [14.5005, 46.051],
        [14.5015, 46.0515],
      ],
    };
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(screen.queryByRole('alert')).toBeNull();

    await openNewEditor(slSetup.paths.add);
    await waitFor(() => expect(document.querySelectorAll('[name="area"] option')).toHaveLength(2));
    type('area', String(meadow.id));
    type('name', 'Za hojo');
    fireEvent.click(screen.getByRole('radio', { name: slSetup.paths.howWalk }));
    expect(screen.queryByRole('button', { name: 'test-draw' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(2));
    const queued = await db.outbox.orderBy('seq').toArray();
    expect(queued[1]).toMatchObject({ kind: 'insert', tableId: T.paths.id, properties: { [c('paths', 'name')]: 'Za hojo' } });
    expect(queued[1]!.geometry ?? null).toBeNull();
  });
});

describe('farmers’ own transects', () => {
  it('a farmer draws a new path on their own meadow, offline: one insert queued with the meadow as parent', async () => {
    const s = season();
    const meadow = {
      ...s.areas[0]!,
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          [
            [14.5, 46.05],
            [14.502, 46.05],
            [14.502, 46.052],
            [14.5, 46.052],
            [14.5, 46.05],
          ],
        ],
      },
    };
    const db = await deviceWith([]);
    const preloaded = offline('farmer');
    (preloaded.season as { areas: StoredRecord[] }).areas = [meadow, s.areas[1]!];
    show(<PathNewRoute params={{}} query={{ area: String(meadow.id) }} />, preloaded, db);
    expect((document.querySelector('[name="area"]') as HTMLSelectElement).value).toBe(String(meadow.id));
    // Only the farmer's own meadows to choose from.
    expect(document.querySelectorAll('[name="area"] option')).toHaveLength(3);
    type('name', 'Moja pot');
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(slSetup.paths.noLine);
    nextDrawing = {
      type: 'LineString',
      coordinates: [
        [14.5005, 46.051],
        [14.5015, 46.0515],
      ],
    };
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    fireEvent.click(screen.getByRole('button', { name: sl.common.save }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({
      kind: 'insert',
      api: 'Features',
      tableId: T.paths.id,
      geometry: nextDrawing,
      properties: { [c('paths', 'name')]: 'Moja pot', [c('paths', 'parent')]: meadow.id },
    });
    // Saved: the screen moves on to the new path without asking about unsaved input.
    await waitFor(() => expect(window.location.hash).toBe(`#/paths/${queued!.id}`));
  });

  it('"Prehodim jo" hands over to the walk recorder instead of saving a line', async () => {
    const s = season();
    const preloaded = offline('farmer');
    (preloaded.season as { areas: StoredRecord[] }).areas = s.areas;
    show(<PathNewRoute params={{}} query={{ area: String(s.areas[0]!.id) }} />, preloaded, await deviceWith([]));
    type('name', 'Prehojena');
    fireEvent.click(screen.getByRole('radio', { name: slSetup.paths.howWalkSelf }));
    expect(screen.getByText(slSetup.paths.walkNext)).toBeTruthy();
    expect(screen.queryByRole('button', { name: sl.common.save })).toBeNull();
  });

  it('correcting a walked line: the leave-page question covers a changed, unsaved drawing', async () => {
    const s = season();
    const preloaded = offline('farmer');
    Object.assign(preloaded.season as object, { areas: s.areas, paths: s.paths, durationPaths: s.durationPaths, duration: s.duration });
    show(<PathRoute params={{ pathId: String(s.pathDone.id) }} query={{}} />, preloaded, await deviceWith([]));
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    fireEvent.click(screen.getByRole('button', { name: slSetup.paths.correct }));
    // The drawing tool reports the stored line first: nothing changed yet.
    nextDrawing = s.pathDone.geometry!;
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    expect(unload()).toBe(false);
    nextDrawing = {
      type: 'LineString',
      coordinates: [
        [16.2, 46.8],
        [16.2005, 46.8004],
      ],
    };
    fireEvent.click(screen.getByRole('button', { name: 'test-draw' }));
    await waitFor(() => expect(unload()).toBe(true));
  });

  it('readers cannot open the new-path screen', () => {
    expect(readersCannotCreate({ access: { role: 'reader', farmerRecord: 'unknown' }, params: {}, query: {} })?.message).toBe(sl.router.blockedReader);
    expect(readersCannotCreate({ access: { role: 'farmer', farmerRecord: 'found' }, params: {}, query: {} })).toBeNull();
  });
});
