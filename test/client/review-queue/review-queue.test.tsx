/**
 * "Pregled", the advisers' review queue. The server's search (filters, sorts, the farmer scope) is
 * built and tested on the server; here a stand-in answers the records search with that contract,
 * because what is under test is the screen: what it asks for, the rows it shows (oldest submission
 * first, state as a word), its filters and states, and that "Potrdi izbrane" queues one outbox edit
 * per chosen form (the real outbox over fake-indexeddb; the drain is not started). Also the route's
 * guard and the navigation's count of waiting forms.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MainNav } from '../../../src/client/app/layout/bottom-nav';
import { firstBlock } from '../../../src/client/app/router/guards';
import { routeDefinitions } from '../../../src/client/app/router/routes';
import { routeHref } from '../../../src/client/lib/links';
import { useSaveEdits } from '../../../src/client/app/routes/screen-data';
import { ReviewQueueScreen, useWaitingCount } from '../../../src/client/features/review-queue';
import { openOfflineDb, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { fillText, slReview, slReviewQueue, slSetup } from '../../../src/common/i18n/sl';
import type { FilterNode, SearchRequest } from '../../../src/common/filter';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { response } from '../data-layer/helpers';
import { config, renderWithStore, row } from '../screens/fixtures';

const T = config.tables;
const c = (table: keyof typeof T, column: string) => String((T[table].columns as Record<string, number>)[column]);
const TODAY = '2026-06-15';

/** Two farmers, three meadows and paths, three forms waiting (and one approved, which the server leaves out). */
function project() {
  const ana = row(T.farmers.id, { [c('farmers', 'name')]: 'Ana Kovač' });
  const janez = row(T.farmers.id, { [c('farmers', 'name')]: 'Janez Novak' });
  const area = (name: string, farmer: StoredRecord) => row(T.areas.id, { [c('areas', 'name')]: name, [c('areas', 'user')]: farmer.id });
  const gozd = area('Travnik pod gozdom', ana);
  const senozet = area('Senožet', ana);
  const breg = area('Breg', janez);
  const path = (name: string, a: StoredRecord) => row(T.paths.id, { [c('paths', 'name')]: name, [c('paths', 'parent')]: a.id });
  const p1 = path('Pot 1', gozd);
  const p2 = path('Pot 2', senozet);
  const p3 = path('Pot 3', breg);
  const link = (p: StoredRecord) => row(T.durationPaths.id, { [c('durationPaths', 'path_id')]: p.id, [c('durationPaths', 'duration_id')]: 10_000_001 });
  const l1 = link(p1);
  const l2 = link(p2);
  const l3 = link(p3);
  const form = (parent: StoredRecord, state: string, at: string, score: number | null, kind = FORM_KINDS.travnik) =>
    row(
      T.forms.id,
      {
        [c('forms', 'parent')]: parent.id,
        [c('forms', 'form_id')]: kind.id,
        [c('forms', 'score')]: score,
        [c('forms', 'completed')]: true,
        [c('forms', 'review_state')]: state,
        [c('forms', 'reviewed_at')]: at,
      },
      { version: 4 },
    );
  const newest = form(l1, 'submitted', '2026-06-03T08:00:00.000Z', 72);
  const appealed = form(l3, 'appealed', '2026-06-01T08:00:00.000Z', 30);
  const middle = form(l2, 'submitted', '2026-06-02T08:00:00.000Z', null);
  const done = form(l1, 'approved', '2026-05-20T08:00:00.000Z', 80);
  return { rows: [ana, janez, gozd, senozet, breg, p1, p2, p3, l1, l2, l3, newest, appealed, middle, done], newest, appealed, middle, done };
}

/** The leaves of a filter tree. */
function leaves(node: FilterNode | undefined): Array<{ columnId: unknown; comparison: string; value?: unknown }> {
  if (!node) return [];
  return node.kind === 'filter' ? [node] : node.nodes.flatMap(leaves);
}

