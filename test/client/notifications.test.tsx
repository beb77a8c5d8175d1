import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { NOTICE_TIMEOUT_MS } from '../../src/common/constants';
import { sl } from '../../src/common/i18n/sl';
import { makeStore } from '../../src/client/app/store';
import { NotificationArea } from '../../src/client/features/notifications/notification-area';
import { noticeDismissed, noticeShown, notificationsSlice } from '../../src/client/features/notifications/notifications-slice';

describe('notifications slice (kind, message, timeout, hasClose)', () => {
  const reduce = notificationsSlice.reducer;

  it('fills defaults per kind from NOTICE_TIMEOUT_MS: info 3 s, success 2 s, error stays and is closable', () => {
    expect(NOTICE_TIMEOUT_MS).toEqual({ info: 3000, success: 2000, error: null });
    let state = reduce(undefined, noticeShown({ message: 'a' }));
    state = reduce(state, noticeShown({ kind: 'success', message: 'b' }));
    state = reduce(state, noticeShown({ kind: 'error', message: 'c' }));
    expect(state.items.map(({ kind, timeout, hasClose }) => ({ kind, timeout, hasClose }))).toEqual([
      { kind: 'info', timeout: 3000, hasClose: false },
      { kind: 'success', timeout: 2000, hasClose: false },
      { kind: 'error', timeout: null, hasClose: true },
    ]);
  });

  it('keeps explicit timeout and hasClose; a stable id replaces instead of stacking', () => {
    let state = reduce(undefined, noticeShown({ id: 'loc', kind: 'error', message: 'prvič', timeout: null, hasClose: false }));
    state = reduce(state, noticeShown({ id: 'loc', kind: 'error', message: 'drugič', timeout: null, hasClose: false }));
    expect(state.items).toEqual([{ id: 'loc', kind: 'error', message: 'drugič', timeout: null, hasClose: false }]);
    state = reduce(state, noticeDismissed('loc'));
    expect(state.items).toEqual([]);
  });
});

describe('NotificationArea', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    jest.useRealTimers();
  });

  function setup() {
    const store = makeStore();
    render(
      <Provider store={store}>
        <NotificationArea />
      </Provider>,
    );
    return store;
  }

  it('shows several at once and removes each after its own timeout; errors stay', () => {
    const store = setup();
    act(() => {
      store.dispatch(noticeShown({ kind: 'info', message: 'Podatki so naloženi.' }));
      store.dispatch(noticeShown({ kind: 'success', message: 'Obrazec je shranjen.' }));
      store.dispatch(noticeShown({ kind: 'error', message: 'Service Unavailable' }));
    });
    expect(screen.getByText('Podatki so naloženi.')).toBeTruthy();
    expect(screen.getByText('Obrazec je shranjen.')).toBeTruthy();
    expect(screen.getByText('Service Unavailable')).toBeTruthy();

    act(() => {
      jest.advanceTimersByTime(1999);
    });
    expect(screen.queryByText('Obrazec je shranjen.')).not.toBeNull();
    act(() => {
      jest.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Obrazec je shranjen.')).toBeNull();
    expect(screen.queryByText('Podatki so naloženi.')).not.toBeNull();
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(screen.queryByText('Podatki so naloženi.')).toBeNull();
    act(() => {
      jest.advanceTimersByTime(60_000);
    });
    expect(screen.getByText('Service Unavailable')).toBeTruthy();
    expect(store.getState().notifications.items).toHaveLength(1);
  });

  it('a new notice does not restart the timers of the ones already shown', () => {
    const store = setup();
    act(() => {
      store.dispatch(noticeShown({ kind: 'info', message: 'prvo' }));
    });
    act(() => {
      jest.advanceTimersByTime(2500);
      store.dispatch(noticeShown({ kind: 'info', message: 'drugo' }));
    });
    act(() => {
      jest.advanceTimersByTime(500);
    });
    expect(screen.queryByText('prvo')).toBeNull();
    expect(screen.getByText('drugo')).toBeTruthy();
  });

  it('the close button removes a notice; without hasClose there is none', () => {
    const store = setup();
    act(() => {
      store.dispatch(noticeShown({ kind: 'error', message: 'Napaka pri pošiljanju' }));
      store.dispatch(noticeShown({ kind: 'info', message: 'brez gumba' }));
    });
    const error = screen.getByText('Napaka pri pošiljanju').closest('li')!;
    const info = screen.getByText('brez gumba').closest('li')!;
    expect(within(info).queryByRole('button')).toBeNull();
    fireEvent.click(within(error).getByRole('button', { name: sl.notifications.close }));
    expect(screen.queryByText('Napaka pri pošiljanju')).toBeNull();
  });

  it('is announced: errors in an assertive alert region, others in a polite status region', () => {
    const store = setup();
    act(() => {
      store.dispatch(noticeShown({ kind: 'error', message: 'Forbidden' }));
      store.dispatch(noticeShown({ kind: 'success', message: 'Shranjeno' }));
    });
    const alert = screen.getByRole('alert');
    expect(alert.getAttribute('aria-live')).toBe('assertive');
    expect(within(alert).getByText('Forbidden')).toBeTruthy();
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(within(status).getByText('Shranjeno')).toBeTruthy();
    expect(within(status).getByRole('img', { name: sl.notifications.success })).toBeTruthy();
  });
});
