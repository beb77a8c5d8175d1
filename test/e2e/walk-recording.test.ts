/**
 * Walk recording in a real browser: Chromium's geolocation is scripted with Playwright
 * (`setGeolocation`), the recorder panel (real React, real store, real IndexedDB) records a
 * transect, survives a reload (offered for resumption), and saves the simplified line with the
 * raw fixes through the outbox. The page is the map preview (scripts/basemap/preview-page.tsx).
 * Sending the outbox to the server is the sync layer's job and is tested there.
 */
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startMapHarness, type MapHarness } from '../../scripts/basemap/map-harness';
import { slMap } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { ARTIFACTS_DIR, keepScreenshot } from './harness';

jest.setTimeout(180_000);

const LAT = 46.8;
const M_LON = 1 / (111_320 * Math.cos((LAT * Math.PI) / 180));
const at = (east: number) => ({ longitude: 16.1975 + east * M_LON, latitude: LAT - 0.0003, accuracy: 5 });

describeApp('walk recording', { builtApp: false, server: false }, (e2e) => {
  let harness: MapHarness;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    harness = await startMapHarness(undefined, { browser: e2e.browser });
    context = await harness.browser.newContext({ permissions: ['geolocation'], geolocation: at(0), viewport: { width: 700, height: 900 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await harness?.close();
  });

  const vertices = () => page.evaluate(() => (window.__track ?? []).reduce((n, s) => n + s.length, 0));

  async function walk(fromM: number, toM: number, stepM: number): Promise<void> {
    for (let m = fromM; m <= toM; m += stepM) {
      const before = await vertices();
      await context.setGeolocation(at(m));
      await page.waitForFunction((n) => (window.__track ?? []).reduce((k, s) => k + s.length, 0) > n, before, { timeout: 10_000 });
    }
  }

  it('records a transect, resumes it after a reload and saves it through the outbox', async () => {
    await page.goto(`${harness.url}/?mode=walk`);
    // Chromium stamps an emulated fix with the time the position was set: set it now, so the first
    // fix is not older than the recorder's gap after a slow start (see startWalk in scenarios/helpers).
    await context.setGeolocation(at(0));
    await page.getByRole('button', { name: slMap.recording.start }).click();
    // The watch delivers the current position first.
    await page.waitForFunction(() => (window.__track ?? []).reduce((n, s) => n + s.length, 0) === 1);
    await walk(4, 60, 4);
    expect(await page.getByTestId('walk-distance').textContent()).toBe('60 m');

    // Reload mid-walk: the recording is offered again and continues where it stopped.
    await page.reload();
    await page.getByText(slMap.recording.resumePrompt).waitFor();
    await page.getByRole('button', { name: slMap.recording.resumeYes }).click();
    expect(await page.getByTestId('walk-distance').textContent()).toBe('60 m');
    const beforeResume = await vertices();
    await page.getByRole('button', { name: slMap.recording.resume }).click();
    await page.waitForFunction((n) => (window.__track ?? []).reduce((k, s) => k + s.length, 0) > n, beforeResume);
    await walk(64, 120, 4);
    expect(await page.getByTestId('walk-distance').textContent()).toBe('120 m');
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'walk-recording.png'));

    await page.getByRole('button', { name: slMap.recording.finish }).click();
    const summary = await page.getByTestId('walk-summary').textContent();
    expect(summary).toContain('100 %');
    await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'walk-summary.png'));
    await page.getByRole('button', { name: slMap.recording.save }).click();
    await page.getByText(slMap.recording.saved).waitFor();

    const saved = await page.evaluate(async () => {
      const [item] = await window.__db!.outbox.toArray();
      return item ? { kind: item.kind, id: item.id, type: item.geometry?.type, raw: (item.properties?.['34'] as { raw: unknown[] }).raw.length } : null;
    });
    // The reload is a pause: two segments, never a straight line across it; every fix is kept.
    expect(saved).toMatchObject({ kind: 'update', id: 2000, type: 'MultiLineString' });
    expect(saved!.raw).toBeGreaterThanOrEqual(31);
  });
});
