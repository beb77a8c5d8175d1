/**
 * A record has one id on every screen, in Chromium against the real server (the built client): a
 * farmer on a phone draws a new path on a meadow ("Nova pot", three taps, "Končaj risanje",
 * "Shrani") online, and another one offline. The path screen opens under the device's offline id;
 * once the outbox delivered the path the address names the server id (replaced, not a new history
 * entry), the screen still shows the path, and so it does after a reload. An old offline-id
 * address (a bookmark, a link in the notification area) opens the delivered path.
 */
import { afterAll, beforeAll, expect, jest, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { LOCAL_ID_BOUND } from '../../../src/common/constants';
import { sl, slScreens, slSetup } from '../../../src/common/i18n/sl';
import { DEMO_USERS, launchBrowser, recordArtifacts, startServer, type E2EServer } from '../harness';
import { PHONE_SIZE, ServerData, describeBuiltApp, goHash, newFieldPage, openApp, waitForOutboxEmpty, waitForServiceWorkerControl } from './helpers';

jest.setTimeout(300_000);

/** The pixel at (dx, dy) CSS pixels from the centre of the visible map canvas. */
async function mapPoint(page: Page, dx: number, dy: number): Promise<{ x: number; y: number }> {
  await page.locator('canvas.maplibregl-canvas').scrollIntoViewIfNeeded();
  const box = (await page.locator('canvas.maplibregl-canvas').boundingBox())!;
  return { x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy };
}

/** Every address a hashchange showed (the app's own navigations), read back with `hashesSeen`. */
async function recordHashChanges(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { hashesSeen: string[] }).hashesSeen = seen;
    window.addEventListener('hashchange', () => seen.push(window.location.hash));
  });
}

const hashesSeen = (page: Page) => page.evaluate(() => (window as unknown as { hashesSeen: string[] }).hashesSeen);

/** The path's id in the address, once it names a path. */
async function pathIdInAddress(page: Page): Promise<number> {
  await page.waitForFunction(() => /^#\/paths\/\d+$/.test(window.location.hash));
  return Number(await page.evaluate(() => window.location.hash.slice('#/paths/'.length)));
}

/** Waits until the address names a server id, and returns it. */
async function serverIdInAddress(page: Page): Promise<number> {
  await page.waitForFunction((bound) => /^#\/paths\/\d+$/.test(window.location.hash) && Number(window.location.hash.slice('#/paths/'.length)) >= bound, LOCAL_ID_BOUND);
  return pathIdInAddress(page);
}

/** From a meadow's card on the home screen: "Nova pot", three taps on the map, "Končaj risanje", "Shrani". */
async function drawNewPath(page: Page, areaId: number, name: string, beforeSave: () => Promise<void> = async () => undefined): Promise<void> {
  await page.getByTestId(`area-${areaId}`).getByRole('link', { name: slSetup.paths.add }).click();
  await page.getByRole('heading', { name: slSetup.paths.newForFarmer }).waitFor();
  await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor();
  await page.locator('input[name="name"]').fill(name);
  await page.locator('[data-drawing="line"]').waitFor();
  for (const [dx, dy] of [[-20, 8], [0, -8], [20, 4]] as const) {
    const point = await mapPoint(page, dx, dy);
    await page.mouse.click(point.x, point.y);
  }
  await page.getByRole('button', { name: slSetup.common.finishDrawing }).click();
  await beforeSave();
  await recordHashChanges(page);
  await page.getByRole('button', { name: sl.common.save }).click();
}

/** The path screen shows the path `name`, not "Te poti ni med vašimi potmi.". */
async function expectPathShown(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name }).waitFor();
  expect(await page.getByText(slScreens.paths.notFound).count()).toBe(0);
}

describeBuiltApp('a record has one id on every screen (Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let data: ServerData;
  let areaId: number;

  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startServer();
    data = new ServerData(server);
    const [first] = await data.pathsOf(DEMO_USERS.farmer1.email);
    areaId = first!.properties[await data.col('paths', 'parent')] as number;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The one path named `name` on the server. */
  async function serverPath(name: string): Promise<number> {
    const nameCol = await data.col('paths', 'name');
    const found = (await data.rows('paths')).filter((p) => p.properties[nameCol] === name);
    expect(found).toHaveLength(1);
    return found[0]!.id;
  }

  test('a path drawn online stays on screen across its delivery and a reload; the address names the server id; the old offline-id address opens it', async () => {
    const name = 'Narisana s signalom';
    const { context, page, log } = await newFieldPage(browser, { longitude: 14.5, latitude: 46.05 });
    await page.setViewportSize(PHONE_SIZE);
    try {
      await recordArtifacts('record-identity-online', page, log, async () => {
        await openApp(page, server, '#/', DEMO_USERS.farmer1);
        await drawNewPath(page, areaId, name);
        // The screen opened under the id the device gave the path.
        await page.waitForFunction(() => (window as unknown as { hashesSeen: string[] }).hashesSeen.some((h) => /^#\/paths\/\d+$/.test(h)));
        const opened = Number((await hashesSeen(page)).find((h) => /^#\/paths\/\d+$/.test(h))!.slice('#/paths/'.length));
        expect(opened).toBeLessThan(LOCAL_ID_BOUND);
        await waitForOutboxEmpty(page);
        const serverId = await serverIdInAddress(page);
        expect(serverId).toBe(await serverPath(name));
        await expectPathShown(page, name);
        // Replaced, not pushed: no hashchange after the one that opened the screen.
        expect((await hashesSeen(page)).filter((h) => h.startsWith('#/paths/'))).toEqual([`#/paths/${opened}`]);

        await page.reload();
        await expectPathShown(page, name);
        expect(await pathIdInAddress(page)).toBe(serverId);

        // An old link to the offline id (a bookmark, a notification) opens the delivered path.
        await goHash(page, '#/');
        await page.getByTestId(`area-${areaId}`).waitFor();
        await goHash(page, `#/paths/${opened}`);
        expect(await serverIdInAddress(page)).toBe(serverId);
        await expectPathShown(page, name);
      });
    } finally {
      await context.close();
    }
  });

  test('a path drawn offline stays on screen when the phone is back online and the outbox delivers it, and after a reload', async () => {
    const name = 'Narisana brez signala';
    const { context, page, log } = await newFieldPage(browser, { longitude: 14.5, latitude: 46.05 });
    await page.setViewportSize(PHONE_SIZE);
    try {
      await recordArtifacts('record-identity-offline', page, log, async () => {
        await openApp(page, server, '#/', DEMO_USERS.farmer1);
        // The installed app (service worker in control) is what a farmer takes to the field.
        await waitForServiceWorkerControl(page);
        await drawNewPath(page, areaId, name, () => context.setOffline(true));
        const offlineId = await pathIdInAddress(page);
        expect(offlineId).toBeLessThan(LOCAL_ID_BOUND);
        await expectPathShown(page, name);

        await context.setOffline(false);
        await waitForOutboxEmpty(page);
        const serverId = await serverIdInAddress(page);
        expect(serverId).toBe(await serverPath(name));
        await expectPathShown(page, name);

        await page.reload();
        await expectPathShown(page, name);
        expect(await pathIdInAddress(page)).toBe(serverId);
      });
    } finally {
      await context.close();
    }
  });
});
