/** The app's sign-in session follows the config: one session per store, in the mode it names. */
import { expect, test } from '@jest/globals';
import type { UnknownAction } from '@reduxjs/toolkit';
import type { AppConfig } from '../../../src/common/schemas/config';
import { makeStore } from '../../../src/client/app/store';
import { configLoaded } from '../../../src/client/lib/config/config-slice';
import { getActiveSession } from '../../../src/client/features/auth/auth-session';
import { runAuthSession } from '../../../src/client/features/auth/run-auth-session';

const configIn = (mode: 'none' | 'basic') => ({ projectId: 1, auth: { mode } }) as unknown as AppConfig;

test('starts once the config is known, once however often the store changes, again when the mode changes; stops', () => {
  const store = makeStore();
  const starts: string[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: UnknownAction) => {
    // AUTH=none: starting a session dispatches auth/authenticated once, with no network.
    if (action.type === 'auth/authenticated') starts.push(action.type);
    return dispatch(action);
  }) as typeof store.dispatch;

  const stop = runAuthSession(store);
  expect(getActiveSession()).toBeNull(); // the config is still loading

  store.dispatch(configLoaded({ config: configIn('none'), source: 'last-good' }));
  store.dispatch(configLoaded({ config: configIn('none'), source: 'network' }));
  expect(starts).toHaveLength(1);
  expect(getActiveSession()?.mode).toBe('none');

  store.dispatch(configLoaded({ config: configIn('basic'), source: 'network' }));
  expect(getActiveSession()?.mode).toBe('basic');

  stop();
  expect(getActiveSession()).toBeNull();
});
