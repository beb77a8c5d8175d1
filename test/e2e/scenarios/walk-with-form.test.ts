/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Scenario: the transect walked with the form in hand, in Chromium against the real server, on a
 * 360 px phone. kmet1 starts recording the walk on his path's screen, makes this season's meadow
 * form there and marks plants on it while he walks on (Playwright's setGeolocation moves him): the
 * walk goes on behind the form, the bar under the header shows it and leads back to the path,
 * where he finishes and saves it. The server then holds one line with every fix, those taken
 * while the form was open included.
 */
import { expect, jest, test } from '@jest/globals';
import path from 'node:path';
import type { LineString } from 'geojson';
import { sl, slMap, slScreens } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { describeApp, fieldDevice } from '../fixture';
import { ARTIFACTS_DIR, DEMO_USERS, keepScreenshot, recordArtifacts } from '../harness';
import { goHash, metresFrom, startWalk, waitForOutboxEmpty } from './helpers';

jest.setTimeout(180_000);

const STEP_M = 4;

describeApp('scenario: the walk goes on while the form is filled in (Chromium)', {}, (e2e) => {
  test("a walk started on the path's screen records on while its form is filled in, and is saved whole from the path's screen", async () => {
    const { data } = e2e;
    const [farmerPath] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const line = farmerPath!.geometry as LineString;
    const at = metresFrom(line.coordinates[0]!);
    const { context, page, log, close } = await e2e.signedIn('farmer1', { ...fieldDevice(at(0)), viewport: { width: 360, height: 740 } });
    const bar = page.getByRole('complementary', { name: sl.walkBar.label });
    // Where the walked distance shows: the recorder on the path's screen, the bar elsewhere.
    const PANEL = '[data-testid="walk-distance"]';
    const BAR = '.walk-bar__text';
    const distanceIn = async (selector: string) => (await page.locator(selector).textContent())?.split(' · ').pop() ?? null;
    const walkTo = async (fromM: number, toM: number, selector: string) => {
      for (let m = fromM; m <= toM; m += STEP_M) {
        await context.setGeolocation(at(m));
        await page.waitForFunction(([sel, text]) => document.querySelector(sel!)?.textContent?.split(' · ').pop() === text, [selector, `${m} m`]);
      }
    };
    try {
      await recordArtifacts('scenario-walk-with-form', page, log, async () => {
        // The path's screen: the walk starts, the first stretch is walked.
        await goHash(page, `#/paths/${farmerPath!.id}`);
        await startWalk(context, page, at(0));
        await walkTo(STEP_M, 20, PANEL);
        expect(await bar.count()).toBe(0);

        // The form, made on the path's screen: its screen replaces the path's, the walk goes on.
        await page.getByLabel(slScreens.paths.formKind).selectOption({ label: FORM_KINDS.travnik.title });
        await page.getByRole('button', { name: slScreens.paths.create }).click();
        await page.waitForFunction(() => /^#\/forms\/\d+$/.test(window.location.hash));
        await page.getByTestId('indicator-salvia-pratensis').waitFor();
        expect(await distanceIn(BAR)).toBe('20 m');
        await walkTo(24, 32, BAR);
        await page.getByTestId('indicator-salvia-pratensis').getByRole('radio', { name: slScreens.forms.yes, exact: true }).click();
        await walkTo(36, 40, BAR);
        await page.getByTestId('indicator-lotus-corniculatus').getByRole('radio', { name: slScreens.forms.yes, exact: true }).click();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.savedOnline, { exact: true }).waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
        await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'walk-with-form-360.png'));

        // Back on the path's screen by the bar: the walk is there as walked, finished and saved.
        await bar.getByRole('link', { name: new RegExp(`^${sl.walkBar.back}`) }).click();
        await page.waitForFunction((id) => window.location.hash === `#/paths/${id}`, farmerPath!.id);
        expect(await distanceIn(PANEL)).toBe('40 m');
        expect(await bar.count()).toBe(0);
        await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'walk-back-on-path-360.png'));
        await walkTo(44, 48, PANEL);
        await page.getByRole('button', { name: slMap.recording.finish }).click();
        await page.getByTestId('walk-summary').waitFor();
        await page.getByRole('button', { name: slMap.recording.save }).click();
        await page.getByText(slMap.recording.savedOnline).waitFor();
        await waitForOutboxEmpty(page);
      });
      // The server: one line over the whole walk (no gap where the screens changed) with every fix.
      const walked = (await data.rows('paths')).find((p) => p.id === farmerPath!.id)!;
      expect(walked.geometry?.type).toBe('LineString');
      const walk = walked.properties[await data.col('paths', 'walk')] as { raw?: unknown[] } | null;
      expect(walk?.raw?.length).toBeGreaterThanOrEqual(48 / STEP_M + 1);
      expect(walked.properties[await data.col('paths', 'length_m')]).toBeGreaterThanOrEqual(47);
    } finally {
      await close();
    }
  });
});
