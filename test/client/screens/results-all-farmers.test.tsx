/**
 * Results of all farmers for editors and readers: the route reads every page of every
 * farmer's rows from the server (a stand-in answering POST …/search with filters and paging),
 * keeps them on the device for offline use, shows a farmer column and filter, and exports CSV with
 * each form's change history, read a few forms at a time. Farmers still see their own rows only.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import ResultsRoute from '../../../src/client/app/routes/results';
import { makeStore } from '../../../src/client/app/store';
import type { SeasonData } from '../../../src/client/features/season';
import { seasonLoaded } from '../../../src/client/features/season';
import { browserOnlineChanged, reachabilityProbed } from '../../../src/client/features/sync';
import { mapWithLimit } from '../../../src/client/features/results/export-history';
import { buildAllFarmersResults } from '../../../src/client/features/results/results-model';
import { configLoaded } from '../../../src/client/lib/config';
import type { StoredRecord } from '../../../src/client/lib/db/database';
import type { FilterNode, SearchRequest } from '../../../src/common/filter';
import { sl, slScreens } from '../../../src/common/i18n/sl';
import type { AuditPage } from '../../../src/common/schemas/audit';
import { formatDateTime } from '../../../src/common/format';
import { openTestDb, response, uniqueDbName } from '../data-layer/helpers';
import { config, row, season } from './fixtures';

const T = config.tables;
const c = <K extends keyof typeof T>(table: K, column: string) => String((T[table].columns as Record<string, number>)[column]);
const t = slScreens.results;

/** Two farmers: Ana (the fixture season: 2025 and 2026) and Boris (one path, 2026), plus archived rows. */
function twoFarmers() {
  const s = season();
  const boris = row(T.farmers.id, { [c('farmers', 'name')]: 'Boris Zupan', [c('farmers', 'email')]: 'kmet2@example.si' });
  const borisArea = row(T.areas.id, { [c('areas', 'name')]: 'Gmajna', [c('areas', 'user')]: boris.id });
  const borisPath = row(T.paths.id, { [c('paths', 'name')]: 'Borisova pot', [c('paths', 'parent')]: borisArea.id });
  const borisDp = row(T.durationPaths.id, { [c('durationPaths', 'path_id')]: borisPath.id, [c('durationPaths', 'duration_id')]: s.duration.id });
  const borisForm = row(T.forms.id, {
    [c('forms', 'parent')]: borisDp.id,
    [c('forms', 'form_id')]: s.formDone.properties[c('forms', 'form_id')],
    [c('forms', 'score')]: 30,
    [c('forms', 'rule_version')]: s.formDone.properties[c('forms', 'rule_version')],
    [c('forms', 'completed')]: true,
  });
  // Archived on the server: a path of Boris's with a form — never shown.
  const archivedPath = row(T.paths.id, { [c('paths', 'name')]: 'Arhivirana pot', [c('paths', 'parent')]: borisArea.id }, { archived: true });
  const archivedDp = row(T.durationPaths.id, { [c('durationPaths', 'path_id')]: archivedPath.id, [c('durationPaths', 'duration_id')]: s.duration.id });
  const archivedForm = row(T.forms.id, {
    [c('forms', 'parent')]: archivedDp.id,
    [c('forms', 'form_id')]: s.formDone.properties[c('forms', 'form_id')],
    [c('forms', 'score')]: 99,
  });
  const rows: StoredRecord[] = [
    s.farmer,
    boris,
    ...s.areas,
    borisArea,
    ...s.paths,
    borisPath,
    archivedPath,
    ...s.durations,
    ...s.allDurationPaths,
    borisDp,
    archivedDp,
    s.formDone,
    s.formOld,
    borisForm,
    archivedForm,
    ...s.indicators,
    ...s.oldIndicators,
  ];
  return { s, boris, borisArea, borisPath, borisForm, archivedForm, rows };
}

/** The filters the client sends: Equals / In on columns and the archived flag, And. */
function matches(node: FilterNode | undefined, r: StoredRecord): boolean {
  if (!node) return true;
  if (node.kind === 'expression') return node.operator === 'And' ? node.nodes.every((n) => matches(n, r)) : node.nodes.some((n) => matches(n, r));
  const value = node.columnId === 'archived' ? r.archived : r.properties[String(node.columnId)];
  if (node.comparison === 'Equals') return value === node.value;
  if (node.comparison === 'In') return (node.value as unknown[]).includes(value as never);
  throw new Error(`comparison ${node.comparison} not in the stand-in`);
}

