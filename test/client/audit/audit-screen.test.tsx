/**
 * The editors' "Zgodovina sprememb" screen. The server side (filters, paging, CSV, roles) is built
 * and tested in test/server/audit.test.ts and end to end in test/e2e/audit-trail.test.ts; here a
 * stand-in answers with that contract, because what is under test is the screen: the query it
 * sends for each filter and page, what it shows for each answer (in Slovenian), the CSV download.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../src/client/app/store';
import { firstBlock, type Role } from '../../../src/client/app/router/guards';
import { matchRoute } from '../../../src/client/app/router/match';
import { compileRoutes, routeDefinitions } from '../../../src/client/app/router/routes';
import { AuditScreen } from '../../../src/client/features/audit';
import { SetupHub } from '../../../src/client/features/setup';
import { dayWindow } from '../../../src/client/features/audit/audit-model';
import { AUDIT_PAGE_SIZE } from '../../../src/common/constants';
import { slAudit, slSetup } from '../../../src/common/i18n/sl';
import type { AuditEntry, AuditPage } from '../../../src/common/schemas/audit';
import { response } from '../data-layer/helpers';
import { config } from '../screens/fixtures';

const FARMERS = [
  { id: 10_000_001, name: 'Ana Kovač' },
  { id: 10_000_002, name: 'Janez Novak' },
];

const entry = (id: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  changedAt: '2026-06-01T08:30:00.000Z',
  changedBy: 'urednik@example.si',
  action: 'update',
  tableId: config.tables.forms.id,
  table: 'forms',
  recordId: 10_000_500 + id,
  changes: [{ column: 'score', old: 40, new: 55 }],
  ...extra,
});

let requests: URL[];
let answer: (url: URL) => Response;

beforeEach(() => {
  requests = [];
  answer = () =>
    response({
      body: {
        entries: [entry(2), entry(1, { changedBy: 'kmet1@example.si', table: 'indicators', changes: [{ column: 'note', old: null, new: 'Ob robu' }] })],
        totalCount: 2,
      } satisfies AuditPage,
    });
});
afterEach(cleanup);

function show(online = true, recordHref?: (table: string, recordId: number) => string | undefined) {
  const fetchFn = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    requests.push(url);
    return answer(url);
  }) as typeof fetch;
  const store = makeStore(undefined, { extra: { api: { baseUrl: 'http://server.test', fetchFn } } as never });
  render(
    <Provider store={store}>
      <AuditScreen projectId={1} tables={config.tables} farmers={FARMERS} online={online} recordHref={recordHref} />
    </Provider>,
  );
}

/** The blob's bytes as UTF-8 text, BOM kept (jsdom's Blob has no text(), and readAsText drops a BOM). */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(Buffer.from(reader.result as ArrayBuffer).toString('utf8'));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

const lastQuery = () => Object.fromEntries(requests[requests.length - 1]!.searchParams);

