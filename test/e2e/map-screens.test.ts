/**
 * The map feature's screens in Chromium, each with a real store and the browser's IndexedDB,
 * served with the real base map routes (scripts/basemap/preview-page.tsx, mode=screens):
 * - /download/new: estimate shown before, download with progress, then listed on /download;
 * - drawing a path by hand with Mapbox GL Draw on MapLibre;
 * - location permission denied → the location warning, gone once granted.
 */
import { afterAll, afterEach, beforeAll, expect, it, jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startMapHarness, type MapHarness } from '../../scripts/basemap/map-harness';
import { sl, slMap } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { ARTIFACTS_DIR, assertNoPolicyViolations, collectPageLog, type ConsoleLog, keepScreenshot } from './harness';

jest.setTimeout(180_000);

describeApp('map screens', { builtApp: false, server: false }, (e2e) => {
  let harness: MapHarness;
  let log: ConsoleLog;
  beforeAll(async () => {
    harness = await startMapHarness({ width: 800, height: 1100 }, { browser: e2e.browser });
    log = await collectPageLog(harness.page.context(), harness.page);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });
  afterAll(async () => {
    await harness?.close();
  });
  // The map runs under the app's Content-Security-Policy: anything it blocked fails the test.
  afterEach(() => {
    assertNoPolicyViolations(log);
    log.lines.length = 0;
  });

  it('downloads an extent chosen on the map with the estimate shown first, then lists it', async () => {
    const { page } = harness;
    await page.goto(`${harness.url}/?mode=screens&screen=download-new`);
    await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor({ timeout: 60_000 });
    await page.getByLabel(slMap.download.maxZoom).selectOption('12');
    await page.getByLabel(slMap.download.minZoom).selectOption('6');
    const estimate = page.getByTestId('download-estimate');
    await expect(estimate.textContent()).resolves.toMatch(/\d+/);
    const tiles = Number((await estimate.locator('dd').first().textContent()) ?? '0');
    expect(tiles).toBeGreaterThan(0);
    expect(await estimate.locator('dd').nth(2).textContent()).not.toBe('…');

    // Without a name nothing starts.
    await page.getByRole('button', { name: slMap.download.start }).click();
    expect(await page.getByRole('alert').textContent()).toBe(slMap.download.nameRequired);
    await page.getByLabel(slMap.download.name).fill('Moji travniki');
    await page.getByRole('button', { name: slMap.download.start }).click();
    await page.getByText(slMap.download.done).waitFor({ timeout: 60_000 });
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'download-new.png'));
    expect(await page.locator('progress').getAttribute('value')).toBe(String(tiles));

    await page.goto(`${harness.url}/?mode=screens&screen=download-list`);
    const row = page.locator('tr', { hasText: 'Moji travniki' });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells[2]).toBe('6–12');
    expect(cells[3]).toBe(`${tiles} / ${tiles}`);
    expect(cells[4]).toMatch(/ (Bytes|KB|MB)$/);
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'download-list.png'));
  });

  it('draws a path by hand with Mapbox GL Draw on MapLibre', async () => {
    const { page } = harness;
    await page.goto(`${harness.url}/?paths=1`);
    await page.waitForFunction(() => window.__map.idleMs !== null, undefined, { timeout: 60_000 });
    await page.evaluate(() => window.__map.engine!.drawing.startLine());
    const box = (await page.locator('canvas.maplibregl-canvas').boundingBox())!;
    const at = (fx: number, fy: number) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy });
    for (const [fx, fy] of [
      [0.3, 0.7],
      [0.5, 0.5],
    ] as const) {
      const p = at(fx, fy);
      await page.mouse.click(p.x, p.y);
    }
    const last = at(0.7, 0.6);
    await page.mouse.click(last.x, last.y);
    await page.mouse.dblclick(last.x, last.y);
    const geometry = await page.evaluate(() => window.__map.engine!.drawing.drawnGeometry());
    expect(geometry?.type).toBe('LineString');
    expect((geometry as GeoJSON.LineString).coordinates.length).toBeGreaterThanOrEqual(3);
    // Let the map draw the finished line before the screenshot.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const map = window.__map.engine!.map;
          map.once('idle', () => resolve());
          map.triggerRepaint();
        }),
    );
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'draw-path.png'));
  });

  it('shows the location warning while permission is denied and removes it once granted', async () => {
    const context = await harness.browser.newContext();
    const page = await context.newPage();
    const pageLog = await collectPageLog(context, page);
    // Playwright can grant but not deny; Chromium's DevTools protocol can do both, per context.
    const pageSession = await context.newCDPSession(page);
    const { targetInfo } = await pageSession.send('Target.getTargetInfo');
    const browserSession = await harness.browser.newBrowserCDPSession();
    const setGeolocation = (setting: 'denied' | 'granted') =>
      browserSession.send('Browser.setPermission', {
        permission: { name: 'geolocation' },
        setting,
        origin: harness.url,
        browserContextId: targetInfo.browserContextId,
      });
    await setGeolocation('denied');
    await page.goto(`${harness.url}/?mode=screens&screen=location`);
    const warning = page.getByRole('alert');
    await warning.waitFor();
    expect(await warning.textContent()).toBe(sl.location.denied);
    await setGeolocation('granted');
    await warning.waitFor({ state: 'detached' });
    assertNoPolicyViolations(pageLog);
    await context.close();
  });
});
