/**
 * The first week of a real season, in Chromium against the real server: the About screen writes
 * the storage sizes the Slovenian way (a decimal comma, a dot only between thousands), and on a
 * 1366 px desk the editor's results table uses the width (wide data screens are not held to the
 * 1040 px reading column) and no cell wraps over two lines.
 */
import { expect, jest, test } from '@jest/globals';
import { sl, slScreens } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { recordArtifacts } from './harness';
import { goHash } from './scenarios/helpers';

jest.setTimeout(180_000);

const DESK_1366 = { width: 1366, height: 900 };
/** A size as formatFileSize writes it: '7,51 MB', '1.023 Bytes', '10 GB' — never '7.51 MB'. */
const SIZE = /^\d{1,3}(\.\d{3})*(,\d{1,2})? (Bytes|KB|MB|GB|TB|PB)$/;

describeApp('the first week of a real season (Chromium)', {}, (e2e) => {
  test('the About screen writes the storage sizes with a decimal comma', async () => {
    const { page, log, close } = await e2e.signedIn('farmer1', { hash: '#/about' });
    try {
      await recordArtifacts('first-week-about', page, log, async () => {
        const card = page.getByTestId('storage-card');
        const used = card.getByText(/^Aplikacija na napravi porabi /);
        await used.waitFor();
        const text = (await used.textContent()) ?? '';
        const sizes = /porabi (.+?)(?: od razpoložljivih (.+))?\.$/.exec(text);
        expect(sizes).not.toBeNull();
        const [usedSize, quota] = [sizes![1]!, sizes![2]];
        expect(usedSize).toMatch(SIZE);
        if (quota !== undefined) expect(quota).toMatch(SIZE);
        expect(text).toBe(slScreens.about.storageUsed(usedSize, quota ?? null));
      });
    } finally {
      await close();
    }
  });

  test("the editor's results table is wider than the reading column at 1366×900, no cell over two lines", async () => {
    const { page, log, close } = await e2e.signedIn('editor', { viewport: DESK_1366 });
    try {
      await recordArtifacts('first-week-results-desk', page, log, async () => {
        await goHash(page, '#/results');
        await page.waitForFunction((expected) => document.title.startsWith(expected), sl.screens.results.title);
        const table = page.locator('main table.results-table').first();
        await table.waitFor();
        const box = await table.boundingBox();
        expect(box?.width ?? 0).toBeGreaterThan(1100);
        // No cell's text runs over two lines ("Kaj je vplivalo na oceno" wrapped over four at 940 px).
        const tallest = await table.evaluate((element) => {
          // The lines a cell shows: the tops of its visible text (a closed <details> shows its summary only).
          const lines = (cell: Element): number => {
            const tops: number[] = [];
            const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (!node.textContent?.trim() || !node.parentElement?.checkVisibility()) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              for (const rect of range.getClientRects()) if (rect.width > 0 && rect.height > 0) tops.push(rect.top);
            }
            // Text of one line sits within a few pixels (a badge beside plain text); a new line is a line-height lower.
            tops.sort((a, b) => a - b);
            return tops.filter((top, i) => i === 0 || top - tops[i - 1]! > 8).length;
          };
          return [...element.querySelectorAll('th, td')]
            .map((cell) => ({ text: (cell.textContent ?? '').trim(), lines: lines(cell) }))
            .sort((a, b) => b.lines - a.lines)[0];
        });
        expect(tallest?.lines ?? 0).toBeLessThanOrEqual(2);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      });
    } finally {
      await close();
    }
  });
});
