/**
 * The form screen follows an offline-made form to its server id (the router resolves the id in the
 * address through lib/db/identity, the season rows follow the same delivery) — and never to
 * another form of the same kind on the same path this season. Found in Chromium: a farmer's
 * second meadow form of the season, saved online, had its answers written into the first one when
 * a season reload read the forms before the new one reached the server.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { seasonLoaded } from '../../../src/client/features/season/season-actions';
import {
  acknowledge,
  onOutboxChange,
  openOfflineDb,
  refreshRows,
  tableRows,
  readOutbox,
  saveEdit,
  type OfflineDb,
  type StoredRecord,
} from '../../../src/client/lib/db';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { sl, slScreens } from '../../../src/common/i18n/sl';
import { response } from '../data-layer/helpers';
import { config, loadedState, renderRoute, renderWithStore, row, season, seasonData } from './fixtures';

// The route's map needs WebGL (jsdom has none); nothing here opens it.
jest.unstable_mockModule('../../../src/client/features/map/index', () => ({
  MapView: () => null,
  GeometryEditor: () => null,
  recordsToMapItems: () => [],
}));
const { default: FormRoute } = await import('../../../src/client/app/routes/form');

jest.setTimeout(30_000);

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

const fc = config.tables.forms.columns;
const kind = FORM_KINDS.travnik;

/** A new meadow form of this season on the first path, made on the device (queued, offline id). */
function newMeadowFormOnDevice(db: OfflineDb, s: ReturnType<typeof season>) {
  return saveEdit(db, {
    kind: 'insert',
    projectId: config.projectId,
    tableId: config.tables.forms.id,
    properties: {
      [fc.parent]: s.durationPaths[0]!.id,
      [fc.form_id]: kind.id,
      [fc.score]: kind.scoring.base,
      [fc.rule_version]: kind.scoring.version,
      [fc.completed]: false,
    },
  });
}

/**
 * Resolves once the outbox holds `count` items: the save has stored its edits (every stored edit
 * is announced by an outbox notification after its transaction committed).
 */
function outboxHolds(db: OfflineDb, count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () =>
      void db.outbox.count().then((queued) => {
        if (queued < count) return;
        stop();
        resolve();
      });
    const stop = onOutboxChange(db, check);
    check();
  });
}

const checked = (key: string, answer: string) =>
  within(screen.getByTestId(`indicator-${key}`))
    .getByRole('radio', { name: answer })
    .getAttribute('aria-checked');

