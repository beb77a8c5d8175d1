/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Two people change the same form, in Chromium against the real server: a farmer edits a form's
 * note offline while an adviser changes the same note on the server. Back online, the farmer's
 * edit is refused as a version conflict and waits for them. The header must say so (a conflict is
 * not "sent"), the sync panel must name the record and show both values, and each choice must
 * end with the outbox empty: "keep mine" puts the farmer's note on the server, "take theirs" puts
 * the adviser's note on the device and in the open form. An edit of a form the adviser deleted
 * meanwhile is refused: the farmer is told why, in Slovenian, and discards it.
 */
import { expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { sl, slAudit, slScreens, slSync } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { describeApp, fieldDevice, type Role } from '../fixture';
import { DEMO_USERS, recordArtifacts } from '../harness';
import { addMeadowForm, goHash, waitForOutboxEmpty, waitForServiceWorkerControl, homePathRow } from './helpers';

jest.setTimeout(240_000);

describeApp('an edit that meets another change on the server (Chromium)', {}, (e2e) => {
  /** The form's note as the adviser (editor) sets it on the server, without looking at versions. */
  async function adviserSetsNote(form: WireRecord, note: string): Promise<void> {
    const config = await e2e.data.config();
    const { status, body } = await e2e.data.call(DEMO_USERS.editor, `/api/Records/${config.projectId}/${config.tables.forms.id}/${form.id}`, {
      method: 'PUT',
      body: { properties: { [await e2e.data.col('forms', 'note')]: note } },
    });
    if (status !== 200) throw new Error(`the adviser's edit: ${status} ${JSON.stringify(body)}`);
  }

  async function serverForm(id: number): Promise<WireRecord> {
    const form = (await e2e.data.rows('forms')).find((row) => row.id === id);
    if (!form) throw new Error(`form ${id} is not on the server`);
    return form;
  }

  /** Offline, the farmer writes `note` into the open form and saves it on the device. */
  async function farmerSavesNoteOffline(page: Page, setOffline: (offline: boolean) => Promise<void>, note: string): Promise<void> {
    await setOffline(true);
    await page.locator('.conn-status--offline').waitFor();
    await page.getByLabel(slScreens.forms.formNote).fill(note);
    await page.getByRole('button', { name: slScreens.forms.save }).click();
    await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
  }

  /** The header's mark of edits waiting for the user's decision. */
  const decisionMark = (page: Page) => page.getByTestId('conn-status').locator('.conn-status__alert');

  /**
   * Back online: the edit is refused and waits for the farmer; the header says so and the sync
   * panel shows it. Answers the panel's item of that `status`.
   */
  async function refusalShown(page: Page, setOffline: (offline: boolean) => Promise<void>, status: 'conflict' | 'failed') {
    await setOffline(false);
    // The header tells the farmer that an edit waits for them, even with nothing left to send.
    await decisionMark(page).waitFor();
    expect(await page.getByTestId('conn-status').textContent()).toContain(sl.header.needsDecision(1));
    await page.getByTestId('conn-status').click();
    const item = page.locator(`.sync-panel__item--${status}`);
    await item.waitFor();
    expect(await page.getByTestId('sync-pending').textContent()).toBe(sl.header.needsDecision(1));
    expect(await item.getByTestId('sync-item-record').textContent()).toBe(`${slAudit.tables.forms}: ${FORM_KINDS.travnik.title}`);
    return item;
  }

  /** The user's choice settled the item: nothing left in the outbox, no mark in the header. */
  async function settled(page: Page): Promise<void> {
    await waitForOutboxEmpty(page);
    await decisionMark(page).waitFor({ state: 'detached' });
  }

  /**
   * A farmer signed in on a field page at their first path, with a new meadow form made online
   * and delivered (the device holds it at the server's version), open on the screen. Runs `steps`
   * with it (artifacts kept under `name` when they fail); answers the path's forms before.
   */
  async function withDeliveredForm(
    farmer: Role,
    name: string,
    steps: (page: Page, setOffline: (offline: boolean) => Promise<void>, form: WireRecord) => Promise<void>,
  ): Promise<{ pathId: number; formsBefore: WireRecord[] }> {
    const [path] = await e2e.data.pathsOf(DEMO_USERS[farmer].email);
    const formsBefore = await e2e.data.formsOfPath(path!.id);
    const [lon, lat] = (path!.geometry as { coordinates: number[][] }).coordinates[0]!;
    const { context, page, log, close } = await e2e.signedIn(farmer, fieldDevice({ longitude: lon!, latitude: lat! }));
    try {
      await recordArtifacts(name, page, log, async () => {
        await homePathRow(page, path!.id).waitFor();
        await waitForServiceWorkerControl(page);
        await addMeadowForm(page, path!.id);
        await page.getByText(slScreens.states.savedOnline, { exact: true }).waitFor();
        await waitForOutboxEmpty(page);
        const created = (await e2e.data.formsOfPath(path!.id)).filter((form) => !formsBefore.some((before) => before.id === form.id));
        expect(created).toHaveLength(1);
        await steps(page, (offline) => context.setOffline(offline), created[0]!);
      });
    } finally {
      await close();
    }
    return { pathId: path!.id, formsBefore };
  }

  test('the farmer is told, sees both notes, and either choice leaves one agreed note on both sides', async () => {
    await withDeliveredForm('farmer1', 'edit-conflict', async (page, setOffline, form) => {
      const noteCol = await e2e.data.col('forms', 'note');

      // 1. Keep mine: the farmer's note goes to the server, on top of the adviser's version.
      await farmerSavesNoteOffline(page, setOffline, 'Pokošeno 20. junija.');
      await adviserSetsNote(form, 'Svetovalec: pokošeno prezgodaj.');
      let item = await refusalShown(page, setOffline, 'conflict');
      const noteRow = item.locator('tr', { has: page.getByRole('rowheader', { name: slAudit.columns.note, exact: true }) });
      expect(await noteRow.locator('td').allTextContents()).toEqual(['Pokošeno 20. junija.', 'Svetovalec: pokošeno prezgodaj.']);
      await item.getByRole('button', { name: slSync.sync.keepMine }).click();
      await settled(page);
      expect((await serverForm(form.id)).properties[noteCol]).toBe('Pokošeno 20. junija.');
      await page.getByRole('button', { name: sl.common.close }).click();

      // 2. Take theirs: the adviser's note stays on the server and replaces the farmer's on the device.
      await goHash(page, `#/forms/${form.id}`);
      await page.getByLabel(slScreens.forms.formNote).waitFor();
      await farmerSavesNoteOffline(page, setOffline, 'Drugič pokošeno 1. avgusta.');
      await adviserSetsNote(form, 'Svetovalec: druga košnja ni bila potrebna.');
      item = await refusalShown(page, setOffline, 'conflict');
      await item.getByRole('button', { name: slSync.sync.takeTheirs }).click();
      await settled(page);
      expect(await page.getByTestId('sync-pending').textContent()).toBe(slSync.sync.allSent);
      await page.getByRole('button', { name: sl.common.close }).click();
      expect((await serverForm(form.id)).properties[noteCol]).toBe('Svetovalec: druga košnja ni bila potrebna.');
      await page.waitForFunction(
        ([label, note]) =>
          [...document.querySelectorAll('label.field')].some((field) => field.textContent?.includes(label!) && field.querySelector('textarea')?.value === note),
        [slScreens.forms.formNote, 'Svetovalec: druga košnja ni bila potrebna.'],
      );
    });
  });

  test('an edit of a form the adviser deleted meanwhile: refused, said why in Slovenian, discarded by the farmer', async () => {
    const { pathId, formsBefore } = await withDeliveredForm('farmer2', 'edit-of-deleted-form', async (page, setOffline, form) => {
      await farmerSavesNoteOffline(page, setOffline, 'Pokošeno 20. junija.');
      const config = await e2e.data.config();
      const deleted = await e2e.data.call(DEMO_USERS.editor, `/api/Records/${config.projectId}/delete`, {
        body: { tableId: config.tables.forms.id, ids: [form.id] },
      });
      expect(deleted.status).toBe(200);

      const item = await refusalShown(page, setOffline, 'failed');
      expect(await item.locator('.sync-panel__item-message').textContent()).toContain(slSync.sync.refusedBecause[404]);
      await item.getByRole('button', { name: slSync.sync.discard }).click();
      await settled(page);
      expect(await page.getByTestId('sync-pending').textContent()).toBe(slSync.sync.allSent);
    });
    // Nothing came back: the form stays deleted on the server.
    expect((await e2e.data.formsOfPath(pathId)).map((row) => row.id).sort()).toEqual(formsBefore.map((row) => row.id).sort());
  });
});
