/**
 * A photo added to a form on the phone profile (client-load.ts runs it on the warm visit's form):
 * a camera photo of 12 megapixels chosen for an indicator, until its thumbnail is shown, and the
 * longest task the page's main thread ran meanwhile (a tap waits for it). The app resizes a photo
 * in a worker; the naive way, on the page, is the same app on a page where no worker can start
 * (its resize then runs on the page, as it did before), measured beside it in the same run.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';

/**
 * A 4032×3024 JPEG (a phone camera's 12 MP): soft gradients with grain, as grass in sunlight.
 * Resolves to its file in `dir`: a file by its path reaches the page as a camera's does (Playwright hands
 * a buffer to the page's own script as base64, seconds of the main thread for a photo this size).
 */
export async function cameraPhoto(dir: string): Promise<string> {
  const width = 4032;
  const height = 3024;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed >> 16) % 48;
      const at = (y * width + x) * 3;
      pixels[at] = ((x >> 4) + grain) & 255;
      pixels[at + 1] = (96 + ((y >> 3) % 120) + grain) & 255;
      pixels[at + 2] = (((x + y) >> 5) + grain) & 255;
    }
  }
  const file = path.join(dir, 'travnik.jpg');
  writeFileSync(
    file,
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  return file;
}

/** The page's side: long tasks from the start on (the Long Tasks API reports those over 50 ms). */
export const LONG_TASKS_HELPER = `
window.__longTasks = [];
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (entry) { window.__longTasks.push([entry.startTime, entry.duration]); });
}).observe({ type: 'longtask', buffered: true });
`;

/** Makes every Worker fail to start: the app then resizes on the page (the naive way). */
export const NO_WORKERS = `window.Worker = undefined;`;

export interface PhotoTimes {
  /** From choosing the file until its thumbnail is decoded and shown. */
  thumbnailMs: number;
  /** The longest main-thread task meanwhile; 0 when none took over 50 ms. */
  longestTaskMs: number;
}

/**
 * Adds `photo` to the first indicator of the open form (its name tapped first to open its
 * photos, as a farmer does) and times it.
 */
export async function addPhoto(page: Page, photo: string): Promise<PhotoTimes> {
  const card = page.locator('[data-testid^="indicator-"]').first();
  const head = card.locator('.indicator__head');
  if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click();
  const input = card.locator('input[type="file"]');
  await input.waitFor({ state: 'attached' });
  const before = await card.locator('[data-testid="new-photo"]').count();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const from = await page.evaluate(() => performance.now());
  await input.setInputFiles(photo);
  const handle = await page.waitForFunction(
    ({ index }) => {
      const image = document.querySelectorAll('[data-testid^="indicator-"]')[0]?.querySelectorAll('[data-testid="new-photo"] img')[index] as
        HTMLImageElement | undefined;
      return image?.complete && image.naturalWidth > 0 ? performance.now() : 0;
    },
    { index: before },
    { polling: 'raf', timeout: 60_000 },
  );
  const shownAt = (await handle.jsonValue()) as number;
  const longestTaskMs = await page.evaluate(
    ({ from, to }) =>
      ((window as unknown as { __longTasks: [number, number][] }).__longTasks ?? [])
        .filter(([start, duration]) => start + duration > from && start < to)
        .reduce((longest, [, duration]) => Math.max(longest, duration), 0),
    { from, to: shownAt },
  );
  return { thumbnailMs: shownAt - from, longestTaskMs };
}
