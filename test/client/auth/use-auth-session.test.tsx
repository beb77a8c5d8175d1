/** StrictMode runs effects twice in development: the app must still get exactly one session. */
import { expect, test } from '@jest/globals';
import type { UnknownAction } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import type { AppConfig } from '../../../src/common/schemas/config';
import { makeStore } from '../../../src/client/app/store';
import { getActiveSession } from '../../../src/client/features/auth/auth-session';
import { useAuthSession } from '../../../src/client/features/auth/use-auth-session';

function Starter() {
  useAuthSession();
  return null;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test('one session per store under StrictMode; stopped after the app unmounts', async () => {
  const base = makeStore().getState();
  // AUTH=none: starting a session dispatches auth/authenticated once, with no network.
  const store = makeStore({ ...base, config: { ...base.config, status: 'ready', value: { projectId: 1, auth: { mode: 'none' } } as unknown as AppConfig } });
  const starts: string[] = [];
  const dispatch = store.dispatch;
  store.dispatch = ((action: UnknownAction) => {
    if (action.type === 'auth/authenticated') starts.push(action.type);
    return dispatch(action);
  }) as typeof store.dispatch;

  const view = render(
    <StrictMode>
      <Provider store={store}>
        <Starter />
      </Provider>
    </StrictMode>,
  );
  await tick();
  expect(starts).toHaveLength(1);
  expect(getActiveSession()?.mode).toBe('none');

  view.unmount();
  await tick();
  expect(getActiveSession()).toBeNull();
});