/** The records search over `rows`, as the server answers it (In / Equals leaves, And). */
function stand(rows: StoredRecord[], fail = false) {
  const searches: SearchRequest[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if (fail) return response({ status: 500, body: { status: 500, message: 'Internal Server Error' } });
    if (url.pathname !== `/api/Records/${config.projectId}/search`) return response({ status: 404, body: { status: 404, message: 'Not Found' } });
    const body = JSON.parse(String(init?.body)) as SearchRequest;
    searches.push(body);
    const found = rows.filter(
      (r) =>
        r.tableId === body.tableId &&
        leaves(body.filters).every((leaf) => {
          const value = leaf.columnId === 'id' ? r.id : leaf.columnId === 'archived' ? r.archived : r.properties[String(leaf.columnId)];
          return leaf.comparison === 'In' ? (leaf.value as unknown[]).includes(value) : value === leaf.value;
        }),
    );
    return response({ body: { records: found.slice(0, body.perPage ?? found.length), totalCount: found.length } });
  }) as typeof fetch;
  return { searches, fetchFn };
}

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

function show({ online = true, role = 'editor' as const, rows = project().rows, fail = false } = {}) {
  const db = openOfflineDb({ name: `review-queue-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  const server = stand(rows, fail);
  function Harness() {
    const saveEdits = useSaveEdits();
    return (
      <ReviewQueueScreen
        config={config}
        online={online}
        role={role === 'editor' ? 'editor' : role}
        saveEdits={saveEdits}
        outbox={{ pending: 0, attention: [] }}
        formHref={(formId) => routeHref('form', { formId })}
        today={TODAY}
      />
    );
  }
  renderWithStore(<Harness />, { db, fetchFn: server.fetchFn });
  return { db, ...server };
}

const shownRows = () => screen.getAllByTestId('review-row');
const cells = (tr: HTMLElement) => [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent);

describe('Pregled', () => {
  it('lists the waiting forms oldest first: farmer, meadow, path, kind, state as a word, submitted, score, a link to the form', async () => {
    const { rows, appealed, middle, newest } = project();
    const { searches } = show({ rows });
    await screen.findAllByTestId('review-row');
    // The stand-in answers by id; the screen orders by the time of submission (reviewed_at).
    expect(shownRows().map((tr) => Number(tr.getAttribute('data-form-id')))).toEqual([appealed.id, middle.id, newest.id]);
    const first = cells(shownRows()[0]!);
    expect(first.slice(1, 6)).toEqual(['Janez Novak', 'Breg', 'Pot 3', FORM_KINDS.travnik.title, slReview.state.appealed]);
    expect(cells(shownRows()[1]!).slice(1, 4)).toEqual(['Ana Kovač', 'Senožet', 'Pot 2']);
    expect(cells(shownRows()[2]!).slice(1, 4)).toEqual(['Ana Kovač', 'Travnik pod gozdom', 'Pot 1']);
    expect(within(shownRows()[0]!).getByText('1. 6. 2026, 10:00')).toBeTruthy();
    expect(within(shownRows()[1]!).getByText(slReviewQueue.noScore)).toBeTruthy();
    const link = within(shownRows()[2]!).getByRole('link');
    expect(link.getAttribute('href')).toBe(`#/forms/${shownRows()[2]!.getAttribute('data-form-id')}`);
    expect(screen.getByRole('status').textContent).toBe(slReviewQueue.total(3));
    // The forms' search names the typed ids: review_state in the waiting states, live rows, oldest first.
    const formsSearch = searches.find((s) => s.tableId === T.forms.id)!;
    expect(leaves(formsSearch.filters)).toEqual(
      expect.arrayContaining([
        { kind: 'filter', columnId: T.forms.columns.review_state, comparison: 'In', value: ['submitted', 'appealed'] },
        { kind: 'filter', columnId: 'archived', comparison: 'Equals', value: false },
      ]),
    );
    expect(formsSearch.sorts).toEqual([{ columnId: T.forms.columns.reviewed_at, direction: 'asc' }]);
    // The chain above the forms, by id.
    expect(searches.map((s) => s.tableId)).toEqual(expect.arrayContaining([T.durationPaths.id, T.paths.id, T.areas.id, T.farmers.id]));
  });

  it('filters by farmer and meadow on the list, by state and kind on the server', async () => {
    const { searches } = show();
    await screen.findAllByTestId('review-row');
    fireEvent.change(screen.getByLabelText(slReviewQueue.farmer), {
      target: { value: within(screen.getByLabelText(slReviewQueue.farmer)).getByRole('option', { name: 'Ana Kovač' }).getAttribute('value') },
    });
    expect(shownRows()).toHaveLength(2);
    // The meadows offered are the chosen farmer's.
    expect(
      within(screen.getByLabelText(slReviewQueue.area))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([slReviewQueue.allAreas, 'Senožet', 'Travnik pod gozdom']);
    fireEvent.change(screen.getByLabelText(slReviewQueue.area), {
      target: { value: within(screen.getByLabelText(slReviewQueue.area)).getByRole('option', { name: 'Senožet' }).getAttribute('value') },
    });
    expect(shownRows()).toHaveLength(1);
    expect(cells(shownRows()[0]!).slice(1, 4)).toEqual(['Ana Kovač', 'Senožet', 'Pot 2']);
    fireEvent.change(screen.getByLabelText(slReviewQueue.farmer), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText(slReviewQueue.state), { target: { value: 'appealed' } });
    await waitFor(() => expect(shownRows()).toHaveLength(1));
    expect(cells(shownRows()[0]!)).toContain(slReview.state.appealed);
    expect(leaves(searches.filter((s) => s.tableId === T.forms.id).at(-1)!.filters)).toContainEqual({
      kind: 'filter',
      columnId: T.forms.columns.review_state,
      comparison: 'In',
      value: ['appealed'],
    });
    fireEvent.change(screen.getByLabelText(slReviewQueue.state), { target: { value: 'waiting' } });
    fireEvent.change(screen.getByLabelText(slReviewQueue.kind), { target: { value: String(FORM_KINDS.upravljanje.id) } });
    expect(await screen.findByText(slReviewQueue.emptyFiltered)).toBeTruthy();
    expect(leaves(searches.filter((s) => s.tableId === T.forms.id).at(-1)!.filters)).toContainEqual({
      kind: 'filter',
      columnId: T.forms.columns.form_id,
      comparison: 'Equals',
      value: FORM_KINDS.upravljanje.id,
    });
  });

  it('"Potrdi izbrane" queues one outbox edit per chosen form; an appeal without a reason is listed as refused', async () => {
    const { db } = show();
    await screen.findAllByTestId('review-row');
    const approve = () => screen.getByRole('button', { name: /Potrdi izbrane/ });
    expect(approve().hasAttribute('disabled')).toBe(true);
    const [appealedRow, middleRow, newestRow] = shownRows();
    for (const tr of [appealedRow!, middleRow!, newestRow!]) fireEvent.click(within(tr).getByRole('checkbox'));
    expect(approve().textContent).toBe(slReviewQueue.approveSelected(3));
    fireEvent.click(approve());
    const report = await screen.findByTestId('bulk-report');
    // The report has read each approval's fate from the outbox.
    await waitFor(() => expect(report.getAttribute('data-read')).toBe('true'));
    const items = await db.outbox.toArray();
    expect(items).toHaveLength(2);
    const ids = [middleRow!, newestRow!].map((tr) => Number(tr.getAttribute('data-form-id')));
    expect(items.map((i) => i.id).sort()).toEqual(ids.sort());
    for (const item of items) {
      expect(item).toMatchObject({ kind: 'update', tableId: T.forms.id, version: 4, status: 'pending' });
      expect(item.properties).toMatchObject({ [c('forms', 'review_state')]: 'approved', [c('forms', 'review_reason')]: null });
    }
    expect(report.textContent).toContain(slReviewQueue.bulk.saved(2));
    expect(within(report).getByTestId('bulk-sent').textContent).toBe(slReviewQueue.bulk.sent(0, 3));
    expect(report.textContent).toContain(slReviewQueue.bulk.waiting(2));
    const refused = within(report).getByTestId('bulk-refused');
    expect(refused.textContent).toContain('Janez Novak, Breg, Pot 3');
    expect(refused.textContent).toContain(fillText(slReview.refused.reasonMissing, { from: slReview.state.appealed, to: slReview.state.approved }));
    // The selection is cleared; the approved rows say their approval waits and cannot be ticked again.
    expect(approve().textContent).toBe(slReviewQueue.approveSelected(0));
    expect(within(middleRow!).getByText(slReviewQueue.approvalWaiting)).toBeTruthy();
    expect((within(middleRow!).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect((within(appealedRow!).getByRole('checkbox') as HTMLInputElement).disabled).toBe(false);
  });

  it('"Izberi vse prikazane" ticks the rows shown', async () => {
    show();
    await screen.findAllByTestId('review-row');
    fireEvent.click(screen.getByLabelText(slReviewQueue.selectAll));
    expect(screen.getByRole('button', { name: /Potrdi izbrane/ }).textContent).toBe(slReviewQueue.approveSelected(3));
  });

  it('readers see the list without choices or approval', async () => {
    show({ role: 'reader' as 'editor' });
    await screen.findAllByTestId('review-row');
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /Potrdi izbrane/ })).toBeNull();
    expect(screen.getByText(slReviewQueue.readOnly)).toBeTruthy();
  });

  it('states: offline (nothing asked), empty, error', async () => {
    const offline = show({ online: false });
    expect(screen.getByTestId('offline-note').textContent).toContain(slReviewQueue.onlineOnly);
    expect(offline.searches).toHaveLength(0);
    cleanup();
    show({ rows: [] });
    expect(await screen.findByText(slReviewQueue.empty)).toBeTruthy();
    cleanup();
    show({ fail: true });
    expect((await screen.findByRole('alert')).textContent).toBeTruthy();
  });
});

