/**
 * Editors archive meadows and single indicators, tested on the route screens
 * with a real store over a fake-indexeddb device database, offline: the control shows for editors
 * only, nothing happens without the confirmation, cancel changes nothing, and confirming queues
 * exactly one archive edit in the outbox. An archived meadow (with its paths) and an archived
 * indicator are gone from the farmer's screens, and the indicator from the live score.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RootState } from '../../../src/client/app/root-reducer';
import { openOfflineDb, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { sl, slScreens } from '../../../src/common/i18n/sl';
import { config, loadedState, renderWithStore, season, seasonData, type Season } from './fixtures';

// The form route's map (MapLibre) needs WebGL, which jsdom lacks; the map pick is proven in
// Chromium (test/e2e/form-location.test.ts). Nothing here opens the map.
jest.unstable_mockModule('../../../src/client/features/map/index', () => ({
  MapView: () => null,
  GeometryEditor: () => null,
  recordsToMapItems: () => [],
}));
const { default: FormRoute } = await import('../../../src/client/app/routes/form');
const { default: HomeRoute } = await import('../../../src/client/app/routes/home');
const { default: PathsRoute } = await import('../../../src/client/app/routes/paths');

jest.setTimeout(30_000);

type Role = 'editor' | 'reader' | 'farmer';

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

function newDb(): OfflineDb {
  const db = openOfflineDb({ name: `archive-${dbs.length}-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  return db;
}

/** The store as it is once a user's season is loaded from the device, offline. */
function loaded(role: Role, s: Season, rows: Partial<Pick<Season, 'areas' | 'indicators'>> = {}): Partial<RootState> {
  return loadedState(seasonData(s, { source: 'device', role, ...rows }));
}

const routeProps = (params: Record<string, string> = {}) => ({ params, query: {} }) as Parameters<typeof FormRoute>[0];

function liveScore(): string {
  return screen.getByTestId('live-score').querySelector('.score-badge')!.textContent ?? '';
}

