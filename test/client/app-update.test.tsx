import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { sl } from '../../src/common/i18n/sl';
import { createAppUpdater, type WorkboxLike } from '../../src/client/features/app-update/app-updater';
import { renderApp, setHash } from './render-app';

afterEach(() => {
  cleanup();
  setHash('#/');
});

/** A stand-in for workbox-window's Workbox: records listeners and calls, fires events on demand. */
function fakeWorkbox() {
  const listeners = new Map<string, Array<(event: unknown) => void>>();
  const calls: string[] = [];
  const wb = {
    addEventListener(type: string, listener: (event: unknown) => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    },
    async register() {
      calls.push('register');
      return undefined;
    },
    messageSkipWaiting() {
      calls.push('SKIP_WAITING');
    },
    async update() {
      calls.push('update');
    },
  };
  const emit = (type: string) => (listeners.get(type) ?? []).forEach((listener) => listener({ type }));
  return { workbox: wb as unknown as WorkboxLike, emit, calls };
}

describe('app update flow', () => {
  it('registers the worker; a waiting worker sets updateReady and shows the required Obvestilo dialog; accepting skips waiting and reloads on controllerchange', async () => {
    const fake = fakeWorkbox();
    const reload = jest.fn();
    // The updater needs the store's dispatch and the app needs the updater: bind late.
    const late: { updater?: ReturnType<typeof createAppUpdater> } = {};
    const { store } = renderApp({
      hash: '#/about',
      updater: {
        start: () => late.updater!.start(),
        accept: () => late.updater!.accept(),
      },
    });
    const updater = createAppUpdater({ workbox: fake.workbox, dispatch: store.dispatch, reload });
    late.updater = updater;
    await act(async () => {
      await updater.start();
    });
    expect(fake.calls).toEqual(['register']);
    expect(store.getState().appUpdate.updateReady).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();

    act(() => fake.emit('waiting'));
    expect(store.getState().appUpdate.updateReady).toBe(true);
    const dialog = await screen.findByRole('alertdialog', { name: sl.update.title });
    expect(dialog.textContent).toContain(sl.update.message);
    // Required mode: no close button, Escape does nothing.
    expect(within(dialog).queryByRole('button', { name: sl.common.close })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('alertdialog', { name: sl.update.title })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: sl.update.accept }));
    expect(fake.calls).toEqual(['register', 'SKIP_WAITING']);
    expect(store.getState().appUpdate.accepted).toBe(true);
    expect(reload).not.toHaveBeenCalled(); // not before the new worker controls the page

    act(() => fake.emit('controlling'));
    act(() => fake.emit('controlling'));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('checks for a new version when the app comes back to the front', async () => {
    const fake = fakeWorkbox();
    const target = new EventTarget() as EventTarget & { document: { visibilityState: DocumentVisibilityState } };
    target.document = { visibilityState: 'hidden' };
    const updater = createAppUpdater({ workbox: fake.workbox, dispatch: () => undefined, reload: () => undefined, target: target as never });
    await updater.start();
    target.dispatchEvent(new Event('visibilitychange'));
    target.document.visibilityState = 'visible';
    target.dispatchEvent(new Event('visibilitychange'));
    expect(fake.calls).toEqual(['register', 'update']);
  });
});
