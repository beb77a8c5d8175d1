/** Home, paths list and path screen: their states, statuses and score badges. */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { HomeScreen, type HomeScreenProps } from '../../../src/client/features/home/home-screen';
import { buildPathRows, groupByArea } from '../../../src/client/features/paths/path-rows';
import { FormsScreen } from '../../../src/client/features/forms/forms-screen';
import { PathsScreen } from '../../../src/client/features/paths/paths-screen';
import { PathScreen, type PathScreenProps } from '../../../src/client/features/paths/path-screen';
import { ScoreBadge } from '../../../src/client/components/score-badge/score-badge';
import { sl, slPhone, slScreens } from '../../../src/common/i18n/sl';
import { config, season } from './fixtures';
import { APP_ROOT_ID, homeSnapshotKey, readHomeSnapshot, writeHomeSnapshot } from '../../../src/client/lib/home-snapshot';
import { firstVisitSnapshot } from '../../../src/client/app/bootstrap/first-visit-home';
import { paintFirstVisitHome } from '../../../src/client/app/bootstrap/first-visit-picture';
import { paintHomePicture } from '../../../src/client/app/bootstrap/home-picture';
import { CONFIG_STORAGE_KEY } from '../../../src/client/lib/config/load-config';
import { writeIdentity } from '../../../src/client/lib/auth/local-identity';
import { publishWalkStatus } from '../../../src/client/lib/walk-status';
import { WalkBar } from '../../../src/client/app/layout/walk-bar';

afterEach(cleanup);

describe('ScoreBadge', () => {
  it.each([
    [67, 'good', 'dobro'],
    [66, 'medium', 'srednje'],
    [34, 'medium', 'srednje'],
    [33, 'bad', 'slabo'],
  ])('%i is %s, shown with the word and an icon, not colour alone', (score, cls, word) => {
    const { container } = render(<ScoreBadge score={score} />);
    const badge = container.querySelector('.score-badge')!;
    expect(badge.getAttribute('data-score-class')).toBe(cls);
    expect(badge.textContent).toBe(`${score}${word}`);
    expect(badge.querySelector('svg')).toBeTruthy();
    expect(badge.getAttribute('aria-label')).toBe(slScreens.score.aria(score, word));
  });

  it('a missing score says so', () => {
    render(<ScoreBadge score={null} />);
    expect(screen.getByText(slScreens.score.none)).toBeTruthy();
  });
});

describe('season rows (features/paths)', () => {
  it('gives each path its area, length, last walk, status for the current season and score', () => {
    const s = season();
    const rows = buildPathRows(s, config);
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['Pot 1']).toMatchObject({ status: 'form-done', score: 72, areaName: 'Travnik pod gozdom', lengthM: 240 });
    expect(byName['Pot 2']).toMatchObject({ status: 'walked', score: null, lengthM: 1250 });
    // Walked last year only: not walked in this season.
    expect(byName['Pot 3']).toMatchObject({ status: 'not-walked', areaName: 'Senožet' });
    const groups = groupByArea(rows, s.areas, config);
    expect(groups.map((g) => [g.name, g.paths.length])).toEqual([
      ['Senožet', 1],
      ['Travnik pod gozdom', 2],
    ]);
  });

  it('a form with nothing answered has no score yet (not a bad 0 on the home screen)', () => {
    const s = season();
    expect(buildPathRows({ ...s, indicators: s.indicators }, config).find((r) => r.id === s.pathDone.id)!.score).toBe(72);
    expect(buildPathRows({ ...s, indicators: [] }, config).find((r) => r.id === s.pathDone.id)!.score).toBeNull();
  });

  it('archived paths, links and forms do not count', () => {
    const s = season();
    const rows = buildPathRows({ ...s, forms: [{ ...s.formDone, archived: true }], paths: [s.pathDone, { ...s.pathWalked, archived: true }] }, config);
    expect(rows.map((r) => r.name)).toEqual(['Pot 1']);
    expect(rows[0]).toMatchObject({ status: 'walked', score: null });
  });
});