describe('Zgodovina sprememb', () => {
  it('shows every change with who, when, table, record and old → new', async () => {
    show();
    const rows = await screen.findAllByTestId('audit-entry');
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!);
    expect(first.getByText('urednik@example.si')).toBeTruthy();
    expect(first.getByText(slAudit.actions.update)).toBeTruthy();
    expect(first.getByText(slAudit.tables.forms)).toBeTruthy();
    expect(first.getByText('10000502')).toBeTruthy();
    expect(first.getByText('ocena: 40 → 55')).toBeTruthy();
    expect(within(rows[1]!).getByText(`opomba: ${slAudit.empty} → Ob robu`)).toBeTruthy();
    expect(first.getByText('1. 6. 2026, 10:30')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(slAudit.total(2));
    expect(requests[0]!.pathname).toBe('/api/Audit/1');
    expect(lastQuery()).toEqual({ page: '1', perPage: String(AUDIT_PAGE_SIZE) });
  });

  it('a changed record links to its screen where it has one', async () => {
    show(true, (table, recordId) => (table === 'forms' ? `#/forms/${recordId}` : undefined));
    const rows = await screen.findAllByTestId('audit-entry');
    expect(within(rows[0]!).getByRole('link', { name: '10000502' }).getAttribute('href')).toBe('#/forms/10000502');
    // An indicator has no screen of its own: its id is text.
    expect(within(rows[1]!).queryByRole('link', { name: '10000501' })).toBeNull();
    expect(within(rows[1]!).getByText('10000501')).toBeTruthy();
  });

  it('asks the server again for each filter: farmer, table, days as instants', async () => {
    show();
    await screen.findAllByTestId('audit-entry');
    fireEvent.change(screen.getByLabelText(slAudit.farmer), { target: { value: '10000002' } });
    await waitFor(() => expect(lastQuery().farmerId).toBe('10000002'));
    fireEvent.change(screen.getByLabelText(slAudit.table), { target: { value: String(config.tables.indicators.id) } });
    await waitFor(() => expect(lastQuery().tableId).toBe(String(config.tables.indicators.id)));
    fireEvent.input(screen.getByLabelText(slAudit.from), { target: { value: '2026-06-01' } });
    fireEvent.input(screen.getByLabelText(slAudit.to), { target: { value: '2026-06-03' } });
    await waitFor(() => expect(lastQuery().to).toBeDefined());
    expect(lastQuery()).toEqual({
      farmerId: '10000002',
      tableId: String(config.tables.indicators.id),
      ...dayWindow('2026-06-01', '2026-06-03'),
      page: '1',
      perPage: String(AUDIT_PAGE_SIZE),
    });
    // The whole last day counts: the window ends at the start of the next one.
    expect(new Date(lastQuery().to!).getTime() - new Date(lastQuery().from!).getTime()).toBe(3 * 86_400_000);
    // The farmer select lists the farmers the editor sees, the table select the Slovenian table names.
    expect(
      within(screen.getByLabelText(slAudit.farmer))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([slAudit.allFarmers, 'Ana Kovač', 'Janez Novak']);
    expect(within(screen.getByLabelText(slAudit.table)).getByRole('option', { name: slAudit.tables.durationPaths })).toBeTruthy();
  });

  it('says so when the start is after the end, without asking the server', async () => {
    show();
    await screen.findAllByTestId('audit-entry');
    fireEvent.input(screen.getByLabelText(slAudit.from), { target: { value: '2026-06-05' } });
    await waitFor(() => expect(lastQuery().from).toBeDefined());
    const before = requests.length;
    fireEvent.input(screen.getByLabelText(slAudit.to), { target: { value: '2026-06-01' } });
    expect((await screen.findByRole('alert')).textContent).toBe(slAudit.invalid.range);
    expect(requests.length).toBe(before);
  });

  it('pages through the server: next and previous, with the page count', async () => {
    answer = (url) => {
      const page = Number(url.searchParams.get('page'));
      return response({ body: { entries: [entry(1000 - page)], totalCount: AUDIT_PAGE_SIZE * 2 + 1 } });
    };
    show();
    await screen.findByText(slAudit.pageOf(1, 3));
    expect((screen.getByRole('button', { name: slAudit.previous }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: slAudit.next }));
    await screen.findByText(slAudit.pageOf(2, 3));
    expect(lastQuery().page).toBe('2');
    expect(screen.getByText(String(10_000_500 + 998))).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: slAudit.next }));
    await screen.findByText(slAudit.pageOf(3, 3));
    expect((screen.getByRole('button', { name: slAudit.next }) as HTMLButtonElement).disabled).toBe(true);
    // A new filter starts at the first page again.
    fireEvent.change(screen.getByLabelText(slAudit.farmer), { target: { value: '10000001' } });
    await screen.findByText(slAudit.pageOf(1, 3));
    expect(lastQuery().page).toBe('1');
  });

  it('downloads the selection as CSV from the server', async () => {
    const csv = '\ufeffČas;Uporabnik\r\n';
    const saved: Array<{ name: string; blob: Blob }> = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push({ name: '', blob });
      return 'blob:audit';
    }) as typeof URL.createObjectURL;
    URL.revokeObjectURL = jest.fn();
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved[saved.length - 1]!.name = this.download;
    });
    const base = answer;
    answer = (url) => (url.pathname.endsWith('/csv') ? response({ body: csv }) : base(url));
    show();
    await screen.findAllByTestId('audit-entry');
    fireEvent.change(screen.getByLabelText(slAudit.farmer), { target: { value: '10000001' } });
    fireEvent.click(screen.getByRole('button', { name: slAudit.downloadCsv }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const call = requests.find((r) => r.pathname === '/api/Audit/1/csv')!;
    expect(Object.fromEntries(call.searchParams)).toEqual({ farmerId: '10000001' });
    expect(saved[0]!.name).toMatch(/^zgodovina-sprememb-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await readText(saved[0]!.blob)).toBe(csv);
    click.mockRestore();
  });

  it('shows the server’s reason when it refuses, and the offline note without a connection', async () => {
    answer = () => response({ status: 400, body: { status: 400, message: 'Bad Request', detail: slAudit.invalid.farmer(5) } });
    show();
    expect((await screen.findByRole('alert')).textContent).toBe(slAudit.invalid.farmer(5));
    cleanup();
    requests = [];
    show(false);
    expect(screen.getByText(slAudit.onlineOnly)).toBeTruthy();
    expect((screen.getByRole('button', { name: slAudit.downloadCsv }) as HTMLButtonElement).disabled).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('has a heading and labelled filters', () => {
    show(false);
    expect(screen.getByRole('heading', { level: 2, name: slAudit.filters })).toBeTruthy();
    for (const label of [slAudit.farmer, slAudit.table, slAudit.from, slAudit.to]) expect(screen.getByLabelText(label)).toBeTruthy();
  });
});

describe('who reaches it', () => {
  it('the route opens for editors only: readers and farmers get the not-allowed state', () => {
    const match = matchRoute(compileRoutes(routeDefinitions), '/setup/audit')!;
    expect(match.route.title).toBe(slAudit.title);
    const block = (role: Role) => firstBlock(match.route.guards, { access: { role, farmerRecord: 'found' }, params: match.params, query: {} });
    expect(block('editor')).toBeNull();
    expect(block('reader')).toEqual({ reason: 'editors-only', message: slSetup.blockedEditorsOnly });
    expect(block('farmer')).toEqual({ reason: 'staff-only', message: slSetup.blockedFarmer });
  });

  it('the set-up menu links to it for editors, not for readers', () => {
    render(<SetupHub readOnly={false} />);
    expect(screen.getByRole('link', { name: new RegExp(slAudit.title) }).getAttribute('href')).toBe('#/setup/audit');
    cleanup();
    render(<SetupHub readOnly />);
    expect(screen.queryByRole('link', { name: new RegExp(slAudit.title) })).toBeNull();
  });
});
