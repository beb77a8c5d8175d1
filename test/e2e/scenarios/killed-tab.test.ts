/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Scenario: the phone kills the tab in the middle of a form, in Chromium against the real server.
 * kmet1 makes this season's meadow form, marks plants and takes a photo for one of them, and does
 * not save: the renderer crashes (as when the phone frees memory while the camera is open), so no
 * `beforeunload` and no screen code runs. In a new tab the form comes back with those answers and
 * the photo, unsaved and said so; saved, they reach the server.
 */
import { expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { OFFLINE_DB_NAME } from '../../../src/common/constants';
import { slScreens } from '../../../src/common/i18n/sl';
import type { AttachmentInfoList } from '../../../src/common/schemas/wire';
import { describeApp } from '../fixture';
import { DEMO_USERS, recordArtifacts, waitForCheck } from '../harness';
import { REQUIRED_ANSWERS, goHash, makeJpeg, openNewMeadowForm, waitForOutboxEmpty } from './helpers';

jest.setTimeout(180_000);

const MARKED = [
  { key: 'salvia-pratensis', answer: slScreens.forms.yes, value: true },
  { key: 'lotus-corniculatus', answer: slScreens.forms.yes, value: true },
  { key: 'centaurea-jacea', answer: slScreens.forms.no, value: false },
] as const;
const PHOTO_ON = MARKED[0].key;

/**
 * The indicators whose unsaved answers the device keeps (its `meta` rows `formDraft:…`), each as
 * `key:photos` with the number of new photos kept with it.
 */
function keptKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    (name) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('meta').objectStore('meta').getAll(IDBKeyRange.bound('formDraft:', 'formDraft:\uffff'));
          all.onsuccess = () => {
            db.close();
            const rows = all.result as Array<{ value: { indicators: Record<string, { photos: unknown[] }> } }>;
            resolve(rows.flatMap((row) => Object.entries(row.value.indicators).map(([key, answer]) => `${key}:${answer.photos.length}`)).sort());
          };
          all.onerror = () => reject(all.error);
        };
      }),
    OFFLINE_DB_NAME,
  );
}

/** Waits until the device keeps unsaved answers for exactly these indicators (`key:photos`; none: nothing kept). */
async function waitForKept(page: Page, keys: readonly string[]): Promise<void> {
  const want = JSON.stringify([...keys].sort());
  await waitForCheck(page, async () => JSON.stringify(await keptKeys(page)) === want);
}

describeApp('scenario: a tab killed in the middle of a form (Chromium)', {}, (e2e) => {
  test('the answers and the photo given before the tab was killed come back in a new tab, unsaved, and reach the server once saved', async () => {
    const { data } = e2e;
    const [farmerPath] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const { context, page, log, close } = await e2e.signedIn('farmer1', { viewport: { width: 360, height: 740 } });
    try {
      await recordArtifacts('scenario-killed-tab', page, log, async () => {
        const formId = await openNewMeadowForm(page, farmerPath!.id);
        for (const { key, answer } of MARKED) await page.getByTestId(`indicator-${key}`).getByRole('radio', { name: answer, exact: true }).click();
        const photoCard = page.getByTestId(`indicator-${PHOTO_ON}`);
        await photoCard.locator('.indicator__head').click();
        await photoCard.locator('input[type=file]').setInputFiles({ name: 'kadulja.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(page) });
        await photoCard.getByTestId('new-photo').waitFor();
        // The device keeps them a moment after the last change, the photo once it is ready.
        await waitForKept(
          page,
          MARKED.map(({ key }) => `${key}:${key === PHOTO_ON ? 1 : 0}`),
        );

        // The renderer goes at once (its answer to the command never comes).
        const cdp = await context.newCDPSession(page);
        const crashed = page.waitForEvent('crash');
        void cdp.send('Page.crash').catch(() => undefined);
        await crashed;

        const again = await context.newPage();
        await again.goto(`${e2e.server.origin}/`);
        await goHash(again, `#/forms/${formId}`);
        await again.getByTestId('form-restored').waitFor();
        for (const { key, answer } of MARKED) {
          expect(await again.getByTestId(`indicator-${key}`).getByRole('radio', { name: answer, exact: true }).getAttribute('aria-checked')).toBe('true');
        }
        const card = again.getByTestId(`indicator-${PHOTO_ON}`);
        await card.locator('.indicator__head').click();
        await card.getByTestId('new-photo').waitFor();

        for (const answer of REQUIRED_ANSWERS) {
          const required = again.getByTestId(`indicator-${answer.key}`);
          if ('label' in answer) await required.getByRole('radio', { name: answer.label, exact: true }).click();
          else await required.locator('input[type=number]').fill(String(answer.value));
        }
        await again.getByRole('button', { name: slScreens.forms.save }).click();
        await again.getByText(slScreens.states.savedOnline).or(again.getByText(slScreens.states.saved)).first().waitFor();
        await again.getByTestId('form-restored').waitFor({ state: 'detached' });
        await waitForOutboxEmpty(again);
        await waitForKept(again, []);
        // The form has its server id now (the address follows the delivery).
        const deliveredId = Number((await again.evaluate(() => window.location.hash)).split('/').pop());

        const config = await data.config();
        const [key, value] = [await data.col('indicators', 'key'), await data.col('indicators', 'value')];
        const rows = await data.indicatorsOfForm(deliveredId);
        const stored = Object.fromEntries(rows.map((row) => [row.properties[key], row.properties[value]]));
        for (const marked of MARKED) expect(stored[marked.key]).toBe(marked.value);
        const photoRow = rows.find((row) => row.properties[key] === PHOTO_ON)!;
        const slot = config.tables.indicators.attachments!.photos!;
        const list = await data.call<AttachmentInfoList>(DEMO_USERS.farmer1, `/api/Records/${config.projectId}/record/${photoRow.id}/attachmentinfo/${slot}`);
        expect(list.body.attachments).toHaveLength(1);
      });
    } finally {
      await close();
    }
  });
});
