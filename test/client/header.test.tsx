import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { sl } from '../../src/common/i18n/sl';
import { Header } from '../../src/client/components/header/header';

afterEach(cleanup);

describe('Header', () => {
  it('logo links home; About and Download buttons link to their screens', () => {
    render(<Header online pendingEdits={0} />);
    expect(screen.getByRole('link', { name: sl.header.home }).getAttribute('href')).toBe('#/');
    expect(screen.getByRole('link', { name: sl.header.about }).getAttribute('href')).toBe('#/about');
    expect(screen.getByRole('link', { name: sl.header.download }).getAttribute('href')).toBe('#/download');
    expect(document.querySelector('[data-icon="comment-info"]')).not.toBeNull();
    expect(document.querySelector('[data-icon="download"]')).not.toBeNull();
  });

  it('online: wifi icon, no badge', () => {
    render(<Header online pendingEdits={0} />);
    const status = screen.getByTestId('conn-status');
    expect(status.textContent).toContain(sl.header.online);
    expect(status.querySelector('[data-icon="wifi"]')).not.toBeNull();
    expect(status.querySelector('.conn-status__badge')).toBeNull();
  });

  it('offline with waiting edits: no-wifi icon, the word, and the count in Slovenian plural forms', () => {
    const { rerender } = render(<Header online={false} pendingEdits={3} />);
    const status = screen.getByTestId('conn-status');
    expect(status.querySelector('[data-icon="no-wifi"]')).not.toBeNull();
    expect(status.textContent).toContain(sl.header.offline);
    expect(status.querySelector('.conn-status__badge')?.textContent).toBe('3');
    expect(status.textContent).toContain('3 spremembe čakajo na pošiljanje');
    rerender(<Header online={false} pendingEdits={1} />);
    expect(screen.getByTestId('conn-status').textContent).toContain('1 sprememba čaka na pošiljanje');
    rerender(<Header online={false} pendingEdits={2} />);
    expect(screen.getByTestId('conn-status').textContent).toContain('2 spremembi čakata na pošiljanje');
    rerender(<Header online={false} pendingEdits={5} />);
    expect(screen.getByTestId('conn-status').textContent).toContain('5 sprememb čaka na pošiljanje');
  });

  it('edits the server refused: a mark apart from the waiting count, and said in Slovenian', () => {
    const { rerender } = render(<Header online pendingEdits={0} needsDecision={2} />);
    const status = screen.getByTestId('conn-status');
    expect(status.classList.contains('conn-status--attention')).toBe(true);
    expect(status.querySelector('.conn-status__alert')).not.toBeNull();
    expect(status.querySelector('.conn-status__badge')).toBeNull();
    expect(status.textContent).toContain('2 spremembi čakata na vašo odločitev');
    rerender(<Header online={false} pendingEdits={3} needsDecision={1} />);
    expect(screen.getByTestId('conn-status').textContent).toContain('3 spremembe čakajo na pošiljanje, 1 sprememba čaka na vašo odločitev');
    rerender(<Header online pendingEdits={3} />);
    expect(screen.getByTestId('conn-status').querySelector('.conn-status__alert')).toBeNull();
    expect(screen.getByTestId('conn-status').classList.contains('conn-status--attention')).toBe(false);
  });

  it('the status opens the sync panel when a handler is given', () => {
    const onStatusClick = jest.fn();
    render(<Header online pendingEdits={2} onStatusClick={onStatusClick} />);
    fireEvent.click(screen.getByTestId('conn-status'));
    expect(onStatusClick).toHaveBeenCalledTimes(1);
  });

  it('marks the open screen', () => {
    render(<Header online pendingEdits={0} currentPath="/download/new" />);
    expect(screen.getByRole('link', { name: sl.header.download }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: sl.header.about }).hasAttribute('aria-current')).toBe(false);
  });
});

describe('the layout feeds the header from the sync feature', () => {
  it('shows offline and the waiting edits from the connectivity and sync slices', async () => {
    const { renderApp, setHash } = await import('./render-app');
    const { browserOnlineChanged, outboxSummaryLoaded } = await import('../../src/client/features/sync');
    const { act } = await import('@testing-library/react');
    const { store } = renderApp({ hash: '#/about' });
    await screen.findByRole('heading', { level: 1, name: sl.screens.about.title });
    // Unknown reachability follows the browser flag: no "offline" flash before the first probe.
    expect(screen.getByTestId('conn-status').textContent).toContain(sl.header.online);
    act(() => {
      store.dispatch(browserOnlineChanged(false));
      store.dispatch(outboxSummaryLoaded({ pendingCount: 4, attention: [] }));
    });
    const status = screen.getByTestId('conn-status');
    expect(status.textContent).toContain(sl.header.offline);
    expect(status.textContent).toContain('4 spremembe čakajo na pošiljanje');
    cleanup();
    setHash('#/');
  });
});

describe('the layout hangs the sync panel and the sign-in state on the frame', () => {
  it('the connection indicator opens the sync panel in a dialog; Escape closes it', async () => {
    const { renderApp, setHash } = await import('./render-app');
    const { slSync } = await import('../../src/common/i18n/sl');
    renderApp({ hash: '#/' });
    await screen.findByRole('heading', { level: 1, name: sl.screens.home.title });
    fireEvent.click(screen.getByTestId('conn-status'));
    const dialog = screen.getByRole('dialog', { name: slSync.sync.panelTitle });
    // The panel's code loads when it first opens.
    await waitFor(() => expect(dialog.querySelector('[data-testid="sync-pending"]')?.textContent).toBe(slSync.sync.allSent));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();
    setHash('#/');
  });

  it('About shows who is signed in and offers sign-out', async () => {
    const { renderApp, setHash } = await import('./render-app');
    const { identityRestored } = await import('../../src/client/features/auth/auth-slice');
    const { slAuth } = await import('../../src/common/i18n/sl');
    const { act } = await import('@testing-library/react');
    const { appRoutes } = await import('../../src/client/app/app');
    // The real About screen (the shell's own), not a stub.
    const { store } = renderApp({ hash: '#/about', routes: appRoutes });
    await screen.findByRole('heading', { level: 1, name: sl.screens.about.title });
    expect(screen.queryByTestId('signed-in-user')).toBeNull();
    act(() => {
      store.dispatch(identityRestored({ user: { sub: 'k1', email: 'kmet1@example.si' }, token: null }));
    });
    // The screen subscribes to the store in an effect, after its first frame.
    expect((await screen.findByTestId('signed-in-user')).textContent).toBe('kmet1@example.si');
    // With edits still waiting, sign-out stops and the layout's dialog asks what to do.
    const { outboxSummaryLoaded } = await import('../../src/client/features/sync/sync-slice');
    act(() => {
      store.dispatch(outboxSummaryLoaded({ pendingCount: 2, attention: [] }));
    });
    fireEvent.click(screen.getByRole('button', { name: slAuth.session.signOut }));
    expect(await screen.findByRole('alertdialog', { name: slAuth.session.pendingTitle })).toBeTruthy();
    cleanup();
    setHash('#/');
  });
});
