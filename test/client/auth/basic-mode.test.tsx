/**
 * AUTH=basic and AUTH=none on the client: the sign-in form checks credentials with the server
 * (stub fetch standing in for it) and shows the Slovenian error; accepted credentials go on
 * every request as Basic; none mode sends nothing and needs no sign-in.
 */
import { TextEncoder } from 'node:util';
import { afterEach, beforeEach, describe, expect, jest, test } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { slAuth } from '../../../src/common/i18n/sl';
import type { AppConfig } from '../../../src/common/schemas/config';
import { makeStore } from '../../../src/client/app/store';
import { getCredentialsProvider } from '../../../src/client/lib/api/credentials';
import { startAuthSession } from '../../../src/client/features/auth/auth-session';
import { SignInBanner } from '../../../src/client/features/auth/components/sign-in-banner';

// jsdom has no TextEncoder; browsers do (the Basic header encodes UTF-8 with it).
globalThis.TextEncoder ??= TextEncoder as typeof globalThis.TextEncoder;

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
});
beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

function storeWithMode(mode: 'basic' | 'none') {
  const base = makeStore().getState();
  const config = { projectId: 1, auth: { mode } } as unknown as AppConfig;
  return makeStore({ ...base, config: { ...base.config, status: 'ready', value: config } });
}

describe('AUTH=basic', () => {
  test('wrong password → Slovenian error; right one → Basic credentials on every call', async () => {
    const calls: string[] = [];
    globalThis.fetch = jest.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const header = new Headers(init?.headers).get('authorization') ?? '';
      calls.push(header);
      const ok = header === `Basic ${btoa('urednik@example.si:demo')}`;
      return { ok, status: ok ? 200 : 401, json: async () => ({}) } as Response;
    }) as typeof fetch;

    const store = storeWithMode('basic');
    stop = startAuthSession({ mode: 'basic', dispatch: store.dispatch, getState: store.getState });
    expect(store.getState().auth.status).toBe('needs-sign-in');
    expect(await getCredentialsProvider()()).toBeNull();

    render(
      <Provider store={store}>
        <SignInBanner reachable />
      </Provider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(slAuth.login.loginLabel), 'urednik@example.si');
    await user.type(screen.getByLabelText(slAuth.login.passwordLabel), 'napacno');
    await user.click(screen.getByRole('button', { name: slAuth.login.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(slAuth.login.invalidCredentials);
    expect(store.getState().auth.status).toBe('needs-sign-in');

    await user.clear(screen.getByLabelText(slAuth.login.passwordLabel));
    await user.type(screen.getByLabelText(slAuth.login.passwordLabel), 'demo');
    await act(async () => {
      await user.click(screen.getByRole('button', { name: slAuth.login.submit }));
    });
    expect(store.getState().auth).toMatchObject({ status: 'authenticated', user: { email: 'urednik@example.si' }, token: null });
    expect(await getCredentialsProvider()()).toEqual({ kind: 'basic', username: 'urednik@example.si', password: 'demo' });
    // The password stays in this tab only; the device remembers who it was.
    expect(window.localStorage.getItem('basicCredentials')).toBeNull();
    expect(window.sessionStorage.getItem('basicCredentials')).not.toBeNull();
    expect(JSON.parse(window.localStorage.getItem('user')!)).toMatchObject({ email: 'urednik@example.si' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('AUTH=none', () => {
  test('no sign-in and no credentials', async () => {
    const store = storeWithMode('none');
    stop = startAuthSession({ mode: 'none', dispatch: store.dispatch, getState: store.getState });
    expect(store.getState().auth.status).toBe('authenticated');
    expect(await getCredentialsProvider()()).toBeNull();
  });
});
