/**
 * A farmer signs in through the real login page in headless Chromium, with keycloak-js doing the
 * code + PKCE flow exactly as the app does (configured from /keycloak.json, login-required, S256).
 * Then the roles call answers for that farmer, and a token refresh happens: the access tokens of
 * this server live 20 s, inside the 30 s refresh margin, so updateToken(TOKEN_REFRESH_MARGIN_S)
 * must go to the token endpoint with the refresh grant — observed on the wire, not timed.
 *
 * The page is a tiny test page served by the harness with keycloak-js straight from node_modules
 * (it has no imports), so this test proves the identity layer on its own; the app's own screens
 * are covered by the field-day scenarios.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, jest, test } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { Request } from 'playwright-core';
import { TOKEN_REFRESH_MARGIN_S } from '../../src/common/constants';
import { registerKeycloakJson } from '../../src/server/routes/site/keycloak-json';
import { describeApp } from './fixture';
import { DEMO_USERS, ROOT, apiAs, recordArtifacts, signInThroughLoginPage } from './harness';

jest.setTimeout(90_000);

const TEST_PAGE = '/__e2e__/sign-in.html';
// The page's script is a file of its own: the server's Content-Security-Policy runs no inline script.
const TEST_SCRIPT = '/__e2e__/sign-in.js';
const testPageHtml = `<!DOCTYPE html>
<html lang="sl"><head><meta charset="utf-8"><title>e2e sign-in</title></head>
<body><p id="status">Nalagam...</p>
<script type="module" src="${TEST_SCRIPT}"></script></body></html>`;
const testScript = `
  import Keycloak from '/__e2e__/keycloak.js';
  const keycloak = new Keycloak('/keycloak.json');
  window.keycloak = keycloak;
  try {
    const authenticated = await keycloak.init({
      onLoad: 'login-required',
      pkceMethod: 'S256',
      checkLoginIframe: false,
      responseMode: 'query',
      scope: 'openid profile email',
      redirectUri: location.origin + location.pathname,
    });
    document.getElementById('status').textContent = authenticated ? 'prijavljen ' + keycloak.tokenParsed.email : 'ni prijave';
  } catch (error) {
    document.getElementById('status').textContent = 'napaka ' + error;
  }
`;

const server = {
  accessTokenTtl: 20,
  extraRoutes: (app: FastifyInstance) => {
    const keycloakJs = readFileSync(path.join(ROOT, 'node_modules/keycloak-js/lib/keycloak.js'));
    app.get('/__e2e__/keycloak.js', (_request, reply) => reply.type('text/javascript').send(keycloakJs));
    app.get(TEST_PAGE, (_request, reply) => reply.type('text/html').send(testPageHtml));
    app.get(TEST_SCRIPT, (_request, reply) => reply.type('text/javascript').send(testScript));
    // buildApp serves /keycloak.json once the site routes are wired; until then, the same module.
    if (!app.hasRoute({ method: 'GET', url: '/keycloak.json' })) registerKeycloakJson(app, {});
  },
};

// Its own test page: the built app is not needed.
describeApp('sign-in through the login page (Chromium)', { builtApp: false, server }, (e2e) => {
  test('a farmer signs in, the roles call answers, the token is refreshed', async () => {
    const { server } = e2e;
    const { page, log, close } = await e2e.device();
    try {
      await recordArtifacts('sign-in-farmer', page, log, async () => {
        const tokenRequests: Array<{ grant: string | null }> = [];
        page.on('request', (request: Request) => {
          if (request.url().endsWith('/protocol/openid-connect/token') && request.method() === 'POST') {
            tokenRequests.push({ grant: new URLSearchParams(request.postData() ?? '').get('grant_type') });
          }
        });

        await page.goto(`${server.origin}${TEST_PAGE}`);
        // keycloak-js sends us to the provider's Slovenian login page…
        await page.waitForURL(/\/login-actions\//);
        expect(await page.locator('html').getAttribute('lang')).toBe('sl');
        // Phone-first: on a 360 px screen nothing scrolls sideways and the controls are at least
        // 48 px tall (one-handed use outdoors).
        await page.setViewportSize({ width: 360, height: 640 });
        const layout = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          heights: [...document.querySelectorAll('input, button')].map((el) => el.getBoundingClientRect().height),
          external: [...document.querySelectorAll('link[href], script[src], img[src]')].length,
        }));
        expect(layout.scrollWidth).toBeLessThanOrEqual(360);
        expect(Math.min(...layout.heights)).toBeGreaterThanOrEqual(48);
        expect(layout.external).toBe(0);
        // …a wrong password first: the Slovenian error, still on the login page.
        await page.getByLabel('E-pošta ali uporabniško ime', { exact: true }).fill(DEMO_USERS.farmer1.email);
        await page.getByLabel('Geslo', { exact: true }).fill('napacno');
        await page.getByRole('button', { name: 'Prijava' }).click();
        await page.getByRole('alert').waitFor();
        expect(await page.getByRole('alert').textContent()).toBe('Napačen e-poštni naslov, uporabniško ime ali geslo.');

        await signInThroughLoginPage(page, DEMO_USERS.farmer1);
        await page.locator('#status', { hasText: 'prijavljen' }).waitFor();
        expect(await page.locator('#status').textContent()).toBe(`prijavljen ${DEMO_USERS.farmer1.email}`);
        expect(tokenRequests.map((r) => r.grant)).toEqual(['authorization_code']);
        // The code never stays in the address bar.
        expect(new URL(page.url()).search).toBe('');

        const roles = await page.evaluate(async () => {
          const kc = (window as unknown as { keycloak: { token: string } }).keycloak;
          const response = await fetch('/api/PublicApp/1/roles', { headers: { authorization: `Bearer ${kc.token}` } });
          return { status: response.status, body: (await response.json()) as unknown };
        });
        expect(roles).toEqual({ status: 200, body: { roles: [], editor: false, reader: false } });

        const firstToken = await page.evaluate(() => (window as unknown as { keycloak: { token: string } }).keycloak.token);
        const refreshed = await page.evaluate(
          async (margin) => (window as unknown as { keycloak: { updateToken(s: number): Promise<boolean> } }).keycloak.updateToken(margin),
          TOKEN_REFRESH_MARGIN_S,
        );
        expect(refreshed).toBe(true);
        expect(tokenRequests.map((r) => r.grant)).toEqual(['authorization_code', 'refresh_token']);
        const after = await page.evaluate(async () => {
          const kc = (window as unknown as { keycloak: { token: string } }).keycloak;
          const response = await fetch('/api/PublicApp/1/roles', { headers: { authorization: `Bearer ${kc.token}` } });
          return { token: kc.token, status: response.status };
        });
        expect(after.token).not.toBe(firstToken);
        expect(after.status).toBe(200);
      });
    } finally {
      await close();
    }
  });

  test('the API refuses a call without a token; the harness helper signs in over HTTP for checks', async () => {
    const { server } = e2e;
    const response = await fetch(`${server.origin}/api/PublicApp/1/roles`);
    expect(response.status).toBe(401);
    expect(await apiAs(server, DEMO_USERS.editor, '/api/PublicApp/1/roles')).toEqual({ status: 200, body: { roles: ['editor'], editor: true, reader: false } });
  });
});