describe('archiving a meadow (home, editors)', () => {
  it('asks first; cancel changes nothing; confirming queues exactly one archive edit of the area', async () => {
    const s = season();
    const db = newDb();
    renderWithStore(<HomeRoute {...routeProps()} />, { preloaded: loaded('editor', s), db });
    const [areaA, areaB] = s.areas as [StoredRecord, StoredRecord];
    const card = screen.getByTestId(`area-${areaA.id}`);
    // One control per meadow.
    expect(within(screen.getByTestId(`area-${areaB.id}`)).getAllByRole('button', { name: slScreens.archive.area })).toHaveLength(1);

    fireEvent.click(within(card).getByRole('button', { name: slScreens.archive.area }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(slScreens.archive.areaConfirm);
    fireEvent.click(within(dialog).getByRole('button', { name: sl.common.cancel }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await db.outbox.count()).toBe(0);
    expect(screen.getByTestId(`area-${areaA.id}`)).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: slScreens.archive.area }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: slScreens.archive.area }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(1));
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({
      kind: 'archive',
      api: 'Records',
      projectId: config.projectId,
      tableId: config.tables.areas.id,
      id: areaA.id,
      status: 'pending',
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each<Role>(['farmer', 'reader'])('%s gets no archive control on home', (role) => {
    const s = season();
    renderWithStore(<HomeRoute {...routeProps()} />, { preloaded: loaded(role, s), db: newDb() });
    expect(screen.getByTestId(`area-${s.areas[0]!.id}`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: slScreens.archive.area })).toBeNull();
  });

  it('after sync the archived meadow and its paths are gone from the farmer’s home and paths list', () => {
    const s = season();
    const [areaA, areaB] = s.areas as [StoredRecord, StoredRecord];
    const rows = { areas: [{ ...areaA, archived: true }, areaB] };
    renderWithStore(<HomeRoute {...routeProps()} />, { preloaded: loaded('farmer', s, rows), db: newDb() });
    expect(screen.queryByTestId(`area-${areaA.id}`)).toBeNull();
    expect(screen.queryByTestId(`home-path-${s.pathDone.id}`)).toBeNull();
    expect(screen.queryByTestId(`home-path-${s.pathWalked.id}`)).toBeNull();
    expect(screen.getByTestId(`home-path-${s.pathNew.id}`)).toBeTruthy();
    cleanup();
    renderWithStore(<PathsRoute {...routeProps()} />, { preloaded: loaded('farmer', s, rows), db: newDb() });
    expect(screen.queryByText('Pot 1')).toBeNull();
    expect(screen.queryByText('Pot 2')).toBeNull();
    expect(screen.getByText('Pot 3')).toBeTruthy();
  });
});

describe('archiving an indicator (form, editors)', () => {
  const base = FORM_KINDS.travnik.scoring.base;

  it('asks first; cancel changes nothing; confirming queues exactly one archive edit and drops it from the form and the score', async () => {
    const s = season();
    const db = newDb();
    renderWithStore(<FormRoute {...routeProps({ formId: String(s.formDone.id) })} />, { preloaded: loaded('editor', s), db });
    // Zlata rozga is further down the checklist than its first screen: it follows after paints.
    await screen.findByTestId('indicator-solidago');
    const [kadulja, rozga] = s.indicators as [StoredRecord, StoredRecord];
    // Stored rows get the control; indicators without a row have nothing to archive.
    expect(within(screen.getByTestId('indicator-salvia-pratensis')).getByRole('button', { name: slScreens.archive.indicator })).toBeTruthy();
    expect(within(screen.getByTestId('indicator-lotus-corniculatus')).queryByRole('button', { name: slScreens.archive.indicator })).toBeNull();
    expect(screen.getAllByRole('button', { name: slScreens.archive.indicator })).toHaveLength(2);
    const before = Math.max(0, base + 7 - 20);
    expect(liveScore()).toContain(String(before));

    const card = screen.getByTestId('indicator-solidago');
    fireEvent.click(within(card).getByRole('button', { name: slScreens.archive.indicator }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(slScreens.archive.indicatorConfirm(FORM_KINDS.travnik.indicators.find((d) => d.key === 'solidago')!.name));
    fireEvent.click(within(dialog).getByRole('button', { name: sl.common.cancel }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await db.outbox.count()).toBe(0);
    expect(screen.getByTestId('indicator-solidago')).toBeTruthy();
    expect(liveScore()).toContain(String(before));

    fireEvent.click(within(card).getByRole('button', { name: slScreens.archive.indicator }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: slScreens.archive.indicator }));
    await waitFor(() => expect(screen.queryByTestId('indicator-solidago')).toBeNull());
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'archive',
      api: 'Records',
      projectId: config.projectId,
      tableId: config.tables.indicators.id,
      id: rozga.id,
      status: 'pending',
    });
    // Zlata rozga no longer lowers the score; kadulja still raises it. The score follows the form in
    // a deferred render (after the frame of the change), so it is waited for.
    await waitFor(() => expect(liveScore()).toContain(String(base + 7)));
    expect(screen.getByTestId('live-score').querySelector('[data-key="solidago"]')).toBeNull();
    expect(screen.getByTestId('indicator-salvia-pratensis')).toBeTruthy();
    expect(kadulja.id).not.toBe(rozga.id);

    // Saving the form afterwards neither brings the row back nor re-creates it: only the form row.
    // (The stored form is marked completed without its required answers: save it as a draft.)
    fireEvent.click(screen.getByRole('checkbox', { name: slScreens.forms.markCompleted }));
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await screen.findByText(slScreens.states.saved);
    const after = await db.outbox.orderBy('seq').toArray();
    expect(after.map((q) => [q.kind, q.tableId])).toEqual([
      ['archive', config.tables.indicators.id],
      ['update', config.tables.forms.id],
    ]);
    expect(after[1]!.properties).toMatchObject({ [config.tables.forms.columns.score]: base + 7 });
  });

  it.each<Role>(['farmer', 'reader'])('%s gets no indicator archive control', async (role) => {
    const s = season();
    renderWithStore(<FormRoute {...routeProps({ formId: String(s.formDone.id) })} />, { preloaded: loaded(role, s), db: newDb() });
    expect(await screen.findByTestId('indicator-solidago')).toBeTruthy();
    expect(screen.queryByRole('button', { name: slScreens.archive.indicator })).toBeNull();
  });

  it('after sync an archived indicator is gone from the farmer’s form and its live score', async () => {
    const s = season();
    const [kadulja, rozga] = s.indicators as [StoredRecord, StoredRecord];
    renderWithStore(<FormRoute {...routeProps({ formId: String(s.formDone.id) })} />, {
      preloaded: loaded('farmer', s, { indicators: [kadulja, { ...rozga, archived: true }] }),
      db: newDb(),
    });
    // The whole checklist (its later slices follow after paints) but zlata rozga.
    await waitFor(() => expect(document.querySelectorAll('[data-testid^="indicator-"]')).toHaveLength(FORM_KINDS.travnik.indicators.length - 1));
    expect(screen.queryByTestId('indicator-solidago')).toBeNull();
    expect(screen.getByTestId('indicator-salvia-pratensis')).toBeTruthy();
    expect(liveScore()).toContain(String(base + 7));
  });
});
