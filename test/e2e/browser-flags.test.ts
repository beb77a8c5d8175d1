/**
 * The browser the tests and benches start (scripts/chromium.ts) turns off what a plain Playwright
 * launch turns off, and the address bar's drop-down renderer besides: Chromium keeps only the last
 * `--disable-features` of its command line, so a list of our own would silently drop Playwright's.
 * Read from chrome://version ("Command-line Variations"), as Chromium took them.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium, OWN_DISABLED_FEATURES } from '../../scripts/chromium';

// Two browser starts on a machine that may be busy with other suites; nothing here asserts time.
jest.setTimeout(60_000);

async function disabledFeatures(browser: Browser): Promise<string[]> {
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto('chrome://version');
    const encoded = await page.locator('#variations-cmd').getAttribute('data-value');
    const variations = JSON.parse(Buffer.from(encoded ?? '', 'base64').toString('utf8')) as { 'disable-features'?: string };
    return (variations['disable-features'] ?? '').split(',').filter(Boolean);
  } finally {
    await browser.close();
  }
}

describe('the browser of the tests and benches', () => {
  it('keeps every feature Playwright turns off and turns off the address bar’s drop-down renderer', async () => {
    const playwrights = await disabledFeatures(await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] }));
    const ours = await disabledFeatures(await launchChromium());
    expect(playwrights.length).toBeGreaterThan(0);
    expect(ours).toEqual(expect.arrayContaining([...playwrights, ...OWN_DISABLED_FEATURES]));
  });
});
