/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * An edit made right after a sync, in Chromium against the real server: a farmer has an
 * offline-made form open with its answers; going online the outbox delivers the form and its
 * indicators, the server acknowledges, and the signal drops right after that answer. The open form
 * must keep showing its answers the whole time (never an empty checklist, not even for a moment
 * when "Vse spremembe so poslane" appears). The farmer then changes an answer and saves; back
 * online the server holds exactly one indicator row per key on that form, with the new value, and
 * the reloaded form shows it.
 */
import { expect, jest, test } from '@jest/globals';
import { LOCAL_ID_BOUND } from '../../../src/common/constants';
import { slScreens } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { describeApp, fieldDevice } from '../fixture';
import { DEMO_USERS, recordArtifacts } from '../harness';
import { REQUIRED_ANSWERS, goHash, outboxCount, waitForOutboxEmpty, waitForServiceWorkerControl, homePathRow } from './helpers';

jest.setTimeout(180_000);

const CHANGED = 'salvia-pratensis';

describeApp('an edit right after a sync is not lost (Chromium)', {}, (e2e) => {
  test('the open form keeps its answers through the acknowledgement and a dropped signal; the next save updates the same rows', async () => {
    const { data } = e2e;
    const [path] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const formsBefore = await data.formsOfPath(path!.id);
    const [lon, lat] = (path!.geometry as { coordinates: number[][] }).coordinates[0]!;
    const { context, page, log, close } = await e2e.signedIn('farmer1', fieldDevice({ longitude: lon!, latitude: lat! }));
    let followedHash = '';
    try {
      await recordArtifacts('edit-after-sync', page, log, async () => {
        await homePathRow(page, path!.id).waitFor();
        await waitForServiceWorkerControl(page);
        // The path once online: its season link is made and delivered now, not with the form.
        await goHash(page, `#/paths/${path!.id}`);
        await page.getByTestId('season-forms').getByRole('button', { name: slScreens.paths.create }).waitFor();
        await waitForOutboxEmpty(page);

        // Offline: a new meadow form with the required answers and "Ne" for sage.
        await context.setOffline(true);
        await page.locator('.conn-status--offline').waitFor();
        await page.getByLabel(slScreens.paths.formKind).selectOption({ label: FORM_KINDS.travnik.title });
        await page.getByRole('button', { name: slScreens.paths.create }).click();
        await page.waitForFunction(() => /^#\/forms\/\d+$/.test(window.location.hash));
        const formHash = await page.evaluate(() => window.location.hash);
        for (const answer of REQUIRED_ANSWERS) {
          const card = page.getByTestId(`indicator-${answer.key}`);
          if ('label' in answer) await card.getByRole('radio', { name: answer.label, exact: true }).click();
          else await card.locator('input[type=number]').fill(String(answer.value));
        }
        await page.getByTestId(`indicator-${CHANGED}`).getByRole('radio', { name: slScreens.forms.no, exact: true }).click();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
        const answered = REQUIRED_ANSWERS.length + 1;
        expect(await page.locator('.indicator--filled').count()).toBe(answered);
        expect(await outboxCount(page)).toBeGreaterThanOrEqual(answered + 1);

        // From here on, the fewest answers the open form ever shows.
        await page.evaluate(() => {
          const w = window as unknown as { fewestFilled: number };
          w.fewestFilled = document.querySelectorAll('.indicator--filled').length;
          new MutationObserver(() => {
            w.fewestFilled = Math.min(w.fewestFilled, document.querySelectorAll('.indicator--filled').length);
          }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        });

        // Online: the first bulk answer reaches the page, and the signal drops right after it.
        let bulkAnswered!: () => void;
        const answeredOnce = new Promise<void>((resolve) => (bulkAnswered = resolve));
        await context.route('**/api/Records/*/bulk', async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response });
          await context.setOffline(true);
          bulkAnswered();
        });
        await context.setOffline(false);
        await answeredOnce;
        await context.unroute('**/api/Records/*/bulk');
        await waitForOutboxEmpty(page);
        await page.locator('.conn-status--offline').waitFor();

        // The form still shows every answer, and never showed fewer; its address moved from the
        // offline id to the server's (checked against the server below).
        expect(Number(formHash.slice('#/forms/'.length))).toBeLessThan(LOCAL_ID_BOUND);
        followedHash = await page.evaluate(() => window.location.hash);
        await page.getByTestId(`indicator-${CHANGED}`).getByRole('radio', { name: slScreens.forms.no, exact: true }).waitFor();
        expect(await page.getByTestId(`indicator-${CHANGED}`).getByRole('radio', { name: slScreens.forms.no, exact: true }).getAttribute('aria-checked')).toBe(
          'true',
        );
        expect(await page.locator('.indicator--filled').count()).toBe(answered);

        // Still offline, the farmer changes sage to "Da" and saves.
        await page.getByTestId(`indicator-${CHANGED}`).getByRole('radio', { name: slScreens.forms.yes, exact: true }).click();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
        expect(await page.evaluate(() => (window as unknown as { fewestFilled: number }).fewestFilled)).toBe(answered);

        // Back online: the change drains.
        await context.setOffline(false);
        await waitForOutboxEmpty(page);
        await page.locator('.conn-status--online').waitFor();
      });

      // The server: one new form, one row per answered key, sage now true.
      const newForms = (await data.formsOfPath(path!.id)).filter((f) => !formsBefore.some((b) => b.id === f.id));
      expect(newForms).toHaveLength(1);
      const form = newForms[0]!;
      expect(followedHash).toBe(`#/forms/${form.id}`);
      const [keyCol, valueCol] = [await data.col('indicators', 'key'), await data.col('indicators', 'value')];
      const byKey = new Map<string, WireRecord[]>();
      for (const row of await data.indicatorsOfForm(form.id))
        byKey.set(String(row.properties[keyCol]), [...(byKey.get(String(row.properties[keyCol])) ?? []), row]);
      expect([...byKey.keys()].sort()).toEqual([...REQUIRED_ANSWERS.map((a) => a.key), CHANGED].sort());
      for (const rows of byKey.values()) expect(rows).toHaveLength(1);
      expect(byKey.get(CHANGED)![0]!.properties[valueCol]).toBe(true);

      // The reloaded form (online, by the server's id) shows the new answer.
      await recordArtifacts('edit-after-sync-reload', page, log, async () => {
        await goHash(page, `#/forms/${form.id}`);
        await page.reload();
        const yes = page.getByTestId(`indicator-${CHANGED}`).getByRole('radio', { name: slScreens.forms.yes, exact: true });
        await yes.waitFor();
        await page.waitForFunction(() => document.querySelector('.conn-status--online') !== null);
        expect(await yes.getAttribute('aria-checked')).toBe('true');
      });
    } finally {
      await close();
    }
  });
});
