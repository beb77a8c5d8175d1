/**
 * The review on the farmer's other screens: home's to-do (counts and Slovenian plurals, from the
 * season's forms and deadlines, on the real home route), each form's state on the path screen, and
 * the per-meadow, per-season states and payment estimate of the results.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { RootState } from '../../../src/client/app/root-reducer';
import { openOfflineDb, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { farmerTodo } from '../../../src/client/features/review';
import { todoLines } from '../../../src/client/features/review/farmer-todo';
import { buildReviewResults, ReviewResults } from '../../../src/client/features/review/review-results';
import { ReviewTodo } from '../../../src/client/features/review/review-todo';
import { addDays, dayInSlovenia } from '../../../src/common/review';
import { slReview, slReviewFarmer } from '../../../src/common/i18n/sl';
import { config, loadedState, renderRoute, row, season, seasonData } from '../screens/fixtures';

// The path route's map needs WebGL (jsdom has none).
jest.unstable_mockModule('../../../src/client/features/map/index', () => ({
  MapView: () => null,
  GeometryEditor: () => null,
  WalkRecorderPanel: () => null,
  pathsTableRef: () => ({}),
  recordsToMapItems: () => [],
}));
await import('../../../src/client/app/routes/path');

jest.setTimeout(30_000);

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

const T = config.tables;
const fc = T.forms.columns as Record<string, number>;

function reviewed(form: StoredRecord, review: Record<string, unknown>): StoredRecord {
  const properties: Record<string, unknown> = { ...form.properties };
  for (const [name, value] of Object.entries(review)) properties[String(fc[name])] = value;
  return { ...form, properties };
}

function withDeadlines(duration: StoredRecord, submitUntil: string, appealDays = 15): StoredRecord {
  return {
    ...duration,
    properties: { ...duration.properties, [T.durations.columns.submit_until]: submitUntil, [T.durations.columns.appeal_days]: appealDays },
  };
}

/** Forms on the fixture's three season links: two returned, one draft, one rejected today, one approved. */
function reviewSeason(today: string) {
  const s = season();
  const [dp1, dp2, dp3] = s.durationPaths as [StoredRecord, StoredRecord, StoredRecord];
  const form = (parent: StoredRecord, review: Record<string, unknown>) =>
    reviewed(row(T.forms.id, { [fc.parent!]: parent.id, [fc.form_id!]: 1, [fc.score!]: 10, [fc.completed!]: true }), review);
  const forms = [
    form(dp1, { review_state: 'returned', review_reason: 'Manjka fotografija kadulje.' }),
    form(dp2, { review_state: 'returned', review_reason: 'Preverite zaraščanje.' }),
    form(dp3, { review_state: '' }),
    form(dp1, { review_state: 'rejected', reviewed_at: `${today}T08:00:00.000Z` }),
    form(dp2, { review_state: 'approved' }),
  ];
  return { s, forms };
}

describe('home to-do (farmerTodo)', () => {
  it('counts what waits for the farmer and says it in Slovenian', () => {
    const today = '2026-09-18';
    const { s, forms } = reviewSeason(today);
    const todo = farmerTodo(config, { forms, duration: withDeadlines(s.duration, '2026-09-30') }, today);
    expect(todoLines(todo)).toEqual([
      '2 obrazca vrnjena v popravek',
      '1 obrazec še ni oddan',
      'Do roka za oddajo še 12 dni',
      '1 odločitev lahko še izpodbijate s pritožbo',
    ]);
    render(<ReviewTodo todo={todo} formLabel={(id) => `Obrazec ${id}`} />);
    const block = screen.getByTestId('review-todo');
    expect(within(block).getByTestId(`todo-form-${forms[0]!.id}`).getAttribute('href')).toBe(`#/forms/${forms[0]!.id}`);
    expect(within(block).getByTestId(`todo-form-${forms[0]!.id}`).textContent).toContain(slReview.state.returned);
  });

  it('the last day, a passed deadline, an appeal period over, and nothing to do', () => {
    const { s, forms } = reviewSeason('2026-09-30');
    const deadline = withDeadlines(s.duration, '2026-09-30');
    expect(todoLines(farmerTodo(config, { forms, duration: deadline }, '2026-09-30'))).toContain(slReviewFarmer.lastDayToSubmit);
    const after = todoLines(farmerTodo(config, { forms, duration: deadline }, '2026-10-20'));
    expect(after).toContain('Rok za oddajo je potekel 30. 9. 2026.');
    // Rejected on 30 Sept with 15 days to appeal: over by 20 Oct.
    expect(after.some((line) => line.includes('pritožbo'))).toBe(false);
    const done = forms.filter((f) => f.properties[String(fc.review_state)] === 'approved');
    expect(todoLines(farmerTodo(config, { forms: done, duration: deadline }, '2026-09-18'))).toEqual([]);
    render(<ReviewTodo todo={farmerTodo(config, { forms: done, duration: deadline }, '2026-09-18')} formLabel={() => ''} />);
    expect(screen.getByTestId('review-todo').textContent).toContain(slReviewFarmer.todoNothing);
  });
});