/**
 * POST …/search over `rows` and GET /api/Audit/1?recordId= (a form's trail). `pageCap` answers at most that many rows a page
 * (whatever perPage asked), with the true totalCount, so reading one page is not enough.
 */
class FakeServer {
  searches: SearchRequest[] = [];
  detailed: number[] = [];
  searchStatus = 200;
  /** While set, trail answers wait for it (an export under way). */
  detailGate: Promise<void> | null = null;
  constructor(
    public rows: StoredRecord[],
    public pageCap = Infinity,
  ) {}

  /** A form's trail, newest first, as the server names it (the score changed by an adviser). */
  trail(id: number): AuditPage {
    const entry = { tableId: T.forms.id, table: 'forms', recordId: id, record: 'Popis · Pot · 2026' };
    return {
      entries: [
        {
          ...entry,
          id: 2,
          action: 'update',
          changedBy: 'urednik@example.si',
          changedAt: '2026-06-02T10:00:00Z',
          changes: [{ column: 'score', old: 10, new: 72 }],
        },
        {
          ...entry,
          id: 1,
          action: 'insert',
          changedBy: 'kmet@example.si',
          changedAt: '2026-06-01T10:00:00Z',
          changes: [{ column: 'score', old: null, new: 10 }],
        },
      ],
      totalCount: 2,
    };
  }

  fetch: typeof fetch = async (input, init) => {
    const url = String(input);
    if (url.endsWith('/api/Records/1/search')) {
      const body = JSON.parse(String(init?.body)) as SearchRequest;
      this.searches.push(body);
      if (this.searchStatus !== 200) return response({ status: this.searchStatus, body: { status: this.searchStatus, message: 'Forbidden' } });
      const hits = this.rows.filter((r) => r.tableId === body.tableId && matches(body.filters, r)).sort((a, b) => a.id - b.id);
      const size = Math.min(body.perPage ?? 10_000, this.pageCap);
      const page = body.page ?? 1;
      return response({ body: { records: hits.slice((page - 1) * size, page * size), totalCount: hits.length } });
    }
    const trail = /\/api\/Audit\/1\?(.*)$/.exec(url);
    if (trail) {
      const id = Number(new URLSearchParams(trail[1]).get('recordId'));
      this.detailed.push(id);
      if (this.detailGate) await this.detailGate;
      return response({ body: this.trail(id) });
    }
    return response({ status: 404, body: { status: 404, message: 'Not Found' } });
  };
}

function seasonData(s: ReturnType<typeof season>, role: SeasonData['role'], farmers: StoredRecord[]): SeasonData {
  const farmer = role === 'farmer';
  return {
    source: 'server',
    role,
    farmers,
    farmerId: farmer ? s.farmer.id : null,
    areas: farmer ? s.areas : [],
    duration: farmer ? s.duration : null,
    paths: farmer ? s.paths : [],
    durationPaths: farmer ? s.durationPaths : [],
    forms: farmer ? s.forms : [],
    indicators: farmer ? s.indicators : [],
    comments: [],
    refKeys: {},
    loadedAt: '2026-06-15T10:00:00.000Z',
    notice: null,
  };
}

function renderResults(server: FakeServer, data: SeasonData, { dbName = uniqueDbName('results'), online = true, probed = true } = {}) {
  const db = openTestDb(dbName);
  const store = makeStore(undefined, { extra: { db, api: { baseUrl: 'http://server.test', fetchFn: server.fetch } } });
  store.dispatch(configLoaded({ config, source: 'network' }));
  if (!online) store.dispatch(browserOnlineChanged(false));
  else if (probed) store.dispatch(reachabilityProbed({ reachable: true, at: '2026-06-15T10:00:00.000Z' }));
  store.dispatch(seasonLoaded(data));
  const utils = render(
    <Provider store={store}>
      <ResultsRoute params={{}} query={{}} />
    </Provider>,
  );
  return { store, db, ...utils };
}

const allSeasons = () => fireEvent.change(screen.getByLabelText(t.season), { target: { value: 'all' } });
const farmerCells = () => screen.getAllByTestId('result-farmer').map((cell) => cell.textContent);