describe('following an offline-made form', () => {
  it('a reload without the new form does not switch the screen to the other form of the kind; once delivered, the address and the screen follow the server id', async () => {
    const s = season();
    const first = s.formDone; // kind 'travnik' on dp1, zlata rozga answered "Da"
    const db = openOfflineDb({ name: `form-follow-${Date.now()}-${Math.random()}` });
    dbs.push(db);
    // Made on the path screen: on the device and queued.
    const saved = await newMeadowFormOnDevice(db, s);
    const made = saved.record!;
    const preloaded = loadedState(seasonData(s, { forms: [first, made] }));
    const { store, stopFollowing } = renderRoute('form', `#/forms/${made.id}`, { preloaded, db });
    await screen.findByTestId('indicator-solidago');
    expect(checked('solidago', slScreens.forms.yes)).toBe('false');

    // Rows without the new form (a read older than it): the screen reads it from the device, never the other form.
    act(() => {
      store.dispatch(seasonLoaded(seasonData(s, { forms: [first] })));
    });
    await waitFor(() => expect(checked('solidago', slScreens.forms.yes)).toBe('false'));

    // Delivered (acknowledged by the server: the outbox records which server row it became); the server's copy arrives.
    const delivered = { ...made, id: 10_000_900, version: 1, createdAt: '2026-06-05T09:00:03.000Z', updatedAt: '2026-06-05T09:00:03.000Z' };
    await act(async () => {
      await acknowledge(db, [{ item: (await readOutbox(db))[0]!, id: delivered.id }]);
    });
    await waitFor(() => expect(window.location.hash).toBe(`#/forms/${delivered.id}`));
    act(() => {
      store.dispatch(seasonLoaded(seasonData(s, { forms: [first, delivered] })));
    });
    await waitFor(() => expect(checked('solidago', slScreens.forms.yes)).toBe('false'));
    fireEvent.click(within(screen.getByTestId('indicator-lotus-corniculatus')).getByRole('radio', { name: slScreens.forms.yes }));
    const stored = outboxHolds(db, 2);
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    // The answer and the form's update are stored (the condition the save means), then the screen says so.
    await act(() => stored);
    await screen.findByText(slScreens.states.saved);
    stopFollowing();
    const queued = await db.outbox.orderBy('seq').toArray();
    // The answer and the form update go to the new form, nothing to the first one.
    expect(queued.find((q) => q.kind === 'insert')!.properties).toMatchObject({ [config.tables.indicators.columns.parent]: delivered.id });
    expect(queued.filter((q) => q.tableId === config.tables.forms.id).map((q) => q.id)).toEqual([delivered.id]);
    expect(queued.some((q) => q.id === first.id || q.properties?.[config.tables.indicators.columns.parent] === first.id)).toBe(false);
  });

  it('a form known only on the device, delivered while the season still lists only the other form of its kind, stays itself (the Chromium case)', async () => {
    const s = season();
    const first = s.formDone; // kind 'travnik' on dp1, zlata rozga answered "Da"
    const db = openOfflineDb({ name: `form-follow-${Date.now()}-${Math.random()}` });
    dbs.push(db);
    // Made on the path screen just now: on the device, not yet in the season rows.
    const made = await newMeadowFormOnDevice(db, s);
    const localId = made.record!.id;
    const preloaded = loadedState(seasonData(s, { forms: [first] }), { online: true });
    const { store, stopFollowing } = renderRoute('form', `#/forms/${localId}`, { preloaded, db });
    await screen.findByTestId('indicator-solidago');
    expect(checked('solidago', slScreens.forms.yes)).toBe('false');

    // The outbox delivered it (server id recorded, the device row moved) while the season still
    // lists only the first form of the kind: the screen must not become the first form.
    const serverId = 10_000_901;
    await act(async () => {
      await acknowledge(db, [{ item: (await readOutbox(db))[0]!, id: serverId }]);
    });
    await waitFor(() => expect(window.location.hash).toBe(`#/forms/${serverId}`));
    act(() => {
      store.dispatch(seasonLoaded(seasonData(s, { forms: [first], loadedAt: '2026-06-05T08:00:05.000Z' })));
    });
    await waitFor(() => expect(checked('solidago', slScreens.forms.yes)).toBe('false'));

    fireEvent.click(within(screen.getByTestId('indicator-lotus-corniculatus')).getByRole('radio', { name: slScreens.forms.yes }));
    const stored = outboxHolds(db, 2);
    fireEvent.click(screen.getByRole('button', { name: slScreens.forms.save }));
    await act(() => stored);
    stopFollowing();
    const queued = await db.outbox.orderBy('seq').toArray();
    // The answer and the form update name the new form (its server id), nothing names the first one.
    expect(queued.find((q) => q.kind === 'insert')!.properties).toMatchObject({ [config.tables.indicators.columns.parent]: serverId });
    expect(queued.filter((q) => q.tableId === config.tables.forms.id).map((q) => q.id)).toEqual([serverId]);
    expect(queued.some((q) => q.id === first.id || q.properties?.[config.tables.indicators.columns.parent] === first.id)).toBe(false);
  });
});

describe('a form made on the device and not delivered yet, opened online', () => {
  it('is shown from the device, and the server is not asked for it (it cannot have it under its offline id)', async () => {
    const s = season();
    const db = openOfflineDb({ name: `form-local-${Date.now()}-${Math.random()}` });
    dbs.push(db);
    const made = await newMeadowFormOnDevice(db, s);
    const asked: string[] = [];
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      asked.push(`${String(input)} ${String(init?.body ?? '')}`);
      return response({ body: { records: [], totalCount: 0 } });
    }) as typeof fetch;
    // The season as read before the form was made: it does not list the form yet.
    const preloaded = loadedState(seasonData(s, { forms: [s.formDone] }), { online: true });
    renderWithStore(<FormRoute params={{ formId: String(made.record!.id) }} query={{}} />, { preloaded, db, fetchFn });
    await screen.findByTestId('indicator-solidago');
    // Where the form belongs comes from the device too.
    await waitFor(() => expect(document.querySelector('.page__lead')?.textContent).toBe('Pot 1 · 2026'));
    expect(asked).toEqual([]);
  });
});