function preloadedSeason(s: ReturnType<typeof season>, forms: StoredRecord[], duration: StoredRecord): Partial<RootState> {
  return loadedState(seasonData(s, { source: 'device', duration, forms, indicators: [] }));
}

function newDb(): OfflineDb {
  const db = openOfflineDb({ name: `review-screens-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  return db;
}

describe('home for a farmer', () => {
  it("shows the to-do after the meadows, so a phone shows the farmer's paths first", async () => {
    const today = dayInSlovenia(new Date());
    const { s, forms } = reviewSeason(today);
    renderRoute('home', '#/', { preloaded: preloadedSeason(s, forms, withDeadlines(s.duration, addDays(today, 12))), db: newDb() });
    const todo = await screen.findByTestId('review-todo');
    expect(todo.textContent).toContain('2 obrazca vrnjena v popravek');
    expect(todo.textContent).toContain('Do roka za oddajo še 12 dni');
    const meadows = screen.getAllByTestId(/^area-\d+$/);
    expect(meadows.length).toBeGreaterThan(0);
    expect(meadows[meadows.length - 1]!.compareDocumentPosition(todo) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('the path screen', () => {
  it('shows each form’s state, and the reason of a returned one', async () => {
    const today = dayInSlovenia(new Date());
    const { s, forms } = reviewSeason(today);
    renderRoute('path', `#/paths/${s.pathDone.id}`, { preloaded: preloadedSeason(s, forms, s.duration), db: newDb() });
    const returned = await screen.findByTestId(`path-form-${forms[0]!.id}`);
    expect(within(returned).getByTestId('review-badge').textContent).toContain(slReview.state.returned);
    expect(within(returned).getByTestId(`path-form-reason-${forms[0]!.id}`).textContent).toBe('Manjka fotografija kadulje.');
    const rejected = screen.getByTestId(`path-form-${forms[3]!.id}`);
    expect(within(rejected).getByTestId('review-badge').textContent).toContain(slReview.state.rejected);
  });
});

describe('results: states and the payment estimate per meadow and season', () => {
  it('sums the paid forms of a meadow in a season, newest season first', () => {
    const s = season();
    const ic = T.indicators.columns;
    const areas = [{ ...s.areas[0]!, properties: { ...s.areas[0]!.properties, [T.areas.columns.area_ha]: 2 } }, s.areas[1]!];
    const [dp1, dp2] = s.durationPaths as [StoredRecord, StoredRecord];
    // Five of the kind's indicator plants (7 points each): 35 points, the medium band (above 33).
    const plants = config.forms
      .travnik!.scoring.contributions.filter((c) => c.points === 7)
      .slice(0, 5)
      .map((c) => c.key);
    expect(plants).toHaveLength(5);
    const form = (parent: StoredRecord, state: string) => reviewed(row(T.forms.id, { [fc.parent!]: parent.id, [fc.form_id!]: 1 }), { review_state: state });
    const f1 = form(dp1, 'approved');
    const f2 = form(dp2, 'submitted');
    const indicators = [f1, f2].flatMap((f) => plants.map((key) => row(T.indicators.id, { [ic.parent]: f.id, [ic.key]: key, [ic.value]: true })));
    const old = form(s.allDurationPaths[3]!, 'rejected');
    const rows = buildReviewResults(
      config,
      { areas, paths: s.paths },
      { durations: s.durations, durationPaths: s.allDurationPaths, forms: [f1, f2, old], indicators },
    );
    expect(rows.map((r) => [r.areaName, r.seasonName])).toEqual([
      ['Travnik pod gozdom', '2026'],
      ['Travnik pod gozdom', '2025'],
    ]);
    // Each form: 150 €/ha on 2 ha; the meadow's two paths' forms add up.
    expect(rows[0]!.forms.map((f) => [f.state, f.amountEur, f.bandName])).toEqual([
      ['approved', 300, 'srednje'],
      ['submitted', 300, 'srednje'],
    ]);
    expect(rows[0]!.amountEur).toBe(600);
    expect(rows[1]!.forms.map((f) => f.state)).toEqual(['rejected']);
    render(<ReviewResults rows={rows} />);
    const block = screen.getByTestId('review-results');
    expect(block.textContent).toContain(slReviewFarmer.results.title);
    expect(block.textContent).toContain(slReview.state.approved);
    expect(within(screen.getByTestId(`review-results-${rows[0]!.key}`)).getByTestId('review-results-amount').textContent).toContain(
      `${slReviewFarmer.results.amount}: 600,00 €`,
    );
  });
});
