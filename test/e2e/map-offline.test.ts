/**
 * The map in a real browser (Chromium, WebGL on SwiftShader): a downloaded extent renders with
 * the network cut off, and a place outside it shows the honest "not downloaded" notice. The page
 * is the map preview (scripts/basemap/preview-page.tsx) served with the real base map routes; the
 * download runs the Download screen's code into the browser's real IndexedDB.
 */
import { afterAll, afterEach, beforeAll, expect, it, jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startMapHarness, type MapHarness } from '../../scripts/basemap/map-harness';
import { slMap } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { ARTIFACTS_DIR, assertNoPolicyViolations, collectPageLog, type ConsoleLog, keepScreenshot } from './harness';

jest.setTimeout(180_000);

describeApp('map offline', { builtApp: false, server: false }, (e2e) => {
  let harness: MapHarness;
  let log: ConsoleLog;
  beforeAll(async () => {
    harness = await startMapHarness(undefined, { browser: e2e.browser });
    log = await collectPageLog(harness.page.context(), harness.page);
  });
  afterAll(async () => {
    await harness?.close();
  });
  // The map runs under the app's Content-Security-Policy: anything it blocked fails the test.
  afterEach(() => {
    assertNoPolicyViolations(log);
    log.lines.length = 0;
  });

  it('renders a downloaded extent offline and says where nothing was downloaded', async () => {
    const { page } = harness;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${harness.url}/?mode=offline`);
    await page.waitForFunction(() => typeof window.__download === 'function');
    const download = await page.evaluate(() => window.__download!());
    expect(download.status).toBe('complete');
    expect(download.stored).toBe(download.tiles);
    expect(download.tiles).toBeGreaterThanOrEqual(5); // z6–z10 over 0.6° × 0.4°

    await page.context().setOffline(true);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await page.evaluate(() => window.__showMap!());
    await page.waitForFunction(() => window.__map.idleMs !== null, undefined, { timeout: 120_000 });

    // Base map land under the meadows came from the device: no tile was missing, and the land
    // layer is rendered at the centre of the view.
    expect(await page.evaluate(() => window.__map.missing.length)).toBe(0);
    const land = await page.evaluate(() => {
      const map = window.__map.engine!.map;
      const c = map.getCanvas();
      return map.queryRenderedFeatures([c.clientWidth / 2, c.clientHeight / 2], { layers: ['land'] }).map((f) => f.properties.name);
    });
    expect(land).toContain('Slovenia');
    expect(await page.getByText('Travnik 1', { exact: true }).count()).toBe(1);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'map-offline.png'));

    // Ljubljana was not downloaded: empty tiles and the notice, not a broken map.
    await page.evaluate(() => {
      window.__map.idleMs = null;
      const map = window.__map.engine!.map;
      map.once('idle', () => (window.__map.idleMs = 1));
      map.jumpTo({ center: [14.5, 46.05], zoom: 10 });
    });
    await page.waitForFunction(() => window.__map.idleMs !== null, undefined, { timeout: 120_000 });
    expect(await page.evaluate(() => window.__map.missing.length)).toBeGreaterThan(0);
    expect(await page.getByText(slMap.map.missingTiles).count()).toBe(1);
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'map-offline-outside.png'));
    expect(errors).toEqual([]);
  });

  it('taps a feature and reports it (indicator over path over meadow)', async () => {
    const { page } = harness;
    await page.context().setOffline(false);
    await page.goto(`${harness.url}/?paths=1`);
    await page.waitForFunction(() => window.__map.idleMs !== null, undefined, { timeout: 120_000 });
    const point = await page.evaluate(() => {
      const map = window.__map.engine!.map;
      // The demo's indicator sits on vertex 3 of path 1.
      const feature = map.querySourceFeatures('mt-indicators')[0]!;
      const [lon, lat] = (feature.geometry as GeoJSON.Point).coordinates as [number, number];
      const p = map.project([lon, lat]);
      const box = map.getCanvas().getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y };
    });
    await page.mouse.click(point.x, point.y);
    await page.waitForFunction(() => window.__map.clicked.length > 0);
    expect(await page.evaluate(() => window.__map.clicked)).toEqual([{ kind: 'indicator', id: 3000 }]);
  });
});
