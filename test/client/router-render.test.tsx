import { afterEach, describe, expect, it } from '@jest/globals';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState, type ReactElement } from 'react';
import { sl } from '../../src/common/i18n/sl';
import { compileRoutes, routeDefinitions, type RouteDefinition, type ScreenProps } from '../../src/client/app/router/routes';
import { farmerRecordRequired, readersCannotEdit } from '../../src/client/app/router/guards';
import { useRouter } from '../../src/client/app/router/router';
import { useUnsavedChanges } from '../../src/client/components/confirm-leave/unsaved-changes';
import { renderApp, renderRouter, setHash } from './render-app';

afterEach(() => {
  cleanup();
  setHash('#/');
});

function heading(): string {
  return screen.getByRole('heading', { level: 1 }).textContent ?? '';
}

describe('app routes render their screens', () => {
  it.each([
    ['#/', 'home', {}, {}],
    ['#/about', 'about', {}, {}],
    ['#/results', 'results', {}, {}],
    ['#/paths', 'paths', {}, {}],
    ['#/paths/17', 'path', { pathId: '17' }, {}],
    ['#/forms', 'forms', {}, {}],
    ['#/forms/5?edit=1', 'form', { formId: '5' }, { edit: '1' }],
    ['#/download', 'download', {}, {}],
    ['#/download/new', 'download-new', {}, {}],
  ])('%s renders the %s screen with its parameters and query', async (hash, name, params, query) => {
    renderApp({ hash });
    const screenText = await screen.findByTestId('screen');
    expect(screenText.textContent).toBe(`${name} ${JSON.stringify(params)} ${JSON.stringify(query)}`);
    const title = routeDefinitions.find((def) => def.name === name)!.title;
    expect(document.title).toBe(title === sl.common.appName ? title : `${title} – ${sl.common.appName}`);
  });

  it('decodes the path parameter', async () => {
    renderApp({ hash: '#/paths/Travnik%20%C5%A1t.%203' });
    expect((await screen.findByTestId('screen')).textContent).toContain('{"pathId":"Travnik št. 3"}');
  });

  it('an unknown path shows the Slovenian not-found screen', async () => {
    renderApp({ hash: '#/ni-take-strani' });
    expect(await screen.findByRole('heading', { level: 1, name: sl.router.notFoundTitle })).toBeTruthy();
    expect(screen.getByText(sl.router.notFoundText)).toBeTruthy();
    expect(screen.getByText('#/ni-take-strani')).toBeTruthy();
    expect(screen.getByRole('link', { name: sl.router.backHome }).getAttribute('href')).toBe('#/');
  });

  it('follows hash changes (header link to About, then the logo back home)', async () => {
    renderApp({ hash: '#/' });
    await screen.findByRole('heading', { level: 1, name: sl.screens.home.title });
    act(() => {
      window.location.hash = '#/about';
    });
    expect(await screen.findByRole('heading', { level: 1, name: sl.screens.about.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: sl.header.about }).getAttribute('aria-current')).toBe('page');
    // Focus moved to the new screen's heading, so screen readers announce it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: sl.screens.about.title })));
    expect(screen.getByRole('link', { name: sl.header.home }).getAttribute('href')).toBe('#/');
  });
});

describe('lazy screens', () => {
  it("shows 'Nalagam...' until the screen's chunk has loaded", async () => {
    let release!: (mod: { default: (p: ScreenProps) => ReactElement }) => void;
    const slow: RouteDefinition = {
      name: 'paths',
      pattern: '/slow/{id}',
      title: 'Počasi',
      load: () => new Promise((resolve) => (release = resolve)),
    };
    renderRouter({ hash: '#/slow/3?x=1&x=2', routes: compileRoutes([slow]) });
    expect(screen.getByRole('status').textContent).toBe(sl.common.loading);
    await act(async () => {
      release({ default: ({ params, query }: ScreenProps) => <h1>{`${params.id} ${JSON.stringify(query)}`}</h1> });
    });
    expect(heading()).toBe('3 {"x":["1","2"]}');
    expect(screen.queryByText(sl.common.loading)).toBeNull();
  });

  it('after a screen change focus waits on <main> and moves to the heading once the lazy screen arrives', async () => {
    const { Page } = await import('../../src/client/components/page/page');
    let release!: (mod: { default: (p: ScreenProps) => ReactElement }) => void;
    const routes = compileRoutes([
      { name: 'home', pattern: '/', title: 'A', load: async () => ({ default: () => <Page title="prvi" /> }) },
      { name: 'about', pattern: '/b', title: 'B', load: () => new Promise((resolve) => (release = resolve)) },
    ]);
    renderRouter({ hash: '#/', routes });
    await screen.findByRole('heading', { name: 'prvi' });
    act(() => {
      window.location.hash = '#/b';
    });
    await waitFor(() => expect(document.activeElement?.id).toBe('main'));
    await act(async () => {
      release({ default: () => <Page title="drugi" /> });
    });
    // Page moves focus in an effect, which runs after the new screen's frame is painted.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'drugi' })));
  });

  it('a chunk that fails to load shows a Slovenian error with a retry button', async () => {
    const broken: RouteDefinition = { name: 'paths', pattern: '/', title: 'X', load: () => Promise.reject(new Error('ChunkLoadError')) };
    const original = console.error;
    console.error = () => undefined; // React reports the caught error; the screen is what we check
    try {
      renderRouter({ routes: compileRoutes([broken]) });
      expect(await screen.findByText(sl.router.chunkFailed)).toBeTruthy();
      expect(screen.getByRole('button', { name: sl.common.retry })).toBeTruthy();
    } finally {
      console.error = original;
    }
  });
});