describe("an earlier season's form opened by its address on a fresh device", () => {
  it('is read from the server when online, shown with its answers, its thread, its path and season, and kept on the device', async () => {
    const s = season();
    const db = openOfflineDb({ name: `form-fresh-${Date.now()}-${Math.random()}` });
    dbs.push(db);
    const cc = config.tables.comments.columns;
    const remark = row(config.tables.comments.id, { [cc.parent]: s.formOld.id, [cc.text]: 'Lepo popisano.', [cc.author]: 'urednik@example.si' });
    const fetchFn = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const { tableId } = JSON.parse(String(init?.body)) as { tableId: number };
      const records =
        tableId === config.tables.forms.id
          ? [s.formOld]
          : tableId === config.tables.indicators.id
            ? s.oldIndicators
            : tableId === config.tables.comments.id
              ? [remark]
              : tableId === config.tables.durationPaths.id
                ? [s.allDurationPaths.at(-1)!]
                : tableId === config.tables.durations.id
                  ? [s.d2025]
                  : tableId === config.tables.paths.id
                    ? [s.pathDone]
                    : [];
      return response({ body: { records, totalCount: records.length } });
    }) as typeof fetch;
    const preloaded = loadedState(seasonData(s, { forms: [s.formDone] }), { online: true });
    renderWithStore(<FormRoute params={{ formId: String(s.formOld.id) }} query={{}} />, { preloaded, db, fetchFn });
    await waitFor(() => expect(checked('salvia-pratensis', slScreens.forms.yes)).toBe('true'));
    expect((await tableRows(db, config.tables.forms.id).toArray()).map((r) => r.feature.id)).toEqual([s.formOld.id]);
    expect(within(await screen.findByTestId('review-thread')).getByText('Lepo popisano.')).toBeTruthy();
    expect((await tableRows(db, config.tables.comments.id).toArray()).map((r) => r.feature.id)).toEqual([remark.id]);
    // The farmer may not change it, and is told why: it is an earlier season's (not "as a reader").
    expect(screen.getByText(slScreens.states.readOnlyPastSeason)).toBeTruthy();
    expect(screen.queryByText(slScreens.states.readOnly)).toBeNull();
    expect(screen.queryByRole('button', { name: slScreens.forms.save })).toBeNull();
    // Which path and season it is of (the season's rows know neither: they are this season's),
    // and the way back leads to that path, where its earlier seasons are listed.
    await waitFor(() => expect(document.querySelector('.page__lead')?.textContent).toBe('Pot 1 · 2025'));
    expect(screen.getByRole('link', { name: 'Pot 1' }).getAttribute('href')).toBe(`#/paths/${s.pathDone.id}`);
  });

  it("an adviser who has not chosen its farmer sees its farmer, path and season named; the way back is the forms list (the path's screen would not show it)", async () => {
    const s = season();
    const db = openOfflineDb({ name: `form-adviser-${Date.now()}-${Math.random()}` });
    dbs.push(db);
    const answers: Record<number, StoredRecord[]> = {
      [config.tables.forms.id]: [s.formOld],
      [config.tables.indicators.id]: s.oldIndicators,
      [config.tables.durationPaths.id]: [s.allDurationPaths.at(-1)!],
      [config.tables.durations.id]: [s.d2025],
      [config.tables.paths.id]: [s.pathDone],
      [config.tables.areas.id]: [s.areas[0]!],
    };
    const fetchFn = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const records = answers[(JSON.parse(String(init?.body)) as { tableId: number }).tableId] ?? [];
      return response({ body: { records, totalCount: records.length } });
    }) as typeof fetch;
    const preloaded = loadedState(seasonData(s, { role: 'editor', farmerId: null, areas: [], paths: [], durationPaths: [], forms: [], indicators: [] }), {
      online: true,
    });
    renderWithStore(<FormRoute params={{ formId: String(s.formOld.id) }} query={{}} />, { preloaded, db, fetchFn });
    await waitFor(() => expect(document.querySelector('.page__lead')?.textContent).toBe('Ana Kovač · Pot 1 · 2025'));
    expect(screen.getByRole('link', { name: sl.nav.forms }).getAttribute('href')).toBe('#/forms');
  });

  it('offline, names its path and season from the device copy', async () => {
    const s = season();
    const db = openOfflineDb({ name: `form-offline-${Date.now()}-${Math.random()}` });
    dbs.push(db);
    const { projectId, tables } = config;
    const keep = (tableId: number, records: StoredRecord[]) => refreshRows(db, records, { projectId, tableId, inScope: () => true, requestedAt: Date.now() });
    await keep(tables.forms.id, [s.formOld]);
    await keep(tables.indicators.id, s.oldIndicators);
    await keep(tables.durationPaths.id, [s.allDurationPaths.at(-1)!]);
    await keep(tables.durations.id, [s.d2025]);
    const preloaded = loadedState(seasonData(s, { forms: [s.formDone], source: 'device' }));
    renderWithStore(<FormRoute params={{ formId: String(s.formOld.id) }} query={{}} />, { preloaded, db });
    await waitFor(() => expect(checked('salvia-pratensis', slScreens.forms.yes)).toBe('true'));
    await waitFor(() => expect(document.querySelector('.page__lead')?.textContent).toBe('Pot 1 · 2025'));
  });
});
