/**
 * The online-only parts of the set-up: a farmer's account and activation link, and the import
 * (preview → mapping → dry run → commit). The server side of these calls is built and tested on
 * the server (test/server); here a stand-in answers with the agreed contract, because what is
 * under test is the screen: what it sends, and what it shows for each answer, in Slovenian.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { RootState } from '../../../src/client/app/root-reducer';
import { makeStore } from '../../../src/client/app/store';
import { AccountPanel } from '../../../src/client/features/setup/account-panel';
import { ImportScreen } from '../../../src/client/features/setup/import-screen';
import { openOfflineDb, type OfflineDb } from '../../../src/client/lib/db';
import { slSetup } from '../../../src/common/i18n/sl';
import { response } from '../data-layer/helpers';
import { config } from '../screens/fixtures';

jest.setTimeout(30_000);

interface Call {
  method: string;
  path: string;
  form?: Record<string, string>;
}

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** A store whose API calls go to `answer` (status + JSON body per method and path). */
function online(answer: (call: Call) => [number, unknown]) {
  const calls: Call[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call: Call = { method: init?.method ?? 'GET', path: url.pathname };
    if (init?.body instanceof FormData) {
      call.form = {};
      for (const [key, value] of init.body.entries()) call.form[key] = typeof value === 'string' ? value : `file:${(value as File).name}`;
    }
    calls.push(call);
    const [status, body] = answer(call);
    return response({ status, body });
  }) as typeof fetch;
  const db = openOfflineDb({ name: `setup-online-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  const preloaded = {
    config: { status: 'ready', source: 'network', value: config },
    connectivity: { browserOnline: true, serverReachable: true, lastProbeAt: null },
  } as Partial<RootState>;
  const store = makeStore(preloaded, { extra: { db, api: { baseUrl: 'http://server.test', fetchFn } } });
  const show = (ui: React.ReactNode) => render(<Provider store={store}>{ui}</Provider>);
  return { calls, show };
}

describe('a farmer’s account', () => {
  it('shows the state, makes a one-time link and replaces it with "Nova povezava"', async () => {
    let links = 0;
    const { calls, show } = online(({ method, path }) => {
      if (method === 'GET' && path === '/api/Accounts/10000200') return [200, { exists: true, activated: false, activationPending: false, mode: 'embedded' }];
      if (method === 'POST' && path === '/api/Accounts/10000200/activation') {
        links += 1;
        return [201, { url: `http://localhost/#/activate/token-${links}`, expiresAt: '2026-12-01T10:00:00.000Z' }];
      }
      return [404, { status: 404, message: 'Not Found' }];
    });
    show(<AccountPanel farmerId={10_000_200} online />);
    expect((await screen.findByTestId('account-state')).textContent).toBe(slSetup.farmers.accountNone);
    fireEvent.click(screen.getByRole('button', { name: slSetup.farmers.createLink }));
    expect(((await screen.findByTestId('activation-link')) as HTMLInputElement).value).toBe('http://localhost/#/activate/token-1');
    fireEvent.click(screen.getByRole('button', { name: slSetup.farmers.newLink }));
    await waitFor(() => expect((screen.getByTestId('activation-link') as HTMLInputElement).value).toBe('http://localhost/#/activate/token-2'));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
  });

  it('under Keycloak says the account lives there, without a link button', async () => {
    const { calls, show } = online(() => [200, { exists: false, activated: false, activationPending: false, mode: 'keycloak' }]);
    show(<AccountPanel farmerId={10_000_201} online />);
    expect(await screen.findByText(slSetup.farmers.accountKeycloak)).toBeTruthy();
    expect(screen.queryByRole('button', { name: slSetup.farmers.createLink })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('a 409 to a link request for an account activated meanwhile reads the state again (and offers no link)', async () => {
    let activated = false;
    const { show } = online(({ method }) => {
      if (method === 'GET')
        return [
          200,
          { exists: true, activated, activationPending: !activated, expiresAt: activated ? undefined : '2026-12-01T10:00:00.000Z', mode: 'embedded' },
        ];
      activated = true;
      return [409, { status: 409, message: 'Conflict', detail: 'activated' }];
    });
    show(<AccountPanel farmerId={10_000_203} online />);
    fireEvent.click(await screen.findByRole('button', { name: slSetup.farmers.newLink }));
    await waitFor(() => expect(screen.getByTestId('account-state').textContent).toBe(slSetup.farmers.accountActive));
    expect(screen.queryByText(slSetup.farmers.accountKeycloak)).toBeNull();
    expect(screen.queryByRole('button', { name: slSetup.farmers.newLink })).toBeNull();
  });

  it('offline, and for a farmer not yet on the server, says why there is no link', () => {
    const { show } = online(() => [500, {}]);
    show(<AccountPanel farmerId={10_000_202} online={false} />);
    expect(screen.getByTestId('account-panel').textContent).toContain(slSetup.farmers.accountOffline);
    cleanup();
    show(<AccountPanel farmerId={1234} online />);
    expect(screen.getByTestId('account-panel').textContent).toContain(slSetup.farmers.accountNotYet);
  });
});

describe('import', () => {
  const preview = {
    columns: ['Ime', 'E-pošta', 'KMG'],
    targets: [
      { id: 11, name: 'name' },
      { id: 12, name: 'email' },
      { id: 14, name: 'kmg_mid' },
    ],
    suggested: { Ime: 11, 'E-pošta': 12, KMG: null },
    sample: [{ Ime: 'Ana', 'E-pošta': 'ana@example.si', KMG: '100' }],
  };
  const report = {
    created: 1,
    updated: 1,
    refused: 1,
    rows: [
      { row: 2, action: 'create', key: '100' },
      { row: 3, action: 'update', key: '101' },
      { row: 4, action: 'refuse', key: '101', reason: 'Podvojen KMG-MID' },
    ],
  };

  it('preview → confirmed mapping → dry-run table; a refused row blocks "Uvozi"; a clean run commits with the same mapping', async () => {
    let refused = true;
    const { calls, show } = online(({ path }) => {
      if (path === '/api/Import/preview') return [200, preview];
      if (path === '/api/Import/dry-run') return [200, refused ? report : { ...report, refused: 0, rows: report.rows.slice(0, 2) }];
      if (path === '/api/Import/commit') return [200, { ...report, refused: 0, rows: report.rows.slice(0, 2) }];
      return [404, {}];
    });
    show(<ImportScreen online />);
    const file = new File(['Ime;E-pošta;KMG\nAna;ana@example.si;100\n'], 'kmetje.csv', { type: 'text/csv' });
    fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [file] } });
    fireEvent.click(screen.getByRole('button', { name: slSetup.import.preview }));
    const mapping = await screen.findByTestId('import-mapping');
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/Import/preview', form: { kind: 'farmers', file: 'file:kmetje.csv' } });
    // The server's guess is preselected; the editor maps KMG to KMG-MID.
    expect((within(mapping).getByRole('combobox', { name: `${slSetup.import.target}: Ime` }) as HTMLSelectElement).value).toBe('11');
    // The targets by their Slovenian names.
    expect([...(within(mapping).getByRole('combobox', { name: `${slSetup.import.target}: KMG` }) as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      slSetup.import.skip,
      slSetup.farmers.name,
      slSetup.farmers.email,
      slSetup.farmers.kmgMid,
    ]);
    fireEvent.change(within(mapping).getByRole('combobox', { name: `${slSetup.import.target}: KMG` }), { target: { value: '14' } });
    fireEvent.click(screen.getByRole('button', { name: slSetup.import.dryRun }));
    const table = await screen.findByTestId('import-report');
    expect(JSON.parse(calls[1]!.form!.mapping!)).toEqual({ Ime: 11, 'E-pošta': 12, KMG: 14 });
    expect(screen.getByTestId('import-counts').textContent).toBe(slSetup.import.counts(1, 1, 1));
    expect(within(table).getByText('Podvojen KMG-MID')).toBeTruthy();
    expect(within(table).getByText(slSetup.import.actions.refuse)).toBeTruthy();
    expect((screen.getByRole('button', { name: slSetup.import.commit }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(slSetup.import.refusedRows)).toBeTruthy();

    refused = false;
    fireEvent.click(screen.getByRole('button', { name: slSetup.import.dryRun }));
    await waitFor(() => expect(screen.getByTestId('import-counts').textContent).toBe(slSetup.import.counts(1, 1, 0)));
    fireEvent.click(screen.getByRole('button', { name: slSetup.import.commit }));
    expect((await screen.findByRole('status')).textContent).toBe(slSetup.import.committed(1, 1));
    const commit = calls.find((c) => c.path === '/api/Import/commit')!;
    expect(commit.form).toMatchObject({ kind: 'farmers', file: 'file:kmetje.csv' });
    expect(JSON.parse(commit.form!.mapping!)).toEqual({ Ime: 11, 'E-pošta': 12, KMG: 14 });
  });

  it('shows the server’s reason when the commit is refused, and says it needs a connection offline', async () => {
    const { show } = online(({ path }) => {
      if (path === '/api/Import/preview') return [200, preview];
      if (path === '/api/Import/dry-run') return [200, { ...report, refused: 0, rows: [] }];
      return [400, { status: 400, message: 'Bad Request', detail: 'Neznan koordinatni sistem' }];
    });
    show(<ImportScreen online />);
    fireEvent.change(document.querySelector('select[name="kind"]')!, { target: { value: 'areas' } });
    fireEvent.change(document.querySelector('input[type="file"]')!, { target: { files: [new File(['{}'], 'travniki.geojson')] } });
    fireEvent.click(screen.getByRole('button', { name: slSetup.import.preview }));
    fireEvent.click(await screen.findByRole('button', { name: slSetup.import.dryRun }));
    fireEvent.click(await screen.findByRole('button', { name: slSetup.import.commit }));
    expect((await screen.findByRole('alert')).textContent).toBe('Neznan koordinatni sistem');
    cleanup();
    show(<ImportScreen online={false} />);
    expect(screen.getByRole('status').textContent).toBe(slSetup.common.onlineOnly);
  });
});