describe('guards block routes with a clear Slovenian screen', () => {
  const routes = compileRoutes([
    {
      name: 'form',
      pattern: '/forms/{formId}',
      title: 'Obrazec',
      load: async () => ({ default: () => <h1>urejanje</h1> }),
      guards: [farmerRecordRequired, readersCannotEdit],
    },
  ]);

  it('a reader cannot open an edit screen', async () => {
    renderRouter({ hash: '#/forms/new', routes, access: { role: 'reader', farmerRecord: 'unknown' } });
    expect(screen.getByRole('heading', { level: 1, name: sl.router.blockedTitle })).toBeTruthy();
    expect(screen.getByText(sl.router.blockedReader)).toBeTruthy();
    expect(screen.queryByText('urejanje')).toBeNull();
  });

  it('a reader may view the same form without ?edit', async () => {
    renderRouter({ hash: '#/forms/4', routes, access: { role: 'reader', farmerRecord: 'unknown' } });
    expect(await screen.findByText('urejanje')).toBeTruthy();
  });

  it('a farmer whose record is missing is told so', () => {
    renderRouter({ hash: '#/forms/4', routes, access: { role: 'farmer', farmerRecord: 'missing' } });
    expect(screen.getByText(sl.router.blockedNoFarmer)).toBeTruthy();
  });
});

describe('leaving a screen with unsaved data', () => {
  function Editor() {
    const [text, setText] = useState('');
    useUnsavedChanges(text !== '');
    const { navigate } = useRouter();
    return (
      <>
        <h1>urejevalnik</h1>
        <input aria-label="opomba" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="button" onClick={() => void navigate('/other')}>
          naprej
        </button>
      </>
    );
  }
  const routes = compileRoutes([
    { name: 'form', pattern: '/edit', title: 'E', load: async () => ({ default: Editor }) },
    { name: 'about', pattern: '/other', title: 'O', load: async () => ({ default: () => <h1>drugo</h1> }) },
  ]);

  it('asks with the exact leave text when a link changes the hash; staying keeps the data and the address', async () => {
    renderRouter({ hash: '#/edit', routes });
    fireEvent.input(await screen.findByLabelText('opomba'), { target: { value: 'travniška kadulja' } });
    act(() => {
      window.location.hash = '#/other';
    });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Ali ste prepričani, da želite zapustiti to stran? Vnešeni podatki bodo izgubljeni');
    expect(window.location.hash).toBe('#/edit'); // put back while the user decides
    fireEvent.click(screen.getByRole('button', { name: sl.confirmLeave.stay }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(heading()).toBe('urejevalnik');
    expect((screen.getByLabelText('opomba') as HTMLInputElement).value).toBe('travniška kadulja');
    expect(window.location.hash).toBe('#/edit');
  });

  it('leaving after confirmation goes to the new screen', async () => {
    renderRouter({ hash: '#/edit', routes });
    fireEvent.input(await screen.findByLabelText('opomba'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'naprej' }));
    fireEvent.click(await screen.findByRole('button', { name: sl.confirmLeave.leave }));
    expect(await screen.findByRole('heading', { name: 'drugo' })).toBeTruthy();
    expect(window.location.hash).toBe('#/other');
  });

  it('does not ask when nothing was entered', async () => {
    renderRouter({ hash: '#/edit', routes });
    fireEvent.click(await screen.findByRole('button', { name: 'naprej' }));
    expect(await screen.findByRole('heading', { name: 'drugo' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('closing the tab with unsaved data triggers beforeunload with the exact leave text; without, nothing', async () => {
    renderRouter({ hash: '#/edit', routes });
    const input = await screen.findByLabelText('opomba');
    const clean = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);

    fireEvent.input(input, { target: { value: 'x' } });
    const dirty = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    // jsdom's Event.returnValue is the legacy boolean; a real BeforeUnloadEvent holds a string.
    Object.defineProperty(dirty, 'returnValue', { value: '', writable: true });
    window.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
    expect(dirty.returnValue).toBe(sl.leavePage.confirm);

    fireEvent.input(input, { target: { value: '' } });
    const again = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    window.dispatchEvent(again);
    expect(again.defaultPrevented).toBe(false);
  });
});

describe('guards read who the user is from the store (auth roles, season chain)', () => {
  it('a farmer whose record is missing sees the blocked screen on data screens, About still opens', async () => {
    const { seasonLoadFailed } = await import('../../src/client/features/season/season-actions');
    const { store } = renderApp({ hash: '#/' });
    await screen.findByTestId('screen');
    act(() => {
      store.dispatch(seasonLoadFailed({ message: sl.farmer.missing, role: 'farmer' }));
    });
    expect(screen.getByRole('heading', { level: 1, name: sl.router.blockedTitle })).toBeTruthy();
    expect(screen.getByText(sl.router.blockedNoFarmer)).toBeTruthy();
    act(() => {
      window.location.hash = '#/about';
    });
    expect(await screen.findByRole('heading', { level: 1, name: sl.screens.about.title })).toBeTruthy();
  });

  it('a reader is blocked from creating a form but may open one', async () => {
    const { seasonLoadFailed } = await import('../../src/client/features/season/season-actions');
    const { store } = renderApp({ hash: '#/forms/new' });
    act(() => {
      store.dispatch(seasonLoadFailed({ message: 'Service Unavailable', role: 'reader' }));
    });
    expect(await screen.findByText(sl.router.blockedReader)).toBeTruthy();
    act(() => {
      window.location.hash = '#/forms/8';
    });
    expect((await screen.findByTestId('screen')).textContent).toContain('form {"formId":"8"}');
  });
});
