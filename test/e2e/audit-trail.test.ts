/**
 * The editors' audit trail in Chromium against the real server (the built client): an editor
 * corrects a farmer's phone number on the set-up screen, opens "Zgodovina sprememb" from the
 * set-up menu, filters by that farmer, sees who changed what (old → new) and downloads the CSV
 * (BOM, semicolons, the change on its line). The screen is photographed at phone (390×844) and
 * desk (1280×800) size into test-results/e2e/audit/. A farmer has no menu entry, gets the app's
 * not-allowed screen at the route, and a 404 from the server. axe-core finds no critical or
 * serious violation on the screen at either size.
 */
import { expect, jest, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sl, slAudit, slScreens, slSetup } from '../../src/common/i18n/sl';
import type { AuditPage } from '../../src/common/schemas/audit';
import { axeViolations } from './axe';
import { describeApp, fieldDevice } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, keepScreenshot, recordArtifacts } from './harness';
import { DESK_SIZE, PHONE_SIZE, goHash, shootBothSizes, waitForOutboxEmpty } from './scenarios/helpers';

jest.setTimeout(180_000);

const SHOTS = path.join(ARTIFACTS_DIR, 'audit');
/** kmet1 of the demo project. */
const FARMER_NAME = 'Janez Novak';
const OLD_PHONE = '041 123 456';
const NEW_PHONE = '041 999 888';

