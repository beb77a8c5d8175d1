/**
 * The built app (dist/, the webpack build) signs a farmer in the way a farmer meets it: open the
 * app → keycloak-js sends the browser to the Slovenian login page (login-required) → back in the
 * app with `user` and `token` stored on the device → API calls carry the bearer token → the token
 * is refreshed before it expires (35 s access tokens: refresh at 30 s margin = after ~5 s,
 * observed on the wire). Then offline: a reload opens the app with the stored identity and
 * nothing redirects to the login page.
 * Skipped with a message when dist/ has not been built (npm run build); under CI that fails instead.
 */
import { expect, jest, test } from '@jest/globals';
import { slScreens } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { DEMO_USERS, LOGIN_PAGE_PATTERN, recordArtifacts, signInThroughLoginPage } from './harness';

jest.setTimeout(120_000);

describeApp('the built app: sign-in, bearer calls, refresh, offline reopen (Chromium)', { server: { accessTokenTtl: 35 } }, (e2e) => {
  test('a farmer opens the app, signs in, works online, reopens it offline', async () => {
    const { server } = e2e;
    const { context, page, log, close } = await e2e.device();
    try {
      await recordArtifacts('app-sign-in-farmer', page, log, async () => {
        const grants: string[] = [];
        const apiAuth: Array<{ url: string; bearer: boolean }> = [];
        // The first refresh grant on the wire, and the access token the sign-in (code grant) got.
        let refreshSent!: () => void;
        const refreshed = new Promise<void>((resolve) => (refreshSent = resolve));
        let signInToken!: (token: string) => void;
        const signedInWith = new Promise<string>((resolve) => (signInToken = resolve));
        page.on('response', (response) => {
          const request = response.request();
          if (request.url().endsWith('/protocol/openid-connect/token') && (request.postData() ?? '').includes('grant_type=authorization_code')) {
            void response.json().then((body: { access_token: string }) => signInToken(body.access_token));
          }
        });
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname.endsWith('/protocol/openid-connect/token') && request.method() === 'POST') {
            const grant = new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '';
            grants.push(grant);
            if (grant === 'refresh_token') refreshSent();
          }
          if (url.pathname.startsWith('/api/') && url.pathname !== '/api/Test') {
            apiAuth.push({ url: url.pathname, bearer: /^Bearer .+/.test(request.headers().authorization ?? '') });
          }
        });

        await page.goto(`${server.origin}/`);
        await signInThroughLoginPage(page, DEMO_USERS.farmer1);
        await page.waitForFunction(() => window.localStorage.getItem('token') !== null);
        const user = await page.evaluate(() => JSON.parse(window.localStorage.getItem('user') ?? 'null') as { email: string } | null);
        expect(user?.email).toBe(DEMO_USERS.farmer1.email);
        // One code grant, then nothing but refreshes: a 35 s token is renewed about 5 s after the
        // sign-in, which a loaded machine may reach before this line.
        expect(grants[0]).toBe('authorization_code');
        expect(grants.slice(1)).toEqual(grants.slice(1).map(() => 'refresh_token'));
        expect(new URL(page.url()).searchParams.has('code')).toBe(false);

        // The stored token is what the API accepts for this farmer.
        const roles = await page.evaluate(async () => {
          const response = await fetch('/api/PublicApp/1/roles', { headers: { authorization: `Bearer ${window.localStorage.getItem('token')}` } });
          return { status: response.status, body: (await response.json()) as unknown };
        });
        expect(roles).toEqual({ status: 200, body: { roles: [], editor: false, reader: false } });

        // The session keeps itself alive: a refresh grant goes out, and the stored token is no
        // longer the one the sign-in got.
        const firstToken = await signedInWith;
        await refreshed;
        await page.waitForFunction((previous) => window.localStorage.getItem('token') !== previous, firstToken);
        // Whatever the app itself asked of the API carried the token.
        expect(apiAuth.filter((call) => !call.bearer)).toEqual([]);

        // Offline: the app reopens from the service worker with the stored identity, and
        // nothing sends the browser to the login page.
        const swReady = await page.evaluate(async () => {
          if (!('serviceWorker' in navigator)) return false;
          await navigator.serviceWorker.ready;
          return true;
        });
        expect(swReady).toBe(true);
        const loginAttempts: string[] = [];
        page.on('request', (request) => {
          if (/\/protocol\/openid-connect\/auth|\/login-actions\//.test(request.url())) loginAttempts.push(request.url());
        });
        await context.setOffline(true);
        await page.reload({ waitUntil: 'domcontentloaded' });
        await page.waitForFunction(() => (document.getElementById('root')?.childElementCount ?? 0) > 0);
        expect(await page.evaluate(() => (JSON.parse(window.localStorage.getItem('user') ?? 'null') as { email?: string } | null)?.email)).toBe(
          DEMO_USERS.farmer1.email,
        );
        expect(page.url()).not.toMatch(LOGIN_PAGE_PATTERN);
        expect(loginAttempts).toEqual([]);
        await context.setOffline(false);
      });
    } finally {
      await close();
    }
  });

  test("a link opened signed out opens its screen after the sign-in; another farmer's path still says it is not theirs", async () => {
    const { server, data } = e2e;
    const nameCol = await data.col('paths', 'name');
    const [own] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const [others] = await data.pathsOf(DEMO_USERS.farmer2.email);
    for (const [path, shown] of [
      [own!, String(own!.properties[nameCol])],
      [others!, null],
    ] as const) {
      const { page, log, close } = await e2e.device();
      try {
        await recordArtifacts('app-sign-in-deep-link', page, log, async () => {
          await page.goto(`${server.origin}/#/paths/${path.id}`);
          await signInThroughLoginPage(page, DEMO_USERS.farmer1);
          await page.waitForFunction((hash) => window.location.hash === hash, `#/paths/${path.id}`);
          if (shown) await page.getByRole('heading', { name: shown }).waitFor();
          else await page.getByText(slScreens.paths.notFound).waitFor();
        });
      } finally {
        await close();
      }
    }
  });
});