function homeProps(overrides: Partial<HomeScreenProps> = {}, s = season()): HomeScreenProps {
  const rows = buildPathRows(s, config);
  return {
    role: 'farmer',
    status: 'ready',
    error: null,
    fromDevice: false,
    season: { name: '2026', from: '2026-04-01', to: '2026-10-31' },
    areas: groupByArea(rows, s.areas, config),
    farmerName: null,
    hasFarmer: true,
    sync: { online: true, pending: 0, lastSyncAt: '2026-06-02T10:00:00.000Z' },
    ...overrides,
  };
}

/** A Storage in memory: each test its own. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

/** An element as markup to compare: tags, attributes in order of name, texts; of an icon only its size. */
function canonical(node: Node): unknown {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  const element = node as Element;
  const icon = element.namespaceURI === 'http://www.w3.org/2000/svg';
  const names = element.getAttributeNames().filter((name) => !icon || name === 'width' || name === 'height');
  const attributes = Object.fromEntries(names.sort().map((name) => [name, element.getAttribute(name)]));
  const children: unknown[] = [];
  for (const child of icon ? [] : element.childNodes) {
    const value = canonical(child);
    // Adjacent texts as one (a render may split a sentence into several text nodes).
    if (typeof value === 'string' && typeof children.at(-1) === 'string') children.push(`${children.pop() as string}${value}`);
    else children.push(value);
  }
  return [element.tagName.toLowerCase(), attributes, ...children];
}

/** The picture is taken once the page is idle after home's paint: waits for it. */
async function pictureTaken(storage: Storage, key: string) {
  await waitFor(() => expect(readHomeSnapshot(storage, key)).not.toBeNull());
}

describe('HomeScreen: the picture of the last home for the next start', () => {
  it("a farmer's home is kept and shown at once on the next start, before the season is read, with its paths' links", async () => {
    const storage = memoryStorage();
    const shown = homeProps({ snapshotKey: '1:kmet1@example.si', snapshotStorage: storage, newPathHref: (id) => `#/paths/new?area=${id}` });
    const first = render(<HomeScreen {...shown} />);
    expect(readHomeSnapshot(storage, '1:kmet1@example.si')).toBeNull();
    await pictureTaken(storage, '1:kmet1@example.si');
    const links = first.container.querySelectorAll('a[href^="#/paths/"]');
    expect(links.length).toBeGreaterThan(0);
    const hrefs = [...links].map((a) => a.getAttribute('href'));
    first.unmount();

    const { container } = render(
      <HomeScreen {...homeProps({ status: 'loading', areas: [], season: null, role: null, snapshotKey: '1:kmet1@example.si', snapshotStorage: storage })} />,
    );
    expect(screen.queryByText(sl.common.loading)).toBeNull();
    expect([...container.querySelectorAll('a[href^="#/paths/"]')].map((a) => a.getAttribute('href'))).toEqual(hrefs);
    expect(screen.getByText(shown.areas[0]!.paths[0]!.name)).toBeTruthy();
  });

  it("another user's start, or an editor's home, shows no picture; an editor's clears it", async () => {
    const storage = memoryStorage();
    render(<HomeScreen {...homeProps({ snapshotKey: '1:kmet1@example.si', snapshotStorage: storage })} />);
    await pictureTaken(storage, '1:kmet1@example.si');
    cleanup();
    render(<HomeScreen {...homeProps({ status: 'loading', areas: [], snapshotKey: '1:kmet2@example.si', snapshotStorage: storage })} />);
    expect(screen.getByRole('status').textContent).toBe(sl.common.loading);
    cleanup();
    render(<HomeScreen {...homeProps({ role: 'editor', farmerName: 'Kmet', snapshotKey: '1:kmet1@example.si', snapshotStorage: storage })} />);
    cleanup();
    render(<HomeScreen {...homeProps({ status: 'loading', areas: [], snapshotKey: '1:kmet1@example.si', snapshotStorage: storage })} />);
    expect(screen.getByRole('status').textContent).toBe(sl.common.loading);
  });

  it('the season read from the device replaces the picture', async () => {
    const storage = memoryStorage();
    const old = homeProps({ snapshotKey: '1:kmet1@example.si', snapshotStorage: storage });
    render(<HomeScreen {...old} />);
    await pictureTaken(storage, '1:kmet1@example.si');
    cleanup();
    const loading = homeProps({ status: 'loading', areas: [], snapshotKey: '1:kmet1@example.si', snapshotStorage: storage });
    const { rerender } = render(<HomeScreen {...loading} />);
    const renamed = old.areas.map((area) => ({ ...area, paths: area.paths.map((p) => ({ ...p, name: `${p.name} (nova)` })) }));
    rerender(<HomeScreen {...loading} status="ready" areas={renamed} />);
    expect(screen.getByText(renamed[0]!.paths[0]!.name)).toBeTruthy();
    expect(screen.queryByText(old.areas[0]!.paths[0]!.name)).toBeNull();
  });
});

