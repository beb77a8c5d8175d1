/**
 * The client shell in headless Chromium against the real server (the built client):
 * - every route of the route table renders its screen (and the not-found screen), at phone and desktop
 *   size; screenshots go to test-results/e2e/shell/ (outside the repo) to be looked at;
 * - a farmer's load without the service worker (a first visit's) takes the season from the early
 *   reads and their worker, asking no search twice, though the sign-in session renews the token;
 * - after one visit the app reloads with the server gone, from the service worker's precache,
 *   lazy screens included;
 * - deploying a changed build makes the waiting worker show the required 'Obvestilo' dialog, and
 *   accepting reloads the page onto the new build.
 * The routes and the reader's guard use the file's server; the offline test (which stops its
 * server) and the deployment test (which changes the served files) each get a server of their own
 * with its own copy of dist/.
 */
import path from 'node:path';
import { expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { sl, slSync } from '../../src/common/i18n/sl';
import type { RouteName } from '../../src/client/lib/links';
import { routeDefinitions } from '../../src/client/app/router/routes';
import { describeApp } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, recordArtifacts, keepScreenshot } from './harness';
import { addMeadowForm, deployChangedBuild, goHash, homePathRows, waitForOutboxEmpty, waitForServiceWorkerControl } from './scenarios/helpers';

jest.setTimeout(180_000);

const SHOTS = path.join(ARTIFACTS_DIR, 'shell');

/** Route → the screen's document title, from the route table (screen contents are tested in screens.test.ts). */
function titleOf(name: RouteName): string {
  const title = routeDefinitions.find((def) => def.name === name)!.title;
  return title === sl.common.appName ? title : `${title} – ${sl.common.appName}`;
}

/** Waits until the route's screen is shown: its title is set and its heading has rendered. */
async function waitForScreen(page: Page, name: RouteName): Promise<void> {
  await page.waitForFunction((title) => document.title === title, titleOf(name));
  await page.locator('main h1').first().waitFor();
  expect(await page.getByRole('heading', { level: 1, name: sl.router.notFoundTitle }).count()).toBe(0);
}

const ROUTES: Array<[string, RouteName | 'not-found']> = [
  ['/', 'home'],
  ['/about', 'about'],
  ['/results', 'results'],
  ['/paths', 'paths'],
  ['/paths/12', 'path'],
  ['/forms', 'forms'],
  ['/forms/3', 'form'],
  ['/download', 'download'],
  ['/download/new', 'download-new'],
  ['/ni-take-strani', 'not-found'],
];