let blobs: Blob[] = [];
beforeEach(() => {
  blobs = [];
  URL.createObjectURL = ((blob: Blob) => {
    blobs.push(blob);
    return 'blob:test';
  }) as typeof URL.createObjectURL;
  URL.revokeObjectURL = () => undefined;
  // jsdom does not navigate to downloads.
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  jest.restoreAllMocks();
});

function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

describe('results of all farmers (editors and readers)', () => {
  it("the editor sees both farmers' rows, narrows them to one farmer, and archived rows stay out", async () => {
    const { s, boris, borisForm, archivedForm, rows } = twoFarmers();
    const server = new FakeServer(rows);
    renderResults(server, seasonData(s, 'editor', [s.farmer]));
    expect(screen.getByText(sl.common.loading)).toBeTruthy();
    await screen.findByTestId(`result-${borisForm.id}`);
    // The newest season (2026): Ana's and Boris's forms, with the farmer column, by name.
    expect(screen.getByTestId(`result-${s.formDone.id}`)).toBeTruthy();
    expect(farmerCells()).toEqual(['Ana Kovač', 'Boris Zupan']);
    expect(screen.queryByTestId(`result-${archivedForm.id}`)).toBeNull();
    expect(screen.getByText(t.allFarmersLead)).toBeTruthy();
    // Per farmer summary of the season.
    expect(within(screen.getByTestId(`summary-farmer-${boris.id}`)).getByText('30')).toBeTruthy();
    expect(within(screen.getByTestId(`summary-farmer-${s.farmer.id}`)).getByText('72')).toBeTruthy();

    // Narrow to Boris ('Vsi kmetje' is the default).
    const select = screen.getByLabelText(t.farmer) as HTMLSelectElement;
    expect(select.value).toBe('all');
    expect([...select.options].map((o) => o.textContent)).toEqual([t.allFarmers, 'Ana Kovač', 'Boris Zupan']);
    fireEvent.change(select, { target: { value: String(boris.id) } });
    expect(farmerCells()).toEqual(['Boris Zupan']);
    expect(screen.queryByTestId(`result-${s.formDone.id}`)).toBeNull();
    expect(screen.getByText(`${t.farmer}: Boris Zupan`)).toBeTruthy();
    // The chart summarises what is shown: Boris's one season.
    expect(screen.getByTestId('season-chart').querySelector('svg')!.getAttribute('aria-label')).toBe('2026: 30 (slabo)');
    // Back to everyone, every season: Ana's 2025 form too.
    fireEvent.change(select, { target: { value: 'all' } });
    allSeasons();
    expect(screen.getByTestId(`result-${s.formOld.id}`)).toBeTruthy();
    expect(screen.getByTestId('season-chart').querySelector('svg')!.getAttribute('aria-label')).toBe('2025: 40 (srednje), 2026: 51 (srednje)');
    // Readers see the same without export buttons.
  });

  it('reads every page when the server answers fewer rows than there are (totalCount > page)', async () => {
    const { s, borisForm, rows } = twoFarmers();
    const server = new FakeServer(rows, 2);
    renderResults(server, seasonData(s, 'reader', [s.farmer]));
    await screen.findByTestId(`result-${borisForm.id}`);
    allSeasons();
    expect(screen.getByTestId(`result-${s.formOld.id}`)).toBeTruthy();
    expect(screen.getByTestId(`result-${s.formDone.id}`)).toBeTruthy();
    // Forms: 4 live rows on the server, 2 a page → pages 1 and 2 were asked for.
    const formPages = server.searches.filter((b) => b.tableId === T.forms.id).map((b) => b.page);
    expect(formPages).toEqual([1, 2]);
    const indicatorPages = server.searches.filter((b) => b.tableId === T.indicators.id).map((b) => b.page);
    expect(indicatorPages).toEqual([1, 2]);
    expect(screen.queryByRole('button', { name: t.export })).toBeNull();
  });

  it('a farmer still sees only their own rows, with no farmer column or filter', async () => {
    const { s, borisForm, rows } = twoFarmers();
    // The stand-in does not scope rows by user: only the client keeps Boris's out here. Two rows a
    // page: the farmer's history reads every page too.
    const server = new FakeServer(rows, 2);
    renderResults(server, seasonData(s, 'farmer', [s.farmer]));
    await screen.findByTestId(`result-${s.formDone.id}`);
    allSeasons();
    expect(screen.getByTestId(`result-${s.formOld.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`result-${borisForm.id}`)).toBeNull();
    expect(screen.queryByTestId('result-farmer')).toBeNull();
    expect(screen.queryByLabelText(t.farmer)).toBeNull();
    // Only the farmer's own paths were asked about (no whole-table reads).
    const dpSearch = server.searches.find((b) => b.tableId === T.durationPaths.id)!;
    expect(JSON.stringify(dpSearch.filters)).toContain(String(s.pathDone.id));
    expect(server.searches.some((b) => b.tableId === T.areas.id)).toBe(false);
    expect(server.searches.filter((b) => b.tableId === T.indicators.id).map((b) => b.page)).toEqual([1, 2]);
  });

  it("the editor's CSV and GeoJSON have both farmers and each form's change history", async () => {
    const { s, borisForm, rows } = twoFarmers();
    const server = new FakeServer(rows);
    renderResults(server, seasonData(s, 'editor', [s.farmer]));
    await screen.findByTestId(`result-${borisForm.id}`);
    fireEvent.click(screen.getByRole('button', { name: t.export }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const csv = await blobText(blobs[0]!);
    const lines = csv.replace('\ufeff', '').trim().split('\r\n');
    expect(lines[0]!.endsWith(`;${t.csv.history}`)).toBe(true);
    expect(lines).toHaveLength(3);
    const ana = lines.find((l) => l.startsWith('Ana Kovač;'))!;
    const boris = lines.find((l) => l.startsWith('Boris Zupan;'))!;
    expect(ana).toContain(';Pot 1;2026;');
    expect(boris).toContain(';Gmajna;Borisova pot;2026;');
    expect(boris).toContain(
      `${formatDateTime('2026-06-01T10:00:00Z')} kmet@example.si ustvarjeno: ocena: — → 10 | ${formatDateTime('2026-06-02T10:00:00Z')} urednik@example.si spremenjeno: ocena: 10 → 72`,
    );
    expect(server.detailed.sort()).toEqual([s.formDone.id, borisForm.id].sort());

    // GeoJSON of the same rows: the history read for the CSV is reused (nothing changed since).
    await waitFor(() => expect((screen.getByRole('button', { name: t.exportGeoJson }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: t.exportGeoJson }));
    await waitFor(() => expect(blobs).toHaveLength(2));
    const geo = JSON.parse(await blobText(blobs[1]!)) as { features: Array<{ properties: Record<string, unknown> }> };
    // Only Ana's path has a line.
    expect(geo.features.map((f) => f.properties.farmer)).toEqual(['Ana Kovač']);
    expect(String(geo.features[0]!.properties.history)).toContain('urednik@example.si spremenjeno');
    expect(server.detailed).toHaveLength(2);
  });

  it('the export shows its progress while the histories are read', async () => {
    const { s, borisForm, rows } = twoFarmers();
    const server = new FakeServer(rows);
    let release = () => undefined as void;
    server.detailGate = new Promise<void>((resolve) => {
      release = resolve;
    });
    renderResults(server, seasonData(s, 'editor', [s.farmer]));
    await screen.findByTestId(`result-${borisForm.id}`);
    fireEvent.click(screen.getByRole('button', { name: t.export }));
    expect((await screen.findByRole('button', { name: t.exportProgress(0, 2) })).hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('export-progress').textContent).toBe(t.exportProgress(0, 2));
    expect((screen.getByRole('button', { name: t.exportGeoJson }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(server.detailed).toHaveLength(2));
    act(() => release());
    await waitFor(() => expect(blobs).toHaveLength(1));
    expect(await screen.findByRole('button', { name: t.export })).toBeTruthy();
    expect(screen.queryByTestId('export-progress')).toBeNull();
  });

  it('before the first reachability probe it asks the server (loading, not an empty device copy)', async () => {
    const { s, borisForm, rows } = twoFarmers();
    const server = new FakeServer(rows);
    const { store } = renderResults(server, seasonData(s, 'editor', [s.farmer]), { probed: false });
    expect(store.getState().connectivity.serverReachable).toBeNull();
    expect(screen.getByText(sl.common.loading)).toBeTruthy();
    await screen.findByTestId(`result-${borisForm.id}`);
    expect(screen.queryByTestId('offline-note')).toBeNull();
    expect(server.searches.length).toBeGreaterThan(0);
  });

  it('offline it shows the copy on the device from the last load', async () => {
    const { s, borisForm, rows } = twoFarmers();
    const server = new FakeServer(rows);
    const dbName = uniqueDbName('results-offline');
    const first = renderResults(server, seasonData(s, 'editor', [s.farmer]), { dbName });
    await screen.findByTestId(`result-${borisForm.id}`);
    first.unmount();
    const asked = server.searches.length;

    renderResults(server, { ...seasonData(s, 'editor', [s.farmer]), source: 'device' }, { dbName, online: false });
    await screen.findByTestId(`result-${borisForm.id}`);
    expect(farmerCells()).toEqual(['Ana Kovač', 'Boris Zupan']);
    expect(screen.getByTestId('offline-note')).toBeTruthy();
    expect(screen.getByText(t.exportNeedsOnline)).toBeTruthy();
    expect(server.searches.length).toBe(asked);
  });

  it('a refusal from the server with nothing on the device is the error state; no rows is the empty state', async () => {
    const { s, rows } = twoFarmers();
    const server = new FakeServer(rows);
    server.searchStatus = 403;
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderResults(server, seasonData(s, 'editor', [s.farmer]));
    expect((await screen.findByRole('alert')).textContent).toBe(slScreens.states.error);
    cleanup();
    renderResults(new FakeServer([]), seasonData(s, 'reader', []));
    expect(await screen.findByText(sl.screens.results.empty)).toBeTruthy();
  });
});

describe('all farmers: model and export helpers', () => {
  it('paths of archived areas and archived farmers have no rows', () => {
    const { s, boris, borisArea, borisPath, borisForm, rows } = twoFarmers();
    const live = (r: StoredRecord) => !r.archived;
    const of = (tableId: number) => rows.filter((r) => r.tableId === tableId && live(r));
    const history = { durations: of(T.durations.id), durationPaths: of(T.durationPaths.id), forms: of(T.forms.id), indicators: of(T.indicators.id) };
    const name = () => '';
    const base = { farmers: [s.farmer, boris], areas: of(T.areas.id), paths: of(T.paths.id) };
    expect(buildAllFarmersResults(config, base, history, name).map((r) => r.formId)).toContain(borisForm.id);
    const areaArchived = { ...base, areas: base.areas.map((a) => (a.id === borisArea.id ? { ...a, archived: true } : a)) };
    expect(buildAllFarmersResults(config, areaArchived, history, name).map((r) => r.pathId)).not.toContain(borisPath.id);
    const farmerArchived = { ...base, farmers: [s.farmer, { ...boris, archived: true }] };
    expect(buildAllFarmersResults(config, farmerArchived, history, name).map((r) => r.formId)).not.toContain(borisForm.id);
  });

  it('history requests run at most six at a time, results in order, progress counted', async () => {
    const started: number[] = [];
    const release = new Map<number, () => void>();
    const progress: string[] = [];
    const items = Array.from({ length: 14 }, (_, i) => i);
    const run = mapWithLimit(
      items,
      6,
      (i) =>
        new Promise<string>((resolve) => {
          started.push(i);
          release.set(i, () => resolve(`r${i}`));
        }),
      (done, total) => progress.push(`${done}/${total}`),
    );
    await act(async () => undefined);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    release.get(3)!();
    await waitFor(() => expect(started).toHaveLength(7));
    expect(started[6]).toBe(6);
    for (let i = 0; i < items.length; i++) {
      await waitFor(() => expect(release.has(i)).toBe(true));
      release.get(i)!();
    }
    expect(await run).toEqual(items.map((i) => `r${i}`));
    expect(progress.at(-1)).toBe('14/14');
    expect(progress).toHaveLength(14);
  });

  it('the first failed request fails the whole export and starts no more', async () => {
    let calls = 0;
    await expect(
      mapWithLimit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 2, async (i) => {
        calls += 1;
        if (i === 2) throw new Error('history failed');
        return i;
      }),
    ).rejects.toThrow('history failed');
    expect(calls).toBeLessThan(10);
  });
});
