/**
 * A record has one id on every screen, in Chromium against the real server (the built client): a
 * farmer on a phone draws a new path on a meadow ("Nova pot", three taps, "Končaj risanje",
 * "Shrani") online, and another one offline. The path screen opens under the device's offline id;
 * once the outbox delivered the path the address names the server id (replaced, not a new history
 * entry), the screen still shows the path, and so it does after a reload. An old offline-id
 * address (a bookmark, a link in the notification area) opens the delivered path. An adviser at a
 * desk makes a meadow and a transect offline on the set-up screens and opens each one's editor
 * (its address names the offline id); back online, the delivery moves the address to the server
 * id with the editor and the typed change still open, the change is saved to that one record, and
 * the old address opens the delivered record's editor.
 */
import { beforeAll, expect, jest, test } from '@jest/globals';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LOCAL_ID_BOUND } from '../../../src/common/constants';
import { sl, slScreens, slSetup } from '../../../src/common/i18n/sl';
import { describeApp, fieldDevice } from '../fixture';
import { ARTIFACTS_DIR, DEMO_USERS, recordArtifacts, keepScreenshot } from '../harness';
import { DESK_SIZE, PHONE_SIZE, goHash, waitForOutboxEmpty, waitForServiceWorkerControl } from './helpers';

jest.setTimeout(300_000);

/** What the user saw, photographed into test-results/e2e/record-identity/. */
const SHOTS = path.join(ARTIFACTS_DIR, 'record-identity');
const shoot = (page: Page, name: string) => keepScreenshot(page, path.join(SHOTS, `${name}.png`), { fullPage: true });

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
  await page.waitForFunction(
    (bound) => /^#\/paths\/\d+$/.test(window.location.hash) && Number(window.location.hash.slice('#/paths/'.length)) >= bound,
    LOCAL_ID_BOUND,
  );
  return pathIdInAddress(page);
}

/** From a meadow's card on the home screen: "Nova pot", three taps on the map, "Končaj risanje", "Shrani". */
async function drawNewPath(page: Page, areaId: number, name: string, beforeSave: () => Promise<void> = async () => undefined): Promise<void> {
  await page.getByTestId(`area-${areaId}`).getByRole('link', { name: slSetup.paths.add }).click();
  await page.getByRole('heading', { name: slSetup.paths.newForFarmer }).waitFor();
  await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor();
  await page.locator('input[name="name"]').fill(name);
  await page.locator('[data-drawing="line"]').waitFor();
  for (const [dx, dy] of [
    [-20, 8],
    [0, -8],
    [20, 4],
  ] as const) {
    const point = await mapPoint(page, dx, dy);
    await page.mouse.click(point.x, point.y);
  }
  await page.getByRole('button', { name: slSetup.common.finishDrawing }).click();
  await beforeSave();
  await recordHashChanges(page);
  await page.getByRole('button', { name: sl.common.save }).click();
}

/** The id in a set-up address ('#/setup/areas/123'), once it is a record's. */
async function setupIdInAddress(page: Page, list: string, server: boolean): Promise<number> {
  await page.waitForFunction(
    ([prefix, bound, wantServer]) => {
      const match = new RegExp(`^${prefix}/(\\d+)$`).exec(window.location.hash);
      return match !== null && Number(match[1]) >= bound === wantServer;
    },
    [list, LOCAL_ID_BOUND, server] as const,
  );
  return Number(await page.evaluate(() => window.location.hash.split('/').pop()));
}

/** Draws with taps at these offsets from the map's centre, then "Končaj risanje". */
async function drawAt(page: Page, offsets: ReadonlyArray<readonly [number, number]>): Promise<void> {
  for (const [dx, dy] of offsets) {
    const point = await mapPoint(page, dx, dy);
    await page.mouse.click(point.x, point.y);
  }
  await page.getByRole('button', { name: slSetup.common.finishDrawing }).click();
}