describe("HomeScreen: a first visit's picture from the early reads", () => {
  it('is taken when written after the first render: the paths at once, their status and score kept hidden until the season is read', async () => {
    const storage = memoryStorage();
    const s = season();
    const key = '1:kmet1@example.si';
    const loading = homeProps({ status: 'loading', areas: [], season: null, role: null, snapshotKey: key, snapshotStorage: storage });
    const { container, rerender } = render(<HomeScreen {...loading} />);
    expect(screen.getByRole('status').textContent).toBe(sl.common.loading);

    const picture = firstVisitSnapshot(config, key, { duration: s.duration, areas: s.areas, paths: s.paths });
    act(() => writeHomeSnapshot(storage, picture));
    const shown = homeProps({}, s);
    // The meadows and paths as home lists them, with the app's own links.
    expect([...container.querySelectorAll('a[href^="#/paths/"]:not([href^="#/paths/new"])')].map((a) => a.getAttribute('href'))).toEqual(
      shown.areas.flatMap((area) => area.paths.map((p) => `#/paths/${p.id}`)),
    );
    expect(screen.getByText('Pot 1')).toBeTruthy();
    expect(screen.getByText(slScreens.home.window('1. 4. 2026', '31. 10. 2026'))).toBeTruthy();
    // Not known before the forms are read: in place but hidden, no score, no progress.
    expect(container.querySelectorAll('[data-status]')).toHaveLength(0);
    expect(container.querySelectorAll('.status-chip.picture-stale')).toHaveLength(3);
    expect(container.querySelectorAll('.picture-stale .score-badge')).toHaveLength(3);
    expect(container.querySelector('progress')!.classList.contains('picture-stale')).toBe(true);

    rerender(<HomeScreen {...loading} role="farmer" status="ready" areas={shown.areas} season={shown.season} />);
    expect(container.querySelector('[data-status="form-done"]')).toBeTruthy();
    expect(container.querySelectorAll('.picture-stale')).toHaveLength(0);
  });
});

