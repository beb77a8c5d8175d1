/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Scenario: a new app version deployed while the app is open with edits waiting, in
 * Chromium against the real server. test/e2e/shell.test.ts proves the 'Obvestilo' dialog and the
 * reload onto the new build; this adds what the field cares about: edits queued while the API is
 * out of reach survive accepting the update, and reach the server exactly once afterwards.
 * The API is cut with a Playwright route (not setOffline) so the service worker can still fetch
 * the new sw.js — the situation of a flaky link where the static files come through.
 * The page's action log (both builds' sessions) is exported from /about and replayed headless
 * (action-logs.ts; fixture app-update.json with UPDATE_ACTION_LOGS=1).
 */
import { expect, jest, test } from '@jest/globals';
import { sl, slScreens } from '../../../src/common/i18n/sl';
import { describeApp } from '../fixture';
import { DEMO_USERS, recordArtifacts } from '../harness';
import { exportActionLogFromAbout, replayExportedLog } from './action-logs';
import {
  REQUIRED_ANSWERS,
  addMeadowForm,
  deployChangedBuild,
  goHash,
  outboxCount,
  waitForOutboxEmpty,
  waitForServiceWorkerControl,
  homePathRow,
} from './helpers';

jest.setTimeout(180_000);

// The server serves its own copy of the build, so the test can "deploy" a changed one.
describeApp('scenario 6: a new version is deployed while edits wait (Chromium)', { server: { copyClient: true } }, (e2e) => {
  test("'Obvestilo' appears, accepting reloads onto the new build, queued edits survive and sync once", async () => {
    const { data, server } = e2e;
    const { clientDir } = server;
    const [path1] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const formsBefore = await data.formsOfPath(path1!.id);
    const { context, page, log, close } = await e2e.signedIn('farmer1');
    try {
      await recordArtifacts('scenario-6-app-update', page, log, async () => {
        await homePathRow(page, path1!.id).waitFor();
        await waitForServiceWorkerControl(page);
        await goHash(page, `#/paths/${path1!.id}`);
        await page.getByTestId('season-forms').getByRole('button', { name: slScreens.paths.create }).waitFor();

        // The API stops answering; the edit queues.
        await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
        await page.locator('.conn-status--offline').waitFor({ timeout: 60_000 });
        const formId = await addMeadowForm(page, path1!.id);
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
        const queued = await outboxCount(page);
        expect(queued).toBeGreaterThanOrEqual(1 + REQUIRED_ANSWERS.length);

        // Deploy a changed build while the edits wait.
        await deployChangedBuild(page, clientDir, 6);

        const dialog = page.getByRole('alertdialog', { name: sl.update.title });
        await dialog.waitFor({ timeout: 90_000 });
        expect(await dialog.textContent()).toContain(sl.update.message);
        await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: sl.update.accept }).click()]);

        // The new build, the same form, the edits still queued.
        await page.waitForSelector('main h1');
        expect(await page.locator('meta[name="e2e-build"]').count()).toBe(1);
        expect(await page.evaluate(() => window.location.hash)).toBe(`#/forms/${formId}`);
        await page.getByTestId(`indicator-${REQUIRED_ANSWERS[0].key}`).waitFor();
        expect(
          await page
            .getByTestId(`indicator-${REQUIRED_ANSWERS[0].key}`)
            .getByRole('radio', { name: REQUIRED_ANSWERS[0].label, exact: true })
            .getAttribute('aria-checked'),
        ).toBe('true');
        expect(await outboxCount(page)).toBe(queued);
        expect(await data.formsOfPath(path1!.id)).toHaveLength(formsBefore.length);

        // The API answers again: everything is delivered.
        await context.unroute('**/api/**');
        await waitForOutboxEmpty(page);

        // QA: one log across the update's reload (the ring buffer outlives the old build).
        const exported = await exportActionLogFromAbout(page);
        const result = await replayExportedLog('app-update', 'scenario 6 (app-update.test.ts): the farmer', exported, log);
        expect(result.sessions).toBeGreaterThanOrEqual(2);
      });

      const newForms = (await data.formsOfPath(path1!.id)).filter((f) => !formsBefore.some((b) => b.id === f.id));
      expect(newForms).toHaveLength(1);
      const keyCol = await data.col('indicators', 'key');
      const keys = (await data.indicatorsOfForm(newForms[0]!.id)).map((r) => r.properties[keyCol]).sort();
      expect(keys).toEqual(REQUIRED_ANSWERS.map((a) => a.key).sort());
    } finally {
      await close();
    }
  });
});