describeApp('client shell in Chromium', {}, (e2e) => {
  test.each([
    ['phone', 390, 844],
    ['desktop', 1280, 800],
  ])('every route renders its screen (%s %i×%i)', async (tag, width, height) => {
    // The editor's device is shared by both sizes (a new page each).
    const { page, log, close } = await e2e.signedIn('editor', { shared: true, viewport: { width, height } });
    try {
      await recordArtifacts(`shell-routes-${tag}`, page, log, async () => {
        for (const [route, name] of ROUTES) {
          await page.evaluate((hash) => {
            window.location.hash = hash;
          }, `#${route}`);
          if (name === 'not-found') await page.getByRole('heading', { level: 1, name: sl.router.notFoundTitle }).waitFor();
          else await waitForScreen(page, name);
          await keepScreenshot(page, path.join(SHOTS, `${tag}${route.replace(/\//g, '_')}.png`));
        }
        // The header's connection indicator opens the sync panel.
        await page.getByTestId('conn-status').click();
        const panel = page.getByRole('dialog', { name: slSync.sync.panelTitle });
        await panel.waitFor();
        await keepScreenshot(page, path.join(SHOTS, `${tag}_sync-panel.png`));
        await page.keyboard.press('Escape');
        await panel.waitFor({ state: 'detached' });
        expect(await page.getAttribute('html', 'lang')).toBe('sl');
      });
    } finally {
      await close();
    }
  });

  test('a reader signed in for real is blocked from an edit screen with a Slovenian message, and may view', async () => {
    const { page, log, close } = await e2e.signedIn('reader', { hash: '#/about' });
    try {
      await recordArtifacts('shell-reader-guard', page, log, async () => {
        await page.evaluate(() => {
          window.location.hash = '#/forms/new';
        });
        // The roles call answers after sign-in; the guard applies as soon as the role is known.
        await page.getByText(sl.router.blockedReader).waitFor();
        await keepScreenshot(page, path.join(SHOTS, 'reader-blocked.png'));
        await page.evaluate(() => {
          window.location.hash = '#/forms/3';
        });
        await waitForScreen(page, 'form');
        expect(await page.getByText(sl.router.blockedReader).count()).toBe(0);
      });
    } finally {
      await close();
    }
  });

  test('a farmer’s load without the service worker takes the season from the early reads, their worker’s included: no search is asked twice', async () => {
    // Without the service worker every load is a first visit's: the early reads run (the forms and
    // what is under them from their worker) while the sign-in session renews the token.
    const { page, log, close } = await e2e.signedIn('farmer1', { serviceWorkers: 'block' });
    try {
      await recordArtifacts('shell-early-reads', page, log, async () => {
        // A form in the season, so that the reads go down to the indicators.
        const [path] = await e2e.data.pathsOf(DEMO_USERS.farmer1.email);
        await addMeadowForm(page, path!.id);
        await waitForOutboxEmpty(page);
        await goHash(page, '#/');
        // Away from the page before listening: saving the form reloads the season, and a search of
        // that load still in flight when the page reloaded was counted here (aborted by the
        // reload) beside the new page's own.
        const home = page.url();
        await page.goto('about:blank');
        const indicatorsTable = `"tableId":${await e2e.data.tableId('indicators')}`;
        const searches: string[] = [];
        const workers: string[] = [];
        // The worker's requests are the page's too, for Playwright: a search the chain asks again shows twice.
        page.context().on('request', (request) => {
          if (request.method() === 'POST' && request.url().includes('/search')) searches.push(request.postData() ?? '');
        });
        // Each search's answer in the artifacts' console log: a search asked twice shows whether
        // the first answer was refused (an expired token) or a second load asked again.
        page.context().on('requestfinished', (request) => {
          if (request.method() !== 'POST' || !request.url().includes('/search')) return;
          void request.response().then((response) => log.lines.push(`[search ${response?.status() ?? '–'}] ${request.postData() ?? ''}`));
        });
        page.on('worker', (worker) => workers.push(worker.url()));
        await page.goto(home);
        await homePathRows(page).first().waitFor();
        await page.waitForLoadState('networkidle');
        expect(workers.some((url) => url.includes('/early-reads.'))).toBe(true);
        expect(searches.filter((body) => body.includes(indicatorsTable))).toHaveLength(1);
        expect(new Set(searches).size).toBe(searches.length);
      });
    } finally {
      await close();
    }
  });

  test('after one visit the app reloads offline from the service worker, lazy screens included', async () => {
    const server = await e2e.startServer();
    const { page, log, close } = await e2e.signedIn('editor', { server });
    try {
      await recordArtifacts('shell-offline', page, log, async () => {
        await waitForServiceWorkerControl(page);
        await server.close(); // the server is gone: nothing answers any more
        await page.reload();
        await waitForScreen(page, 'home');
        // A screen never opened before comes from the precache too.
        await page.evaluate(() => {
          window.location.hash = '#/results';
        });
        await waitForScreen(page, 'results');
        expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
      });
    } finally {
      await close();
    }
  });

  test("a new deployment shows the required 'Obvestilo' dialog and accepting reloads onto it", async () => {
    const server = await e2e.startServer({ copyClient: true });
    const { clientDir } = server;
    const { page, log, close } = await e2e.signedIn('editor', { server, hash: '#/about' });
    try {
      await recordArtifacts('shell-update', page, log, async () => {
        await waitForServiceWorkerControl(page);

        await deployChangedBuild(page, clientDir, 2);
        const dialog = page.getByRole('alertdialog', { name: sl.update.title });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(sl.update.message);
        // Required mode: no close button, Escape does not close it.
        expect(await dialog.getByRole('button', { name: sl.common.close }).count()).toBe(0);
        await page.keyboard.press('Escape');
        expect(await dialog.isVisible()).toBe(true);
        await keepScreenshot(page, path.join(SHOTS, 'update-dialog.png'));

        await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: sl.update.accept }).click()]);
        await page.waitForSelector('main h1');
        expect(await page.locator('meta[name="e2e-build"]').count()).toBe(1);
        expect(await page.getByRole('alertdialog').count()).toBe(0);
      });
    } finally {
      await close();
    }
  });
});