describe('the route and the navigation', () => {
  it('/review is for advisers: farmers are kept out, readers and editors open it', () => {
    const route = routeDefinitions.find((r) => r.name === 'review')!;
    expect(route.pattern).toBe('/review');
    const input = (role: 'farmer' | 'reader' | 'editor') => ({ access: { role, farmerRecord: 'found' as const }, params: {}, query: {} });
    expect(firstBlock(route.guards, input('farmer'))?.message).toBe(slSetup.blockedFarmer);
    expect(firstBlock(route.guards, input('reader'))).toBeNull();
    expect(firstBlock(route.guards, input('editor'))).toBeNull();
  });

  it('the advisers’ navigation links to Pregled with the count of waiting forms, in words too', () => {
    render(<MainNav currentPath="/review" role="editor" reviewCount={3} />);
    const link = screen.getByRole('link', { name: new RegExp(slReviewQueue.nav) });
    expect(link.getAttribute('href')).toBe('#/review');
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(within(link).getByTestId('review-count').textContent).toBe('3');
    expect(link.textContent).toContain(slReviewQueue.waiting(3));
    cleanup();
    render(<MainNav currentPath="/" role="farmer" reviewCount={null} />);
    expect(screen.queryByRole('link', { name: new RegExp(slReviewQueue.nav) })).toBeNull();
  });

  it('the count is the server’s total of waiting forms, asked for one row', async () => {
    const { rows } = project();
    const server = stand(rows);
    function Count({ online }: { online: boolean }) {
      const count = useWaitingCount(config, online, true);
      return <p data-testid="count">{count === null ? '-' : count}</p>;
    }
    renderWithStore(<Count online />, { fetchFn: server.fetchFn });
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('3'));
    expect(server.searches).toHaveLength(1);
    expect(server.searches[0]).toMatchObject({ tableId: T.forms.id, perPage: 1 });
    cleanup();
    renderWithStore(<Count online={false} />, { fetchFn: server.fetchFn });
    expect(screen.getByTestId('count').textContent).toBe('-');
    expect(server.searches).toHaveLength(1);
  });
});
