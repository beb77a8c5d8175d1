/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The scheme's loop in Chromium, a farmer and an adviser on two devices against the real server
 * (docs/architecture.md, The review loop). The farmer fills in a meadow form and submits it
 * offline; online, it reaches the adviser's "Pregled", who returns it with a reason naming a plant.
 * The farmer, offline again, reads the reason and the thread from the device, ticks the plant,
 * replies and resubmits; the adviser approves; the farmer's form and results say approved, with the
 * informative payment. Second case: the farmer edits a form offline while the adviser decides it:
 * back online the edit is not applied and not lost — the farmer is asked, and sends it to the
 * adviser as a comment. Both devices' QA action logs are exported from /about and replay to the
 * state the browser logged (action-logs.ts).
 */
import path from 'node:path';
import { expect, jest, test } from '@jest/globals';
import type { BrowserContext, Page } from 'playwright-core';
import { sl, slReview, slReviewFarmer, slReviewQueue, slScreens, slSync } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { axeViolations } from '../axe';
import { describeApp, fieldDevice, type Role } from '../fixture';
import { DEMO_USERS, recordArtifacts } from '../harness';
import { exportActionLogFromAbout, replayExportedLog } from './action-logs';
import {
  DESK_SIZE,
  REQUIRED_ANSWERS,
  goHash,
  openNewMeadowForm,
  shootBothSizes,
  waitForOutboxEmpty,
  waitForServiceWorkerControl,
  homePathRow,
} from './helpers';

jest.setTimeout(300_000);

/** The plant the adviser asks about: one the required answers do not tick. */
const PLANT = FORM_KINDS.travnik.indicators.find((d) => d.latin !== undefined && d.valueKind === 'presence')!;
const PHONE_360 = { width: 360, height: 780 };
/** Photographs of the screens at phone and desk size, to look at (not compared). */
const SHOTS = path.join(process.cwd(), 'test-results', 'e2e', 'review-loop');