/** The path screen shows the path `name`, not "Te poti ni med vašimi potmi.". */
async function expectPathShown(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name }).waitFor();
  expect(await page.getByText(slScreens.paths.notFound).count()).toBe(0);
}

describeApp('a record has one id on every screen (Chromium)', {}, (e2e) => {
  let areaId: number;
  /** A farmer's phone (or, `desk`, an adviser's screen) at a meadow, signed in, on the home screen. */
  const fieldPhone = async (who: 'farmer1' | 'editor', size = PHONE_SIZE) => {
    const device = await e2e.signedIn(who, fieldDevice({ longitude: 14.5, latitude: 46.05 }));
    await device.page.setViewportSize(size);
    return device;
  };

  beforeAll(async () => {
    const [first] = await e2e.data.pathsOf(DEMO_USERS.farmer1.email);
    areaId = first!.properties[await e2e.data.col('paths', 'parent')] as number;
  });

  /** The one path named `name` on the server. */
  async function serverPath(name: string): Promise<number> {
    const { data } = e2e;
    const nameCol = await data.col('paths', 'name');
    const found = (await data.rows('paths')).filter((p) => p.properties[nameCol] === name);
    expect(found).toHaveLength(1);
    return found[0]!.id;
  }

  test('a path drawn online stays on screen across its delivery and a reload; the address names the server id; the old offline-id address opens it', async () => {
    const name = 'Narisana s signalom';
    const { page, log, close } = await fieldPhone('farmer1');
    try {
      await recordArtifacts('record-identity-online', page, log, async () => {
        await drawNewPath(page, areaId, name);
        // The screen opened under the id the device gave the path.
        await page.waitForFunction(() => (window as unknown as { hashesSeen: string[] }).hashesSeen.some((h) => /^#\/paths\/\d+$/.test(h)));
        const opened = Number((await hashesSeen(page)).find((h) => /^#\/paths\/\d+$/.test(h))!.slice('#/paths/'.length));
        expect(opened).toBeLessThan(LOCAL_ID_BOUND);
        await waitForOutboxEmpty(page);
        const serverId = await serverIdInAddress(page);
        expect(serverId).toBe(await serverPath(name));
        await expectPathShown(page, name);
        await shoot(page, 'path-delivered-phone');
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
      await close();
    }
  });

  test('a path drawn offline stays on screen when the phone is back online and the outbox delivers it, and after a reload', async () => {
    const name = 'Narisana brez signala';
    const { context, page, log, close } = await fieldPhone('farmer1');
    try {
      await recordArtifacts('record-identity-offline', page, log, async () => {
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
      await close();
    }
  });

  test('a meadow and a transect made offline by an adviser: their editors follow the delivery to the server ids, keep the typed change, save it to that record; the old address opens it', async () => {
    const { data } = e2e;
    const { context, page, log, close } = await fieldPhone('editor', DESK_SIZE);
    const meadow = { made: 'Travnik brez signala', renamed: 'Travnik brez signala (GERK popravljen)' };
    const transect = { made: 'Transekt brez signala', renamed: 'Transekt brez signala, popravljen' };
    try {
      await recordArtifacts('record-identity-setup', page, log, async () => {
        await goHash(page, '#/setup/areas');
        await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor();
        await waitForServiceWorkerControl(page);
        await context.setOffline(true);

        // ── A meadow, made offline, and its editor opened: the address names the offline id.
        await page.getByRole('button', { name: slSetup.areas.add }).click();
        expect(await page.evaluate(() => window.location.hash)).toBe('#/setup/areas/new');
        await page.locator('input[name="name"]').fill(meadow.made);
        await page.locator('select[name="owner"]').selectOption({ index: 1 });
        await page.locator('[data-drawing="polygon"]').waitFor();
        await drawAt(page, [
          [-150, -110],
          [150, -110],
          [150, 110],
          [-150, 110],
        ]);
        await page.getByRole('button', { name: sl.common.save }).click();
        // Drawn at the map's first zoom: thousands of hectares, saved after the adviser confirms.
        await page.getByTestId('area-doubt').getByRole('button', { name: slSetup.areas.saveAnyway }).click();
        await page.waitForFunction(() => window.location.hash === '#/setup/areas');
        const meadowRow = page.getByTestId(/^setup-area-/).filter({ hasText: meadow.made });
        await meadowRow.getByRole('button', { name: slSetup.common.edit }).click();
        const meadowOffline = await setupIdInAddress(page, '#/setup/areas', false);
        await page.locator('input[name="name"]').fill(meadow.renamed);

        // ── Online: delivered while the editor is open; the address follows, the typed name stays.
        await context.setOffline(false);
        await waitForOutboxEmpty(page);
        const meadowId = await setupIdInAddress(page, '#/setup/areas', true);
        expect(await page.locator('input[name="name"]').inputValue()).toBe(meadow.renamed);
        await shoot(page, 'meadow-editor-delivered-desk');
        await page.getByRole('button', { name: sl.common.save }).click();
        await page.waitForFunction(() => window.location.hash === '#/setup/areas');
        await waitForOutboxEmpty(page);
        const areaName = await data.col('areas', 'name');
        const meadows = (await data.rows('areas')).filter((a) => String(a.properties[areaName]).startsWith(meadow.made));
        expect(meadows.map((a) => [a.id, a.properties[areaName]])).toEqual([[meadowId, meadow.renamed]]);

        // ── The old offline-id address opens the delivered meadow's editor.
        await goHash(page, `#/setup/areas/${meadowOffline}`);
        expect(await setupIdInAddress(page, '#/setup/areas', true)).toBe(meadowId);
        expect(await page.locator('input[name="name"]').inputValue()).toBe(meadow.renamed);
        await page.getByRole('button', { name: sl.common.cancel }).click();
        await page.waitForFunction(() => window.location.hash === '#/setup/areas');

        // ── A transect on it, the same way.
        await goHash(page, '#/setup/paths');
        await page.getByRole('button', { name: slSetup.paths.add }).waitFor();
        await context.setOffline(true);
        await page.getByRole('button', { name: slSetup.paths.add }).click();
        await page.locator('select[name="area"]').selectOption({ label: meadow.renamed });
        await page.locator('input[name="name"]').fill(transect.made);
        await page.locator('[data-drawing="line"]').waitFor();
        await drawAt(page, [
          [-40, 10],
          [0, -10],
          [40, 0],
        ]);
        await page.getByRole('button', { name: sl.common.save }).click();
        await page.waitForFunction(() => window.location.hash === '#/setup/paths');
        const transectRow = page.getByTestId(/^setup-path-/).filter({ hasText: transect.made });
        await transectRow.getByRole('button', { name: slSetup.common.edit }).click();
        const transectOffline = await setupIdInAddress(page, '#/setup/paths', false);
        await page.locator('input[name="name"]').fill(transect.renamed);

        await context.setOffline(false);
        await waitForOutboxEmpty(page);
        const transectId = await setupIdInAddress(page, '#/setup/paths', true);
        expect(await page.locator('input[name="name"]').inputValue()).toBe(transect.renamed);
        await page.getByRole('button', { name: sl.common.save }).click();
        await page.waitForFunction(() => window.location.hash === '#/setup/paths');
        await waitForOutboxEmpty(page);
        const [pathName, parent] = [await data.col('paths', 'name'), await data.col('paths', 'parent')];
        const transects = (await data.rows('paths')).filter((p) => String(p.properties[pathName]).startsWith(transect.made));
        expect(transects.map((p) => [p.id, p.properties[pathName], p.properties[parent]])).toEqual([[transectId, transect.renamed, meadowId]]);

        await page.reload();
        await goHash(page, `#/setup/paths/${transectOffline}`);
        expect(await setupIdInAddress(page, '#/setup/paths', true)).toBe(transectId);
        expect(await page.locator('input[name="name"]').inputValue()).toBe(transect.renamed);
      });
    } finally {
      await close();
    }
  });
});