describe("HomeScreen's picture painted before the app's code runs", () => {
  const KEY = homeSnapshotKey(1, 'kmet1@example.si');
  /** index.html's root with its placeholder, as the picture script finds it. */
  function placeholderRoot(): HTMLElement {
    document.getElementById(APP_ROOT_ID)?.remove();
    const root = document.createElement('div');
    root.id = APP_ROOT_ID;
    root.innerHTML = `<p class="boot" role="status">${sl.common.loading}</p>`;
    document.body.append(root);
    return root;
  }
  function signedIn(storage: Storage, email: string) {
    storage.setItem(CONFIG_STORAGE_KEY, JSON.stringify(config));
    writeIdentity(storage, { sub: `sub-${email}`, email }, { token: 't', refreshToken: 'r', idToken: 'i' });
  }
  afterEach(() => {
    document.getElementById(APP_ROOT_ID)?.remove();
    window.location.hash = '';
  });

  it("the home as shown (the app root's markup, no style attributes) is painted on the next start, its paths' links the app's own", async () => {
    const storage = memoryStorage();
    signedIn(storage, 'kmet1@example.si');
    const shown = homeProps({ snapshotKey: KEY, snapshotStorage: storage, todo: <div style={{ height: 10 }}>Čaka vas</div> });
    const app = placeholderRoot();
    app.replaceChildren();
    const { unmount } = render(<HomeScreen {...shown} />, { container: app });
    await pictureTaken(storage, KEY);
    const hrefs = [...app.querySelectorAll('a[href^="#/paths/"]')].map((a) => a.getAttribute('href'));
    expect(hrefs.length).toBeGreaterThan(0);
    unmount();

    const root = placeholderRoot();
    expect(paintHomePicture(document, storage)).toBe(true);
    expect([...root.querySelectorAll('a[href^="#/paths/"]')].map((a) => a.getAttribute('href'))).toEqual(hrefs);
    expect(within(root).getByText(shown.areas[0]!.paths[0]!.name)).toBeTruthy();
    // The app's Content-Security-Policy refuses style attributes in markup.
    expect(root.querySelector('[style]')).toBeNull();
    expect(within(root).getByText('Čaka vas')).toBeTruthy();
    // What told the live state then (the connection, the edits waiting) keeps its place, hidden.
    const stale = [...root.querySelectorAll('[data-live-state]')];
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.every((element) => element.classList.contains('picture-stale'))).toBe(true);
    expect(within(root).getByText(slScreens.home.pending(shown.sync.pending), { exact: false }).closest('.picture-stale')).not.toBeNull();
  });

  it('a walk under way when the picture is taken is not in it: the next start has no walk running', async () => {
    const storage = memoryStorage();
    signedIn(storage, 'kmet1@example.si');
    const shown = homeProps({ snapshotKey: KEY, snapshotStorage: storage });
    publishWalkStatus({ pathId: 5, pathName: 'Pot 1', returnTo: '#/paths/5', status: 'recording', distanceM: 40 });
    const app = placeholderRoot();
    app.replaceChildren();
    const { unmount } = render(
      <>
        <WalkBar currentPath="/" />
        <HomeScreen {...shown} />
      </>,
      { container: app },
    );
    expect(within(app).getByText(sl.walkBar.recording('40 m'))).toBeTruthy();
    await pictureTaken(storage, KEY);
    unmount();
    publishWalkStatus(null);

    const root = placeholderRoot();
    expect(paintHomePicture(document, storage)).toBe(true);
    expect(within(root).getByText(shown.areas[0]!.paths[0]!.name)).toBeTruthy();
    expect(within(root).queryByText(sl.walkBar.recording('40 m'))).toBeNull();
  });

  it("a first visit's picture, made before the app's markup ever showed, is built as home shows it: the same page, the paths' links the app's own", () => {
    const storage = memoryStorage();
    signedIn(storage, 'kmet1@example.si');
    const s = season();
    writeHomeSnapshot(storage, firstVisitSnapshot(config, KEY, { duration: s.duration, areas: s.areas, paths: s.paths }));
    window.location.hash = '#/forms';
    const root = placeholderRoot();
    expect(paintFirstVisitHome(document, storage)).toBe(false);
    window.location.hash = '#/';
    // Without the app's markup the other painter has nothing to paint; this one builds it.
    expect(paintHomePicture(document, storage)).toBe(false);
    expect(paintFirstVisitHome(document, storage)).toBe(true);
    expect(paintFirstVisitHome(document, storage)).toBe(false); // over the placeholder only
    expect(root.querySelector('[style]')).toBeNull();
    expect([...root.querySelectorAll('a[href^="#/paths/"]:not([href^="#/paths/new"])')].map((a) => a.getAttribute('href'))).toEqual(
      homeProps({}, s).areas.flatMap((area) => area.paths.map((p) => `#/paths/${p.id}`)),
    );

    // Home's own render of the same picture: the same page, but for the icons' drawings (which
    // come with the app) and what home shows below the meadows (the sync card, the quick links).
    const app = document.createElement('div');
    document.body.append(app);
    render(<HomeScreen {...homeProps({ status: 'loading', areas: [], season: null, role: null, snapshotKey: KEY, snapshotStorage: storage })} />, {
      container: app,
    });
    const shown = app.querySelector('section.page')!;
    for (const below of shown.querySelectorAll('.sync-card, .quick-actions')) below.remove();
    expect(canonical(root.querySelector('section.page')!)).toEqual(canonical(shown));
    app.remove();
  });

  it('a picture is marked busy (aria-busy), painted before the app or rendered by home; the season read from the device is not', async () => {
    const storage = memoryStorage();
    signedIn(storage, 'kmet1@example.si');
    const shown = homeProps({ snapshotKey: KEY, snapshotStorage: storage });
    const app = placeholderRoot();
    app.replaceChildren();
    const { unmount } = render(<HomeScreen {...shown} />, { container: app });
    await pictureTaken(storage, KEY);
    expect(app.querySelector('[aria-busy]')).toBeNull();
    unmount();

    const root = placeholderRoot();
    expect(paintHomePicture(document, storage)).toBe(true);
    expect(root.querySelector('[aria-busy="true"] a[href^="#/paths/"]')).not.toBeNull();
    root.remove();

    const loading = homeProps({ status: 'loading', areas: [], snapshotKey: KEY, snapshotStorage: storage });
    const { container, rerender } = render(<HomeScreen {...loading} />);
    expect(container.querySelector('[aria-busy="true"] a[href^="#/paths/"]')).not.toBeNull();
    rerender(<HomeScreen {...loading} status="ready" areas={shown.areas} />);
    expect(container.querySelector('a[href^="#/paths/"]')).not.toBeNull();
    expect(container.querySelector('[aria-busy]')).toBeNull();
  });

  it('is not painted for another user, another address, without a stored config, or over anything but the placeholder', async () => {
    const storage = memoryStorage();
    signedIn(storage, 'kmet1@example.si');
    const app = placeholderRoot();
    app.replaceChildren();
    render(<HomeScreen {...homeProps({ snapshotKey: KEY, snapshotStorage: storage })} />, { container: app });
    await pictureTaken(storage, KEY);
    cleanup();

    window.location.hash = '#/forms';
    let root = placeholderRoot();
    expect(paintHomePicture(document, storage)).toBe(false);
    expect(root.textContent).toBe(sl.common.loading);
    // A sign-in callback comes back to the home address with its parameters.
    window.location.hash = '#state=abc&code=def';
    expect(paintHomePicture(document, storage)).toBe(false);
    window.location.hash = '#/';

    root.innerHTML = '<main>…</main>';
    expect(paintHomePicture(document, storage)).toBe(false);

    root = placeholderRoot();
    signedIn(storage, 'kmet2@example.si');
    expect(paintHomePicture(document, storage)).toBe(false);
    signedIn(storage, 'kmet1@example.si');
    storage.removeItem(CONFIG_STORAGE_KEY);
    expect(paintHomePicture(document, storage)).toBe(false);
    expect(root.textContent).toBe(sl.common.loading);

    signedIn(storage, 'kmet1@example.si');
    expect(paintHomePicture(document, storage)).toBe(true);
  });
});