describeApp('the review loop: submit, return with a reason, fix offline, resubmit, approve (Chromium, two devices)', {}, (e2e) => {
  async function serverForm(id: number): Promise<WireRecord> {
    const form = (await e2e.data.rows('forms')).find((row) => row.id === id);
    if (!form) throw new Error(`form ${id} is not on the server`);
    return form;
  }

  async function reviewState(id: number): Promise<unknown> {
    return (await serverForm(id)).properties[await e2e.data.col('forms', 'review_state')] ?? null;
  }

  async function setOffline(context: BrowserContext, page: Page, offline: boolean): Promise<void> {
    await context.setOffline(offline);
    await page
      .locator(offline ? '.conn-status--offline' : '.conn-status--online')
      .first()
      .waitFor();
  }

  /**
   * A farmer at their first path: a new meadow form with the required answers, marked completed
   * and saved online (delivered). Answers the farmer's device and the form's server id.
   */
  async function filledForm(farmer: Role) {
    const [path] = await e2e.data.pathsOf(DEMO_USERS[farmer].email);
    const before = await e2e.data.formsOfPath(path!.id);
    const [lon, lat] = (path!.geometry as { coordinates: number[][] }).coordinates[0]!;
    const device = await e2e.signedIn(farmer, { ...fieldDevice({ longitude: lon!, latitude: lat! }), viewport: PHONE_360 });
    const { page } = device;
    await homePathRow(page, path!.id).waitFor();
    await waitForServiceWorkerControl(page);
    await openNewMeadowForm(page, path!.id);
    for (const answer of REQUIRED_ANSWERS) {
      const card = page.getByTestId(`indicator-${answer.key}`);
      if ('label' in answer) await card.getByRole('radio', { name: answer.label, exact: true }).click();
      else await card.locator('input[type=number]').fill(String(answer.value));
    }
    await page.getByLabel(slScreens.forms.markCompleted).check();
    await page.getByRole('button', { name: slScreens.forms.save }).click();
    await page.getByText(slScreens.states.savedOnline, { exact: true }).waitFor();
    await waitForOutboxEmpty(page);
    const created = (await e2e.data.formsOfPath(path!.id)).filter((form) => !before.some((b) => b.id === form.id));
    expect(created).toHaveLength(1);
    // The address follows the delivered form to its server id.
    await page.waitForFunction((id) => window.location.hash === `#/forms/${id}`, created[0]!.id);
    return { ...device, formId: created[0]!.id, pathId: path!.id };
  }

  test('a farmer submits offline, the adviser returns it naming a plant, the farmer fixes it offline and resubmits, the adviser approves', async () => {
    const farmer = await filledForm('farmer1');
    const adviser = await e2e.signedIn('editor', { hash: '#/review', viewport: DESK_SIZE });
    const { page, context, formId } = farmer;
    try {
      await recordArtifacts('review-loop-farmer', page, farmer.log, async () => {
        // 1. Offline, the farmer submits: queued on the device, sent once online.
        await setOffline(context, page, true);
        await page.getByRole('button', { name: slReview.move.submitted }).click();
        // Stored on the device: the form is the farmer's no longer, and the header counts the edit.
        await page.getByText(slReviewFarmer.review.locked(slReview.state.submitted)).waitFor();
        await page.getByText(sl.header.pendingEdits(1)).first().waitFor();
        expect(await reviewState(formId)).toBeNull();
        await setOffline(context, page, false);
        await waitForOutboxEmpty(page);
        expect(await reviewState(formId)).toBe('submitted');
      });

      await recordArtifacts('review-loop-adviser', adviser.page, adviser.log, async () => {
        // 2. The adviser finds it in "Pregled" and returns it, naming the plant.
        const a = adviser.page;
        await a.reload();
        const row = a.locator(`[data-testid="review-row"][data-form-id="${formId}"]`);
        await row.waitFor();
        await expect(axeViolations(a)).resolves.toEqual([]);
        await row.getByRole('link').first().click();
        const decision = a.getByTestId('review-decision');
        await decision.getByRole('button', { name: slReview.move.returned }).click();
        await decision.getByLabel(slReviewQueue.decision.reason, { exact: true }).fill(`Na poti raste ${PLANT.name}, označite jo.`);
        await decision.getByLabel(slReviewQueue.decision.indicator).selectOption({ label: PLANT.name });
        await expect(axeViolations(a)).resolves.toEqual([]);
        await shootBothSizes(a, SHOTS, 'adviser-return');
        await decision.getByRole('button', { name: slReviewQueue.decision.save }).click();
        await decision.getByText(slReviewQueue.decision.sent).waitFor();
        expect(await reviewState(formId)).toBe('returned');
      });

      await recordArtifacts('review-loop-farmer-fix', page, farmer.log, async () => {
        // 3. The farmer's device learns it online, then works offline: reason, thread, the plant.
        await page.reload();
        await page.getByText(slReview.state.returned).first().waitFor();
        await setOffline(context, page, true);
        await page.reload();
        await page.getByText(`Na poti raste ${PLANT.name}, označite jo.`).first().waitFor();
        await page.getByTestId('review-thread').getByText(`Na poti raste ${PLANT.name}`).waitFor();
        // The returned form opens at the plant the adviser named.
        const card = page.getByTestId(`indicator-${PLANT.key}`);
        await card.getByText(slReviewFarmer.review.flagged).waitFor();
        await expect(axeViolations(page)).resolves.toEqual([]);
        await shootBothSizes(page, SHOTS, 'farmer-returned-offline');
        await page.setViewportSize(PHONE_360);
        await card.getByRole('radio', { name: slScreens.forms.yes, exact: true }).click();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
        const thread = page.getByTestId('review-thread');
        await thread.getByLabel(slReviewFarmer.thread.replyLabel).fill('Označeno, hvala.');
        await thread.getByRole('button', { name: slReviewFarmer.thread.reply }).click();
        await thread.getByTestId('comment-waiting').first().waitFor();
        await page.getByRole('button', { name: slReview.move.submitted }).click();
        await page.getByText(slReviewFarmer.review.locked(slReview.state.submitted)).waitFor();
        await setOffline(context, page, false);
        await waitForOutboxEmpty(page);
      });
      expect(await reviewState(formId)).toBe('submitted');
      const comments = await e2e.data.rows('comments');
      const textCol = await e2e.data.col('comments', 'text');
      const parentCol = await e2e.data.col('comments', 'parent');
      expect(comments.filter((c) => c.properties[parentCol] === formId).map((c) => c.properties[textCol])).toEqual(
        expect.arrayContaining([`Na poti raste ${PLANT.name}, označite jo.`, 'Označeno, hvala.']),
      );

      await recordArtifacts('review-loop-approve', adviser.page, adviser.log, async () => {
        // 4. The adviser approves.
        const a = adviser.page;
        await a.reload();
        const decision = a.getByTestId('review-decision');
        await decision.getByTestId('review-state').getByText(slReview.state.submitted).waitFor();
        await decision.getByRole('button', { name: slReview.move.approved }).click();
        await decision.getByRole('button', { name: slReviewQueue.decision.save }).click();
        await decision.getByText(slReviewQueue.decision.sent).waitFor();
      });
      expect(await reviewState(formId)).toBe('approved');

      await recordArtifacts('review-loop-results', page, farmer.log, async () => {
        // 5. The farmer sees the decision and the informative payment.
        await page.reload();
        await page.getByText(slReview.state.approved).first().waitFor();
        await page.getByText(slReview.payment.title).first().waitFor();
        await goHash(page, '#/results');
        await page.getByText(slReviewFarmer.results.title).waitFor();
        await page.getByText(slReview.state.approved).first().waitFor();
        await expect(axeViolations(page)).resolves.toEqual([]);
        await shootBothSizes(page, SHOTS, 'farmer-results');
        // QA: the farmer's action log holds the moves and replays to the same state.
        const exported = await exportActionLogFromAbout(page);
        await replayExportedLog('farmer-review-loop', 'review-loop.test.ts: the farmer submits, fixes and resubmits', exported, farmer.log);
        expect(exported.text).toContain('sync/editsSaved');
      });
      await recordArtifacts('review-loop-adviser-log', adviser.page, adviser.log, async () => {
        const exported = await exportActionLogFromAbout(adviser.page);
        await replayExportedLog('adviser-review-loop', 'review-loop.test.ts: the adviser returns and approves', exported, adviser.log);
      });
    } finally {
      await adviser.close();
      await farmer.close();
    }
  });

  test('the farmer edits a form offline while the adviser decides it: asked back online, the edit reaches the adviser as a comment', async () => {
    const farmer = await filledForm('farmer2');
    const { page, context, formId } = farmer;
    try {
      await recordArtifacts('review-loop-locked', page, farmer.log, async () => {
        // Offline, the farmer changes the note of the draft form.
        await setOffline(context, page, true);
        await page.getByLabel(slScreens.forms.formNote).fill('Popoldne je še cvetel travniški kukavičnik.');
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();

        // Meanwhile the adviser submits it on the farmer's behalf and approves it.
        const config = await e2e.data.config();
        for (const state of ['submitted', 'approved']) {
          const current = await serverForm(formId);
          const { status } = await e2e.data.call(DEMO_USERS.editor, `/api/Records/${config.projectId}/${config.tables.forms.id}/${formId}`, {
            method: 'PUT',
            body: { properties: { [await e2e.data.col('forms', 'review_state')]: state }, version: current.version },
          });
          expect(status).toBe(200);
        }

        // Back online: not applied, not dropped — the farmer decides.
        await context.setOffline(false);
        await page.getByTestId('conn-status').locator('.conn-status__alert').waitFor();
        await page.getByTestId('conn-status').click();
        const item = page.locator('.sync-panel__item--conflict');
        await item.waitFor();
        expect(await item.textContent()).toContain(slSync.sync.lockedExplain.replace('{state}', slReview.state.approved));
        expect(await item.textContent()).not.toContain(slSync.sync.keepMine);
        await item.getByRole('button', { name: slSync.sync.sendAsComment }).click();
        await waitForOutboxEmpty(page);
        await page.getByRole('button', { name: sl.common.close }).click();
      });
      const form = await serverForm(formId);
      expect(form.properties[await e2e.data.col('forms', 'review_state')]).toBe('approved');
      expect(form.properties[await e2e.data.col('forms', 'note')] ?? null).not.toBe('Popoldne je še cvetel travniški kukavičnik.');
      const textCol = await e2e.data.col('comments', 'text');
      const parentCol = await e2e.data.col('comments', 'parent');
      const sent = (await e2e.data.rows('comments')).filter((c) => c.properties[parentCol] === formId).map((c) => String(c.properties[textCol]));
      expect(sent.some((text) => text.includes('Popoldne je še cvetel travniški kukavičnik.'))).toBe(true);
    } finally {
      await farmer.close();
    }
  });
});