describeApp('the editors’ audit trail (Chromium)', {}, (e2e) => {
  test('an editor changes a record, finds the change under the farmer and downloads it as CSV', async () => {
    const { data } = e2e;
    const farmerId = await data.farmerId(DEMO_USERS.farmer1.email);
    const { page, log, close } = await e2e.signedIn('editor', { ...fieldDevice({ longitude: 16.15, latitude: 46.83 }), viewport: DESK_SIZE });
    try {
      await recordArtifacts('audit-trail', page, log, async () => {
        await goHash(page, '#/setup/farmers');
        const row = page.getByTestId(`farmer-${farmerId}`);
        await row.getByRole('button', { name: slSetup.common.edit }).click();
        await page.locator('input[name="phone"]').fill(NEW_PHONE);
        await page.getByRole('button', { name: sl.common.save }).click();
        await row.getByText(NEW_PHONE).waitFor();
        await waitForOutboxEmpty(page);

        // On a phone: from the main menu to the set-up menu, then to the trail.
        await page.setViewportSize(PHONE_SIZE);
        await page.getByRole('navigation', { name: sl.nav.label }).getByRole('link', { name: slSetup.nav }).click();
        await page.getByRole('link', { name: new RegExp(slAudit.title) }).click();
        await page.getByRole('heading', { level: 1, name: slAudit.title }).waitFor();
        await page.getByTestId('audit-entry').first().waitFor();

        await page.getByLabel(slAudit.farmer, { exact: true }).selectOption({ label: FARMER_NAME });
        const change = page.getByTestId('audit-entry').filter({ hasText: `telefon: ${OLD_PHONE} → ${NEW_PHONE}` });
        await change.waitFor();
        await expect(change.getByText(DEMO_USERS.editor.email).count()).resolves.toBe(1);
        await expect(change.getByText(slAudit.tables.farmers).count()).resolves.toBe(1);
        // The record by what an adviser knows it as (its name), not by its id.
        await expect(
          change
            .getByRole('link', { name: FARMER_NAME })
            .or(change.getByText(FARMER_NAME, { exact: true }))
            .count(),
        ).resolves.toBeGreaterThanOrEqual(1);
        await expect(change.getByText(String(farmerId), { exact: true }).count()).resolves.toBe(0);
        // The phone layout: one card per change, nothing wider than a 360 px screen.
        await page.setViewportSize({ width: 360, height: 800 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await page.setViewportSize(PHONE_SIZE);
        await expect(axeViolations(page)).resolves.toEqual([]);
        await shootBothSizes(page, SHOTS, 'farmer-filter');
        await expect(axeViolations(page)).resolves.toEqual([]);

        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: slAudit.downloadCsv }).click()]);
        expect(download.suggestedFilename()).toMatch(/^zgodovina-sprememb-\d{4}-\d{2}-\d{2}\.csv$/);
        const bytes = readFileSync((await download.path())!);
        expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        const lines = bytes.subarray(3).toString('utf8').split('\r\n');
        expect(lines[0]).toBe('Čas;Uporabnik;Dejanje;Tabela;Zapis;Stolpec;Prej;Potem');
        expect(lines).toContainEqual(
          expect.stringMatching(
            new RegExp(`;${DEMO_USERS.editor.email};spremenjeno;Kmetje;${FARMER_NAME} \\(${farmerId}\\);telefon;${OLD_PHONE};${NEW_PHONE}$`),
          ),
        );
        // Only that farmer's rows: every line names a record of theirs (the farmer row here).
        const trail = await data.call<AuditPage>(DEMO_USERS.editor, `/api/Audit/1?farmerId=${farmerId}&perPage=200`);
        expect(lines.filter((l) => l && l !== lines[0]).length).toBeGreaterThanOrEqual(trail.body.entries.length);
      });
    } finally {
      await close();
    }
  });

  test("a form's own history names what an adviser knows (the plant, the season link, the state), never a bare id", async () => {
    const { data } = e2e;
    const [transect] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const [form] = await data.formsOfPath(transect!.id);
    const [indicator] = await data.indicatorsOfForm(form!.id);
    // A change under the form (an indicator's note) belongs to its history too.
    const noteCol = await data.col('indicators', 'note');
    const changed = await data.call(DEMO_USERS.editor, `/api/Records/1/${await data.tableId('indicators')}/${indicator!.id}`, {
      method: 'PUT',
      body: { properties: { [noteCol]: 'Preveril svetovalec' }, version: indicator!.version },
    });
    expect(changed.status).toBe(200);
    // A comment points at the form (a reference): its insert names the form, not its id.
    const comment = await data.call(DEMO_USERS.editor, '/api/Records/1', {
      body: {
        tableId: await data.tableId('comments'),
        properties: { [await data.col('comments', 'parent')]: form!.id, [await data.col('comments', 'text')]: 'Lepo popisano.' },
      },
    });
    expect(comment.status).toBe(201);
    const { page, log, close } = await e2e.signedIn('editor', { ...fieldDevice({ longitude: 16.15, latitude: 46.83 }), viewport: DESK_SIZE });
    try {
      await recordArtifacts('audit-form-history', page, log, async () => {
        await goHash(page, `#/forms/${form!.id}`);
        await page.getByText(slScreens.forms.history, { exact: true }).click();
        const history = page.getByTestId('record-history');
        await history
          .getByText('opomba: — → Preveril svetovalec')
          .or(history.getByText(/opomba: .+ → Preveril svetovalec/))
          .first()
          .waitFor();
        const text = (await history.textContent()) ?? '';
        expect(text).toContain(DEMO_USERS.editor.email);
        expect(text).toContain(`${slAudit.columns.text}: ${slAudit.empty} → Lepo popisano.`);
        // The form as a record is named by its kind (the screen's heading), path and season.
        const kindTitle = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
        expect(kindTitle).not.toBe('');
        expect(text).toContain(`${slAudit.columns.parent}: ${slAudit.empty} → ${kindTitle} · `);
        // Every reference by its name: no record id in the whole list.
        expect(text).not.toMatch(/\b1\d{7}\b/);
        await shootBothSizes(page, SHOTS, 'form-history');
        await keepScreenshot(page.locator('details.history'), path.join(SHOTS, 'form-history-list.png'));
        await expect(axeViolations(page)).resolves.toEqual([]);
      });
    } finally {
      await close();
    }
  });

  test('a farmer has no way in: no menu entry, the not-allowed screen, 404 from the server', async () => {
    const { data } = e2e;
    const { page, log, close } = await e2e.signedIn('farmer1', { ...fieldDevice({ longitude: 16.15, latitude: 46.83 }), viewport: PHONE_SIZE });
    try {
      await recordArtifacts('audit-trail-farmer', page, log, async () => {
        const nav = page.getByRole('navigation', { name: sl.nav.label });
        await nav.getByRole('link', { name: sl.nav.paths }).waitFor();
        await expect(nav.getByRole('link', { name: slSetup.nav }).count()).resolves.toBe(0);
        await goHash(page, '#/setup/audit');
        await page.getByText(slSetup.blockedFarmer).waitFor();
        await expect(page.getByRole('heading', { name: slAudit.title }).count()).resolves.toBe(0);
      });
    } finally {
      await close();
    }
    expect((await data.call(DEMO_USERS.farmer1, '/api/Audit/1')).status).toBe(404);
    expect((await data.call(DEMO_USERS.reader, '/api/Audit/1')).status).toBe(403);
  });
});
