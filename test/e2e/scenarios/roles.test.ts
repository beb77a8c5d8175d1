/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Role scenarios 2–4 (test/e2e/README.md) in Chromium against the real server (one server and one browser for the
 * file; each scenario gets fresh browser contexts):
 *  2. two farmers cannot see each other's data, even by typing URLs with the other's ids (the
 *     screens say "not yours", the API answers 404 — no existence leak, docs/architecture.md, Roles); also on one
 *     shared phone after the first signs out (his rows leave the device);
 *  3. an editor archives a path on the path screen; the farmer, back online, no longer sees it;
 *  4. a reader sees results and cannot change anything: no edit controls, forced writes → 403,
 *     the server's rows unchanged.
 * Each asserts on the server's data afterwards, not only on the page. At the end of each, the
 * pages' action logs are exported from /about and replayed headless (action-logs.ts; fixtures
 * with UPDATE_ACTION_LOGS=1).
 */
import { beforeAll, expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { sl, slAuth, slMap, slScreens } from '../../../src/common/i18n/sl';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { describeApp } from '../fixture';
import { DEMO_USERS, LOGIN_PAGE_PATTERN, recordArtifacts, signInThroughLoginPage } from '../harness';
import { exportActionLogFromAbout, replayExportedLog } from './action-logs';
import { deviceHasFeature, goHash, waitForOutboxEmpty, waitForServiceWorkerControl, homePathRow } from './helpers';

jest.setTimeout(180_000);

describeApp('scenarios: who sees and changes what (Chromium)', {}, (e2e) => {
  let farmer1Paths: WireRecord[];
  let farmer1Form: WireRecord;

  beforeAll(async () => {
    const { data } = e2e;
    farmer1Paths = await data.pathsOf(DEMO_USERS.farmer1.email);
    expect(farmer1Paths.length).toBeGreaterThanOrEqual(2);
    farmer1Form = (await data.formsOfPath(farmer1Paths[0]!.id))[0]!;
    expect(farmer1Form).toBeDefined();
  });

  /** Editors and readers pick a farmer on the home screen before the path and form screens show theirs. */
  async function chooseFarmer(page: Page, email: string): Promise<void> {
    const farmerId = await e2e.data.farmerId(email);
    await goHash(page, '#/');
    const row = page.getByTestId(`farmer-${farmerId}`);
    await row.getByRole('button', { name: slScreens.farmers.choose }).click();
    await row.getByRole('button', { name: slScreens.farmers.chosen }).waitFor();
  }

  test("2. farmers cannot see each other's data, even by typing URLs with the other's ids", async () => {
    const { data } = e2e;
    const [ownPath] = await data.pathsOf(DEMO_USERS.farmer2.email);
    const { page, log, close } = await e2e.signedIn('farmer2');
    try {
      await recordArtifacts('scenario-2-farmers-apart', page, log, async () => {
        // Her own path shows (so "not shown" below is about ownership, not a broken screen).
        await homePathRow(page, ownPath!.id).waitFor();
        expect(await page.getByTestId(`home-path-${farmer1Paths[0]!.id}`).count()).toBe(0);

        await goHash(page, `#/paths/${farmer1Paths[0]!.id}`);
        await page.getByText(slScreens.paths.notFound).waitFor();
        expect(await page.getByText(String(farmer1Paths[0]!.properties[await data.col('paths', 'name')])).count()).toBe(0);
        expect(await page.getByRole('button', { name: slMap.recording.start }).count()).toBe(0);

        await goHash(page, `#/forms/${farmer1Form.id}`);
        await page.getByText(slScreens.forms.notFound).waitFor();
        expect(await page.getByRole('button', { name: slScreens.forms.save }).count()).toBe(0);

        // The server answers as if the records did not exist, for reads and writes alike.
        const pathsTable = await data.tableId('paths');
        const formsTable = await data.tableId('forms');
        expect((await data.call(DEMO_USERS.farmer2, `/api/Records/1/${pathsTable}/${farmer1Paths[0]!.id}`)).status).toBe(404);
        expect((await data.call(DEMO_USERS.farmer2, `/api/Records/1/${formsTable}/${farmer1Form.id}`)).status).toBe(404);
        expect((await data.call(DEMO_USERS.farmer2, `/api/Features/1/${pathsTable}/${farmer1Paths[0]!.id}`)).status).toBe(404);
        const write = await data.call(DEMO_USERS.farmer2, `/api/Records/1/${formsTable}/${farmer1Form.id}`, {
          method: 'PUT',
          body: { properties: { [await data.col('forms', 'note')]: 'tuje' }, version: farmer1Form.version },
        });
        expect(write.status).toBe(404);
        // Her searches never return his rows.
        const hers = await data.rows('paths', DEMO_USERS.farmer2);
        expect(hers.map((p) => p.id)).not.toEqual(expect.arrayContaining([farmer1Paths[0]!.id]));
        expect(hers.map((p) => p.id)).toContain(ownPath!.id);
        // And nothing changed on his form.
        const after = (await data.rows('forms')).find((f) => f.id === farmer1Form.id)!;
        expect(after.version).toBe(farmer1Form.version);
        expect(after.properties).toEqual(farmer1Form.properties);

        await replayExportedLog('farmers-apart', "scenario 2 (roles.test.ts): kmet2 types kmet1's ids", await exportActionLogFromAbout(page), log);
      });
    } finally {
      await close();
    }
  });

  test('2b. on a shared phone, the next farmer finds nothing of the one who signed out', async () => {
    const { data } = e2e;
    const target = farmer1Paths[0]!;
    const { context, page, log, close } = await e2e.signedIn('farmer1');
    try {
      await recordArtifacts('scenario-2b-shared-device', page, log, async () => {
        await homePathRow(page, target.id).waitFor();
        expect(await deviceHasFeature(page, await data.tableId('paths'), target.id)).toBe(true);

        // He signs out on /about; the provider sends the browser back to the app, which asks for a login.
        await goHash(page, '#/about');
        await page.getByRole('button', { name: slAuth.session.signOut }).click();
        await page.waitForURL(LOGIN_PAGE_PATTERN, { timeout: 60_000 });
        await signInThroughLoginPage(page, DEMO_USERS.farmer2);
        await page.waitForFunction(() => window.localStorage.getItem('token') !== null);
        const [ownPath] = await data.pathsOf(DEMO_USERS.farmer2.email);
        await homePathRow(page, ownPath!.id).waitFor();
        expect(await page.getByTestId(`home-path-${target.id}`).count()).toBe(0);
        await goHash(page, `#/paths/${target.id}`);
        await page.getByText(slScreens.paths.notFound).waitFor();
        // Nor does the device still hold his rows.
        expect(await deviceHasFeature(page, await data.tableId('paths'), target.id)).toBe(false);
        // An offline reload is served by the service worker: it must have installed first.
        await waitForServiceWorkerControl(page);
        await context.setOffline(true);
        await page.reload();
        await page.waitForSelector('main h1');
        await goHash(page, `#/paths/${target.id}`);
        await page.getByText(slScreens.paths.notFound).waitFor();

        // One device, two users, a sign-out and an offline reload: every session replays.
        const result = await replayExportedLog(
          'shared-device',
          'scenario 2b (roles.test.ts): kmet1 signs out, kmet2 signs in',
          await exportActionLogFromAbout(page),
          log,
        );
        expect(result.sessions).toBeGreaterThanOrEqual(3);
      });
    } finally {
      await close();
    }
  });

  test('3. an editor archives a path; the farmer no longer sees it after sync', async () => {
    const { data } = e2e;
    const target = farmer1Paths[farmer1Paths.length - 1]!;
    const farmer = await e2e.signedIn('farmer1');
    const editor = await e2e.signedIn('editor');
    try {
      await recordArtifacts('scenario-3-farmer', farmer.page, farmer.log, async () => {
        await homePathRow(farmer.page, target.id).waitFor();
        // Online for real (the reachability probe answered, the season came from the server),
        // then out in the field while the editor works.
        await farmer.page.locator('.conn-status--online').waitFor();
        await farmer.context.setOffline(true);
      });

      await recordArtifacts('scenario-3-editor', editor.page, editor.log, async () => {
        await chooseFarmer(editor.page, DEMO_USERS.farmer1.email);
        await goHash(editor.page, `#/paths/${target.id}`);
        await editor.page.getByRole('button', { name: slScreens.archive.path }).click();
        const dialog = editor.page.getByRole('alertdialog', { name: slScreens.archive.pathTitle });
        await dialog.waitFor();
        await dialog.getByRole('button', { name: slScreens.archive.path }).click();
        await editor.page.waitForFunction(() => window.location.hash === '#/paths');
        await waitForOutboxEmpty(editor.page);

        await replayExportedLog(
          'editor-archive',
          'scenario 3 (roles.test.ts): the editor archives a path',
          await exportActionLogFromAbout(editor.page),
          editor.log,
        );
      });

      // The server holds the path archived (not deleted: its history stays).
      const archived = (await data.rows('paths')).find((p) => p.id === target.id);
      expect(archived).toMatchObject({ archived: true, deleted: false });

      await recordArtifacts('scenario-3-farmer-after', farmer.page, farmer.log, async () => {
        // Offline, the device copy still shows it; back online the app reloads and it is gone.
        expect(await farmer.page.getByTestId(`home-path-${target.id}`).count()).toBe(1);
        await farmer.context.setOffline(false);
        await farmer.page.getByTestId(`home-path-${target.id}`).waitFor({ state: 'detached', timeout: 90_000 });
        // Other paths stay.
        await homePathRow(farmer.page, farmer1Paths[0]!.id).waitFor();
        await goHash(farmer.page, `#/paths/${target.id}`);
        await farmer.page.getByText(slScreens.paths.notFound).waitFor();
        // A reload (fresh load from the server) agrees.
        await farmer.page.reload();
        await goHash(farmer.page, '#/');
        await homePathRow(farmer.page, farmer1Paths[0]!.id).waitFor();
        expect(await farmer.page.getByTestId(`home-path-${target.id}`).count()).toBe(0);

        await replayExportedLog(
          'farmer-archived-path',
          'scenario 3 (roles.test.ts): the farmer, offline while the path is archived',
          await exportActionLogFromAbout(farmer.page),
          farmer.log,
        );
      });
    } finally {
      await farmer.close();
      await editor.close();
    }
  });

  test('4. a reader sees results and cannot change anything', async () => {
    const { data } = e2e;
    const formsBefore = await data.rows('forms');
    const pathsBefore = await data.rows('paths');
    const { page, log, close } = await e2e.signedIn('reader');
    try {
      await recordArtifacts('scenario-4-reader', page, log, async () => {
        await chooseFarmer(page, DEMO_USERS.farmer1.email);

        // Results: last season's forms of the chosen farmer are listed.
        await goHash(page, '#/results');
        await page.getByTestId(`result-${farmer1Form.id}`).waitFor();

        // A path: no recorder, no new form, no archive.
        const path = farmer1Paths[0]!;
        await goHash(page, `#/paths/${path.id}`);
        await page.getByTestId('season-forms').waitFor();
        await page.getByRole('heading', { level: 1, name: String(path.properties[await data.col('paths', 'name')]) }).waitFor();
        for (const name of [slMap.recording.start, slScreens.paths.create, slScreens.archive.path]) {
          expect(await page.getByRole('button', { name }).count()).toBe(0);
        }

        // A form: read-only, no save, no archive, inputs not editable.
        await goHash(page, `#/forms/${farmer1Form.id}`);
        await page.getByText(slScreens.states.readOnly).waitFor();
        expect(await page.getByRole('button', { name: slScreens.forms.save }).count()).toBe(0);
        expect(await page.getByRole('button', { name: slScreens.forms.archive }).count()).toBe(0);
        expect(await page.getByRole('button', { name: slScreens.forms.addPhoto }).count()).toBe(0);
        const editable = await page.locator('main input:not([readonly]):not([type=checkbox]), main textarea:not([readonly])').count();
        expect(editable).toBe(0);
        expect(await page.locator('main [role=radio]:not([disabled])').count()).toBe(0);
        // A new form is blocked by the router with a Slovenian message.
        await goHash(page, '#/forms/new');
        await page.getByText(sl.router.blockedReader).waitFor();

        // Forced writes through the API: 403, nothing written.
        const [formsTable, pathsTable] = [await data.tableId('forms'), await data.tableId('paths')];
        const noteCol = await data.col('forms', 'note');
        const attempts = [
          data.call(DEMO_USERS.reader, `/api/Records/1/${formsTable}/${farmer1Form.id}`, {
            method: 'PUT',
            body: { properties: { [noteCol]: 'bralec' }, version: farmer1Form.version },
          }),
          data.call(DEMO_USERS.reader, '/api/Records/1', { body: { tableId: formsTable, properties: { [noteCol]: 'bralec' } } }),
          data.call(DEMO_USERS.reader, '/api/Records/1/archive', { body: { tableId: pathsTable, ids: [path.id] } }),
          data.call(DEMO_USERS.reader, '/api/Records/1/delete', { body: { tableId: formsTable, ids: [farmer1Form.id] } }),
          data.call(DEMO_USERS.reader, '/api/Records/1/bulk', {
            body: {
              operations: [
                { opId: '7d1f4c1e-0000-4000-8000-000000000004', kind: 'update', tableId: formsTable, id: farmer1Form.id, properties: { [noteCol]: 'bralec' } },
              ],
            },
          }),
        ];
        const statuses = (await Promise.all(attempts)).map((r) => r.status);
        expect(statuses).toEqual([403, 403, 403, 403, 403]);
        expect(await data.rows('forms')).toEqual(formsBefore);
        expect(await data.rows('paths')).toEqual(pathsBefore);

        await replayExportedLog('reader-results', 'scenario 4 (roles.test.ts): the reader', await exportActionLogFromAbout(page), log);
      });
    } finally {
      await close();
    }
  });
});
