/**
 * '/results' for editors and readers in Chromium against the real server: the editor sees
 * every farmer's results at once (kmet1 and kmet2, no farmer chosen first), narrows them to one
 * farmer, exports the season as CSV and GeoJSON with each form's change history (an edit the
 * editor made through the API shows as who, when, old → new), and offline still sees the rows
 * from the device; the reader sees the same rows and no export; a farmer's earlier seasons reach
 * the device without the results being opened, so offline they show. Screenshots at phone and desktop
 * size go to test-results/e2e/results/ (outside the repo) to be looked at.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { slAudit, slScreens } from '../../../src/common/i18n/sl';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { describeApp } from '../fixture';
import { ARTIFACTS_DIR, DEMO_USERS, recordArtifacts, keepScreenshot, waitForCheck } from '../harness';
import { deviceHasFeature, goHash, waitForServiceWorkerControl } from './helpers';

jest.setTimeout(180_000);

const t = slScreens.results;
const SHOTS = path.join(ARTIFACTS_DIR, 'results');

describeApp('results of all farmers (Chromium)', {}, (e2e) => {
  let form1: WireRecord;
  let form2: WireRecord;
  let names: { farmer1: string; farmer2: string };
  let oldScore: unknown;

  beforeAll(async () => {
    const { data } = e2e;
    form1 = (await data.formsOfPath((await data.pathsOf(DEMO_USERS.farmer1.email))[0]!.id))[0]!;
    form2 = (await data.formsOfPath((await data.pathsOf(DEMO_USERS.farmer2.email))[0]!.id))[0]!;
    const nameCol = await data.col('farmers', 'name');
    const farmers = await data.rows('farmers');
    const nameOf = async (email: string) => {
      const id = await data.farmerId(email);
      return String(farmers.find((f) => f.id === id)!.properties[nameCol]);
    };
    names = { farmer1: await nameOf(DEMO_USERS.farmer1.email), farmer2: await nameOf(DEMO_USERS.farmer2.email) };
    // An edit of kmet2's form by the editor (once, not per retry): its history has who, when, old → new.
    const [formsTable, scoreCol] = [await data.tableId('forms'), await data.col('forms', 'score')];
    oldScore = form2.properties[scoreCol];
    const edited = await data.call<WireRecord>(DEMO_USERS.editor, `/api/Records/1/${formsTable}/${form2.id}`, {
      method: 'PUT',
      body: { properties: { [scoreCol]: 55 }, version: form2.version },
    });
    expect(edited.status).toBe(200);
  });

  async function download(page: Page, button: string): Promise<string> {
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
    return readFileSync((await file.path())!, 'utf8');
  }

  test('the editor sees all farmers, narrows to one, exports CSV and GeoJSON with history, and offline sees the device copy', async () => {
    const { context, page, log, close } = await e2e.signedIn('editor', { viewport: { width: 1280, height: 900 } });
    try {
      await recordArtifacts('results-editor', page, log, async () => {
        await goHash(page, '#/results');
        await page.getByTestId(`result-${form1.id}`).waitFor();
        await page.getByTestId(`result-${form2.id}`).waitFor();
        // The demo has more farmers than the two who sign in: all of them are listed.
        const farmerCells = await page.getByTestId('result-farmer').allTextContents();
        expect(farmerCells).toEqual(expect.arrayContaining([names.farmer1, names.farmer2]));
        await keepScreenshot(page, path.join(SHOTS, 'editor-desktop.png'), { fullPage: true });

        // Narrow to kmet2.
        // The wrapping label also names the chosen option ('Kmet Vsi kmetje').
        const select = page.getByRole('combobox', { name: t.farmer });
        await select.selectOption({ label: names.farmer2 });
        await page.getByTestId(`result-${form1.id}`).waitFor({ state: 'detached' });
        expect(new Set(await page.getByTestId('result-farmer').allTextContents())).toEqual(new Set([names.farmer2]));
        await select.selectOption({ value: 'all' });
        await page.getByTestId(`result-${form1.id}`).waitFor();

        // CSV of the season: both farmers, the edit in the history column.
        const csv = await download(page, t.export);
        const lines = csv.replace('\ufeff', '').trim().split('\r\n');
        expect(lines[0]).toContain(t.csv.history);
        expect(lines.some((l) => l.startsWith(`${names.farmer1};`))).toBe(true);
        const line2 = lines.find((l) => l.startsWith(`${names.farmer2};`) && l.includes(`;${form2.id};`))!;
        // The column and its values as an adviser reads them (the audit trail's words), not the column's key.
        expect(line2).toContain(`${DEMO_USERS.editor.email} spremenjeno: ${slAudit.columns.score}: ${String(oldScore)} → 55`);

        // GeoJSON of the same rows, with the history as a property.
        const geo = JSON.parse(await download(page, t.exportGeoJson)) as { features: Array<{ id: number; properties: Record<string, unknown> }> };
        const farmersInGeo = new Set(geo.features.map((f) => f.properties.farmer));
        expect(farmersInGeo.has(names.farmer1) && farmersInGeo.has(names.farmer2)).toBe(true);
        expect(String(geo.features.find((f) => f.id === form2.id)?.properties.history)).toContain(`${DEMO_USERS.editor.email} spremenjeno`);

        await page.setViewportSize({ width: 390, height: 844 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await keepScreenshot(page, path.join(SHOTS, 'editor-phone.png'));
        await keepScreenshot(page.getByTestId(`result-${form2.id}`), path.join(SHOTS, 'editor-phone-row.png'));
        await keepScreenshot(page.getByTestId('summary-farmer'), path.join(SHOTS, 'editor-phone-summary.png'));

        // Offline: the rows from the device.
        await context.setOffline(true);
        await goHash(page, '#/');
        await goHash(page, '#/results');
        await page.getByTestId('offline-note').waitFor();
        await page.getByTestId(`result-${form1.id}`).waitFor();
        await page.getByTestId(`result-${form2.id}`).waitFor();
        await keepScreenshot(page, path.join(SHOTS, 'editor-phone-offline.png'));
      });
    } finally {
      await close();
    }
  });

  test("a farmer's earlier seasons are on the device before the results were opened: offline they show", async () => {
    const formsTable = await e2e.data.tableId('forms');
    const { context, page, log, close } = await e2e.signedIn('farmer1', { viewport: { width: 390, height: 844 } });
    try {
      await recordArtifacts('results-read-ahead', page, log, async () => {
        await page.locator('[data-testid^="home-path-"]').first().waitFor();
        // The app installed, its next start (home only): the seasons are read ahead once the page is idle.
        await waitForServiceWorkerControl(page);
        await page.reload();
        await page.locator('[data-testid^="home-path-"]').first().waitFor();
        await waitForCheck(page, () => deviceHasFeature(page, formsTable, form1.id), { timeout: 60_000 });
        await context.setOffline(true);
        await goHash(page, '#/results');
        await page.getByTestId('offline-note').waitFor();
        await page.getByRole('combobox', { name: t.season }).selectOption('all');
        await page.getByTestId(`result-${form1.id}`).waitFor();
      });
    } finally {
      await close();
    }
  });

  test('the reader sees all farmers and cannot export', async () => {
    const { page, log, close } = await e2e.signedIn('reader');
    try {
      await recordArtifacts('results-reader', page, log, async () => {
        await goHash(page, '#/results');
        await page.getByTestId(`result-${form1.id}`).waitFor();
        await page.getByTestId(`result-${form2.id}`).waitFor();
        expect(await page.getByRole('button', { name: t.export }).count()).toBe(0);
        expect(await page.getByRole('button', { name: t.exportGeoJson }).count()).toBe(0);
      });
    } finally {
      await close();
    }
  });
});