describe('HomeScreen', () => {
  it("shows 'Nalagam...' while the season loads", () => {
    render(<HomeScreen {...homeProps({ status: 'loading', areas: [] })} />);
    expect(screen.getByRole('status').textContent).toBe(sl.common.loading);
  });

  it('shows the error with a retry when nothing could be loaded', () => {
    const onRetry = jest.fn();
    render(<HomeScreen {...homeProps({ status: 'failed', error: sl.farmer.missing, areas: [] })} onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toBe(sl.farmer.missing);
    fireEvent.click(screen.getByRole('button', { name: sl.common.retry }));
    expect(onRetry).toHaveBeenCalled();
  });

  it('says when the data comes from the device, and the waiting edits', () => {
    render(<HomeScreen {...homeProps({ fromDevice: true, sync: { online: false, pending: 3, lastSyncAt: null } })} />);
    expect(screen.getByTestId('offline-note').textContent).toContain(slScreens.states.offline);
    const sync = screen.getByTestId('home-sync');
    expect(sync.textContent).toContain(slScreens.home.offline);
    expect(sync.textContent).toContain(slScreens.home.pending(3));
    expect(sync.textContent).toContain(slScreens.home.never);
  });

  it('shows the season window and per meadow the paths with status and score', () => {
    const s = season();
    render(<HomeScreen {...homeProps({}, s)} />);
    expect(screen.getByTestId('home-season').textContent).toContain(slScreens.home.window('1. 4. 2026', '31. 10. 2026'));
    expect(screen.getByTestId('home-season').textContent).toContain(slScreens.home.progress(1, 3));
    const done = screen.getByTestId(`home-path-${s.pathDone.id}`);
    expect(done.getAttribute('href')).toBe(`#/paths/${s.pathDone.id}`);
    expect(done.textContent).toContain(slScreens.status['form-done']);
    expect(done.textContent).toContain('72dobro');
    expect(screen.getByTestId(`home-path-${s.pathWalked.id}`).textContent).toContain(slScreens.status.walked);
    expect(screen.getByTestId(`home-path-${s.pathNew.id}`).textContent).toContain(slScreens.status['not-walked']);
  });

  it('empty: no meadows, and no season', () => {
    render(<HomeScreen {...homeProps({ areas: [], season: null })} />);
    expect(screen.getByText(slScreens.home.noAreas)).toBeTruthy();
    expect(screen.getByText(slScreens.home.noSeason)).toBeTruthy();
  });

  it('editors first choose a farmer; the farmers panel sits beside', () => {
    render(<HomeScreen {...homeProps({ role: 'editor', hasFarmer: false, farmersPanel: <div data-testid="panel" /> })} />);
    expect(screen.getByText(slScreens.home.chooseFarmer)).toBeTruthy();
    expect(screen.getByTestId('panel')).toBeTruthy();
  });
});

describe('HomeScreen of editors and readers', () => {
  it('says what they see, and choosing a farmer moves to that farmer’s meadows', () => {
    const s = season();
    const staff = homeProps({ role: 'reader', hasFarmer: false, farmerName: null, farmersPanel: <div data-testid="panel" /> }, s);
    const { rerender } = render(<HomeScreen {...staff} />);
    expect(screen.getByText(slPhone.staff.homeLead)).toBeTruthy();
    expect(screen.queryByText(slScreens.home.areas)).toBeNull();
    rerender(<HomeScreen {...staff} hasFarmer farmerName="Ana Kovač" />);
    const heading = screen.getByRole('heading', { level: 2, name: slPhone.staff.areasOf('Ana Kovač') });
    expect(document.activeElement).toBe(heading);
  });

  it('lists before a farmer is chosen say so, and link to home, where the farmer is chosen', () => {
    render(<PathsScreen rows={[]} status="ready" error={null} fromDevice={false} hasData emptyText={slPhone.staff.chooseFarmerFirst} />);
    expect(screen.getByText(slPhone.staff.chooseFarmerFirst)).toBeTruthy();
    expect(screen.getByRole('link', { name: sl.nav.home }).getAttribute('href')).toBe('#/');
  });
});

describe('FormsScreen', () => {
  it('an empty list says where a form is made and links to the paths', () => {
    const { rerender } = render(<FormsScreen items={[]} seasonName={null} status="ready" error={null} fromDevice={false} hasData />);
    expect(screen.getByText(sl.screens.forms.empty)).toBeTruthy();
    expect(screen.getByText(sl.screens.forms.emptyHint)).toBeTruthy();
    expect(screen.getByRole('link', { name: sl.nav.paths }).getAttribute('href')).toBe('#/paths');
    rerender(<FormsScreen items={[]} seasonName={null} status="ready" error={null} fromDevice={false} hasData emptyText={slPhone.staff.chooseFarmerFirst} />);
    expect(screen.queryByText(sl.screens.forms.emptyHint)).toBeNull();
    // Before a farmer is chosen: to home, where the farmer is chosen (the paths list is empty too).
    expect(screen.queryByRole('link', { name: sl.nav.paths })).toBeNull();
    expect(screen.getByRole('link', { name: sl.nav.home }).getAttribute('href')).toBe('#/');
  });

  it('names the season in its lead once, as home titles it: "Sezona 2026", not "Sezona: Sezona 2026"', () => {
    const { container, rerender } = render(<FormsScreen items={[]} seasonName="Sezona 2026" status="ready" error={null} fromDevice={false} hasData />);
    const lead = () => container.querySelector('.page__lead')!.textContent;
    expect(lead()).toBe(`${sl.screens.forms.lead} Sezona 2026.`);
    rerender(<FormsScreen items={[]} seasonName="2026" status="ready" error={null} fromDevice={false} hasData />);
    expect(lead()).toBe(`${sl.screens.forms.lead} Sezona 2026.`);
  });
});

describe('PathsScreen', () => {
  it('lists paths with area, length, last walk, status and score', () => {
    const s = season();
    render(<PathsScreen rows={buildPathRows(s, config)} status="ready" error={null} fromDevice={false} hasData />);
    const cells = within(screen.getByTestId(`path-row-${s.pathWalked.id}`))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(['Travnik pod gozdom', '1,25 km', '3. 6. 2026', slScreens.status.walked, slScreens.score.none]);
    const first = within(screen.getByTestId(`path-row-${s.pathDone.id}`))
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(first).toEqual(['Travnik pod gozdom', '240 m', '2. 6. 2026', slScreens.status['form-done'], '72dobro']);
  });

  it('empty and loading states', () => {
    const { rerender } = render(<PathsScreen rows={[]} status="ready" error={null} fromDevice={false} hasData />);
    expect(screen.getByText(sl.screens.paths.empty)).toBeTruthy();
    rerender(<PathsScreen rows={[]} status="loading" error={null} fromDevice={false} hasData={false} />);
    expect(screen.getByText(sl.common.loading)).toBeTruthy();
  });
});

function pathProps(overrides: Partial<PathScreenProps> = {}): PathScreenProps {
  const s = season();
  const row = buildPathRows(s, config).find((r) => r.name === 'Pot 2')!;
  return {
    row,
    seasonName: '2026',
    forms: [],
    formKinds: [
      { id: 1, title: 'Travnik' },
      { id: 2, title: 'Upravljanje' },
    ],
    canEdit: true,
    status: 'ready',
    error: null,
    fromDevice: false,
    hasData: true,
    onAddForm: async () => 77,
    onOpenForm: () => undefined,
    map: <div data-testid="map" />,
    recorder: <div data-testid="recorder" />,
    previous: <p>prej</p>,
    ...overrides,
  };
}

describe('PathScreen', () => {
  it('shows the map, the recorder, the season forms and adds a form of the chosen kind', async () => {
    const onAddForm = jest.fn(async (_kind: number) => 77);
    const onOpenForm = jest.fn();
    render(<PathScreen {...pathProps({ onAddForm, onOpenForm })} />);
    expect(screen.getByTestId('map')).toBeTruthy();
    expect(screen.getByTestId('recorder')).toBeTruthy();
    expect(screen.getByText(slScreens.paths.noForms)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(slScreens.paths.formKind), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: slScreens.paths.create }));
    await waitFor(() => expect(onOpenForm).toHaveBeenCalledWith(77));
    expect(onAddForm).toHaveBeenCalledWith(2);
  });

  it('a second form of a kind the path already has this season asks first', async () => {
    const onAddForm = jest.fn(async (_kind: number) => 78);
    const onOpenForm = jest.fn();
    const base = pathProps({ onAddForm, onOpenForm });
    const kind = base.formKinds[0]!;
    const existing = { id: 5, kindTitle: kind.title, completed: false, score: null, updatedAt: '2026-06-02T10:00:00.000Z' };
    render(<PathScreen {...base} forms={[existing]} />);
    fireEvent.change(screen.getByLabelText(slScreens.paths.formKind), { target: { value: String(kind.id) } });
    fireEvent.click(screen.getByRole('button', { name: slScreens.paths.create }));
    expect(screen.getByTestId('second-form-question').textContent).toContain(slPhone.secondForm.question(kind.title));
    expect(onAddForm).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: slPhone.secondForm.confirm }));
    await waitFor(() => expect(onOpenForm).toHaveBeenCalledWith(78));
    expect(onAddForm).toHaveBeenCalledWith(kind.id);
  });

  it('readers get no recorder and no new form', () => {
    render(<PathScreen {...pathProps({ canEdit: false })} />);
    expect(screen.queryByTestId('recorder')).toBeNull();
    expect(screen.queryByRole('button', { name: slScreens.paths.create })).toBeNull();
  });

  it('an unknown path says so', () => {
    render(<PathScreen {...pathProps({ row: null })} />);
    expect(screen.getByText(slScreens.paths.notFound)).toBeTruthy();
  });
});

describe('archive (editors)', () => {
  it('archives a path only after confirming', async () => {
    const onArchive = jest.fn(async () => undefined);
    render(<PathScreen {...pathProps({ onArchive })} />);
    fireEvent.click(screen.getByRole('button', { name: slScreens.archive.path }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain(slScreens.archive.pathConfirm);
    fireEvent.click(within(dialog).getByRole('button', { name: sl.common.cancel }));
    expect(onArchive).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: slScreens.archive.path }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: slScreens.archive.path }));
    await waitFor(() => expect(onArchive).toHaveBeenCalledTimes(1));
  });

  it('farmers and readers get no archive button', () => {
    render(<PathScreen {...pathProps()} />);
    expect(screen.queryByRole('button', { name: slScreens.archive.path })).toBeNull();
  });
});
