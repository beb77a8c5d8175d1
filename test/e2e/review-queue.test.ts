/**
 * The advisers' review queue ("Pregled") in Chromium against the real server (the built client):
 * two of the demo's approved forms are reopened over the API, the editor's navigation counts them,
 * the queue lists them oldest first with the state as a word, and "Potrdi izbrane" approves one
 * through the outbox: the report says the server accepted it, and the server holds the move with
 * the editor as who. Photographed at phone (390×844) and desk (1280×800) size into
 * test-results/e2e/review/; no horizontal overflow at 360 px; axe-core finds no critical or serious
 * violation.
 */
import { expect, jest, test } from '@jest/globals';
import path from 'node:path';
import { sl, slReview, slReviewQueue } from '../../src/common/i18n/sl';
import { axeViolations } from './axe';
import { describeApp } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, recordArtifacts } from './harness';
import { DESK_SIZE, shootBothSizes, waitForOutboxEmpty } from './scenarios/helpers';

jest.setTimeout(180_000);

const SHOTS = path.join(ARTIFACTS_DIR, 'review');

describeApp('the advisers’ review queue (Chromium)', {}, (e2e) => {
  test('an adviser sees the waiting forms, counted in the navigation, and approves one', async () => {
    const { data } = e2e;
    const state = await data.col('forms', 'review_state');
    const by = await data.col('forms', 'reviewed_by');
    const formsTable = await data.tableId('forms');
    const approved = (await data.rows('forms')).filter((f) => f.properties[state] === 'approved').slice(0, 2);
    expect(approved).toHaveLength(2);
    // Reopened one after the other: the first waits longest.
    for (const form of approved) {
      const reopened = await data.call(DEMO_USERS.editor, `/api/Records/1/${formsTable}/${form.id}`, {
        method: 'PUT',
        body: { properties: { [state]: 'submitted', [await data.col('forms', 'review_reason')]: 'Ponovno preverite oceno.' }, version: form.version },
      });
      expect(reopened.status).toBe(200);
    }

    const { page, log, close } = await e2e.signedIn('editor', { viewport: DESK_SIZE });
    try {
      await recordArtifacts('review-queue', page, log, async () => {
        const nav = page.getByRole('navigation', { name: sl.nav.label });
        await nav.getByRole('link', { name: new RegExp(slReviewQueue.waiting(2)) }).waitFor();
        await nav.getByRole('link', { name: new RegExp(slReviewQueue.nav) }).click();
        await page.getByRole('heading', { level: 1, name: slReviewQueue.title }).waitFor();
        const rows = page.getByTestId('review-row');
        await rows.nth(1).waitFor();
        await expect(rows.count()).resolves.toBe(2);
        await expect(rows.nth(0).getAttribute('data-form-id')).resolves.toBe(String(approved[0]!.id));
        await expect(rows.nth(0).getByText(slReview.state.submitted).count()).resolves.toBe(1);

        await page.setViewportSize({ width: 360, height: 800 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await shootBothSizes(page, SHOTS, 'queue');
        await expect(axeViolations(page)).resolves.toEqual([]);

        await rows.nth(0).getByRole('checkbox').check();
        await page.getByRole('button', { name: slReviewQueue.approveSelected(1) }).click();
        await waitForOutboxEmpty(page);
        await page
          .getByTestId('bulk-sent')
          .filter({ hasText: slReviewQueue.bulk.sent(1, 1) })
          .waitFor();
        // The delivered move reads the queue and the count again.
        await nav.getByRole('link', { name: new RegExp(slReviewQueue.waiting(1)) }).waitFor();
        await expect(rows.count()).resolves.toBe(1);
        await shootBothSizes(page, SHOTS, 'approved');
        await expect(axeViolations(page)).resolves.toEqual([]);

        const stored = (await data.rows('forms')).find((f) => f.id === approved[0]!.id)!;
        expect(stored.properties).toMatchObject({ [state]: 'approved', [by]: DEMO_USERS.editor.email });
      });
    } finally {
      await close();
    }
  });
});
