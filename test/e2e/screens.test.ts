/**
 * Every field screen with real data, in Chromium against the real server, at phone and
 * desktop size: a farmer (home, paths, a path with its map, a new form filled in, forms, results,
 * about, downloads) and an editor (farmers with progress, a chosen farmer's meadows, results, the
 * farmer's form). Each screen is checked against the server's rows for that user, then
 * photographed to test-results/e2e/screens/ (outside the repo) to be looked at.
 */
import path from 'node:path';
import { expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { sl, slScreens } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, recordArtifacts, keepScreenshot, SCREENSHOTS_WANTED } from './harness';
import { REQUIRED_ANSWERS, addMeadowForm, goHash, homePathRow, waitForOutboxEmpty } from './scenarios/helpers';

jest.setTimeout(240_000);

const SHOTS = path.join(ARTIFACTS_DIR, 'screens');
const SIZES = [
  ['phone', 390, 844],
  ['desktop', 1280, 800],
] as const;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  // Let the map and lazy pictures settle (no request for half a second); the screenshot is for a
  // person to look at, not asserted, so a page that keeps fetching is photographed anyway.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await keepScreenshot(page, path.join(SHOTS, `${name}.png`), { fullPage: true });
}

async function screenTitle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((expected) => document.title.startsWith(expected), title);
  await page.locator('main h1').first().waitFor();
}

// One server for the file. The farmer's device is shared by the two sizes (each size a new page of
// it): his second form asks first whether a second form of the season is meant (addMeadowForm
// answers), and every check reads the server's rows as they are at that moment. The editor gets a
// new device per size: the farmer chosen on the first would stay chosen on a shared one, and the
// list before any choice is what is checked.
describeApp('every screen with real data, phone and desktop', {}, (e2e) => {
  test.each(SIZES)("a farmer's screens show the farmer's own rows (%s %i×%i)", async (tag, width, height) => {
    const { data } = e2e;
    const nameCol = await data.col('paths', 'name');
    const ownPaths = await data.pathsOf(DEMO_USERS.farmer1.email);
    const otherPaths = await data.pathsOf(DEMO_USERS.farmer2.email);
    const ownNames = ownPaths.map((p) => String(p.properties[nameCol]));
    expect(ownNames.length).toBeGreaterThan(0);
    const { page, log, close } = await e2e.signedIn('farmer1', { shared: true, viewport: { width, height } });
    try {
      await recordArtifacts(`screens-farmer-${tag}`, page, log, async () => {
        await homePathRow(page, ownPaths[0]!.id).waitFor();
        const home = await page.locator('main').innerText();
        for (const name of ownNames) expect(home).toContain(name);
        for (const other of otherPaths) expect(home).not.toContain(String(other.properties[nameCol]));
        await shoot(page, `${tag}-farmer-home`);

        await goHash(page, '#/paths');
        await screenTitle(page, sl.screens.paths.title);
        await expect(page.locator('main tbody tr, main li').filter({ hasText: ownNames[0]! }).count()).resolves.toBeGreaterThan(0);
        const listed = await page.locator('main').innerText();
        for (const name of ownNames) expect(listed).toContain(name);
        await shoot(page, `${tag}-farmer-paths`);

        const pathId = ownPaths[0]!.id;
        await goHash(page, `#/paths/${pathId}`);
        await page.getByRole('heading', { level: 1, name: String(ownPaths[0]!.properties[nameCol]) }).waitFor();
        await page.locator('canvas.maplibregl-canvas').waitFor();
        await shoot(page, `${tag}-farmer-path`);

        // A new form for this season, answered and saved: the form screen as the farmer fills it.
        const formId = await addMeadowForm(page, pathId);
        await page.getByText(slScreens.states.savedOnline.slice(0, -1), { exact: false }).first().waitFor();
        await shoot(page, `${tag}-farmer-form`);
        await waitForOutboxEmpty(page);
        const forms = await data.formsOfPath(pathId);
        expect(forms.length).toBeGreaterThan(0);
        const saved = forms.find((f) => f.id === formId) ?? forms.at(-1)!;
        const indicators = await data.indicatorsOfForm(saved.id);
        expect(indicators.length).toBeGreaterThanOrEqual(REQUIRED_ANSWERS.length);

        await goHash(page, '#/forms');
        await screenTitle(page, sl.screens.forms.title);
        await expect(page.locator('main').innerText()).resolves.toContain(String(ownPaths[0]!.properties[nameCol]));
        await shoot(page, `${tag}-farmer-forms`);

        await goHash(page, '#/results');
        await screenTitle(page, sl.screens.results.title);
        await page.locator('main table').first().waitFor();
        await shoot(page, `${tag}-farmer-results`);

        for (const [hash, title] of [
          ['#/about', sl.screens.about.title],
          ['#/download', sl.screens.download.title],
          ['#/download/new', sl.screens.downloadNew.title],
        ] as const) {
          await goHash(page, hash);
          await screenTitle(page, title);
          await shoot(page, `${tag}-farmer-${hash.slice(2).replace(/\//g, '-')}`);
        }
      });
    } finally {
      await close();
    }
  });

  test.each(SIZES)("an editor's screens: farmers with progress, a farmer's meadows, results (%s %i×%i)", async (tag, width, height) => {
    const { data } = e2e;
    const [farmerName, emailCol, nameCol] = [await data.col('farmers', 'name'), await data.col('farmers', 'email'), await data.col('paths', 'name')];
    const farmers = await data.rows('farmers');
    const { page, log, close } = await e2e.signedIn('editor', { viewport: { width, height } });
    try {
      await recordArtifacts(`screens-editor-${tag}`, page, log, async () => {
        const first = String(farmers.find((f) => f.properties[emailCol] === DEMO_USERS.farmer1.email)?.properties[farmerName] ?? '');
        expect(first).not.toBe('');
        await page.getByText(first, { exact: true }).first().waitFor();
        const home = await page.locator('main').innerText();
        for (const farmer of farmers.filter((f) => !f.archived)) expect(home).toContain(String(farmer.properties[farmerName]));
        // Each farmer with paths shows the season's progress before any farmer is chosen.
        await page.locator('.farmer-row__progress progress').first().waitFor();
        expect(await page.locator('.farmer-row__progress progress').count()).toBeGreaterThanOrEqual(2);
        await shoot(page, `${tag}-editor-home`);

        await page.locator('li, tr', { hasText: first }).getByRole('button').first().click();
        const ownPaths = await data.pathsOf(DEMO_USERS.farmer1.email);
        await page.getByText(String(ownPaths[0]!.properties[nameCol]), { exact: true }).first().waitFor();
        await shoot(page, `${tag}-editor-farmer`);

        await goHash(page, '#/results');
        await screenTitle(page, sl.screens.results.title);
        await page.locator('main table').first().waitFor();
        await shoot(page, `${tag}-editor-results`);
      });
    } finally {
      await close();
    }
  });
});
