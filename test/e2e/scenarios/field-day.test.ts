/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * Scenario: a farmer's field day, in Chromium against the real server:
 * kmet1 signs in online and opens home; goes offline; walks a transect on his path with a scripted
 * geolocation (Playwright's setGeolocation) and saves it; creates this season's meadow form, fills
 * indicators (presence, count, choices, percent) and adds a photo (a small JPEG made by the
 * browser's canvas); reloads while still offline — the walk, the form, its answers and the photo
 * are still there, queued; comes back online — the outbox drains and the server holds every edit
 * exactly once (rows counted); the editor then sees the form with its answers and photo.
 * At the end both pages' action logs are exported from /about and replayed headless without
 * divergence (action-logs.ts); with UPDATE_ACTION_LOGS=1 they become the fixtures
 * farmer-field-day.json and editor-review.json.
 */
import { expect, jest, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { LineString } from 'geojson';
import { slMap, slScreens } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { AttachmentInfoList, WireRecord } from '../../../src/common/schemas/wire';
import { describeApp, fieldDevice } from '../fixture';
import { DEMO_USERS, recordArtifacts } from '../harness';
import { exportActionLogFromAbout, replayExportedLog } from './action-logs';
import { goHash, makeJpeg, metresFrom, outboxCount, startWalk, waitForOutboxEmpty, waitForServiceWorkerControl, homePathRow } from './helpers';

jest.setTimeout(240_000);

const KIND = FORM_KINDS.travnik;
/** The answers the farmer gives (keys of the scheme's meadow walk form). */
const ANSWERS: Array<{ key: string; kind: 'radio' | 'number'; label?: string; value: string | number | boolean }> = [
  { key: 'salvia-pratensis', kind: 'radio', label: slScreens.forms.yes, value: true },
  { key: 'lotus-corniculatus', kind: 'radio', label: slScreens.forms.yes, value: true },
  { key: 'orchidaceae', kind: 'number', value: 3 },
  { key: 'rumex-obtusifolius', kind: 'radio', label: 'Ni na poti', value: 'ni' },
  { key: 'taraxacum', kind: 'radio', label: 'Posamično (nekaj rastlin)', value: 'posamicno' },
  { key: 'zarascanje', kind: 'number', value: 5 },
];
const PHOTO_ON = 'salvia-pratensis';
const STEP_M = 4;
const WALK_M = 60;

describeApp("scenario 1: a farmer's field day (Chromium)", {}, (e2e) => {
  async function fillAnswers(page: Page): Promise<void> {
    for (const answer of ANSWERS) {
      const card = page.getByTestId(`indicator-${answer.key}`);
      if (answer.kind === 'radio') await card.getByRole('radio', { name: answer.label!, exact: true }).click();
      else await card.locator('input[type=number]').fill(String(answer.value));
    }
  }

  async function expectAnswersShown(page: Page): Promise<void> {
    for (const answer of ANSWERS) {
      const card = page.getByTestId(`indicator-${answer.key}`);
      if (answer.kind === 'radio') expect(await card.getByRole('radio', { name: answer.label!, exact: true }).getAttribute('aria-checked')).toBe('true');
      else expect(await card.locator('input[type=number]').inputValue()).toBe(String(answer.value));
    }
  }

  test('walk, form and photo made offline survive a reload and reach the server exactly once; the editor sees them', async () => {
    const { data } = e2e;
    const [path] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const line = path!.geometry as LineString;
    const at = metresFrom(line.coordinates[0]!);
    const formsBefore = await data.formsOfPath(path!.id);
    const [durationsTable, linkDuration, linkPath] = [
      await data.tableId('durations'),
      await data.col('durationPaths', 'duration_id'),
      await data.col('durationPaths', 'path_id'),
    ];
    expect(durationsTable).toBeGreaterThan(0);

    // Online: sign in, home shows his paths; the service worker has the app for later.
    const { context, page, log, close } = await e2e.signedIn('farmer1', fieldDevice(at(0)));
    try {
      await recordArtifacts('scenario-1-field-day', page, log, async () => {
        await homePathRow(page, path!.id).waitFor();
        await waitForServiceWorkerControl(page);
        // Open the path once online so its screen, the map chunk and the season link are on the device.
        await goHash(page, `#/paths/${path!.id}`);
        await page.getByTestId('season-forms').getByRole('button', { name: slScreens.paths.create }).waitFor();
        await page.locator('dl.facts').getByText(slScreens.paths.notWalked).waitFor();
        await goHash(page, '#/');
        await homePathRow(page, path!.id).waitFor();

        // Into the field: no network from here on.
        await context.setOffline(true);
        await page.locator('.conn-status--offline').waitFor();

        // Walk the transect.
        await goHash(page, `#/paths/${path!.id}`);
        await startWalk(context, page, at(0));
        for (let m = STEP_M; m <= WALK_M; m += STEP_M) {
          await context.setGeolocation(at(m));
          await page.waitForFunction((text) => document.querySelector('[data-testid="walk-distance"]')?.textContent === text, `${m} m`);
        }
        await page.getByRole('button', { name: slMap.recording.finish }).click();
        await page.getByTestId('walk-summary').waitFor();
        await page.getByRole('button', { name: slMap.recording.save }).click();
        await page.getByText(slMap.recording.saved).waitFor();

        // This season's meadow form.
        await page.getByLabel(slScreens.paths.formKind).selectOption({ label: KIND.title });
        await page.getByRole('button', { name: slScreens.paths.create }).click();
        await page.waitForFunction(() => /^#\/forms\/\d+$/.test(window.location.hash));
        const localFormId = Number((await page.evaluate(() => window.location.hash)).split('/').pop());
        await page.getByTestId(`indicator-${ANSWERS[0]!.key}`).waitFor();
        await fillAnswers(page);
        const photoCard = page.getByTestId(`indicator-${PHOTO_ON}`);
        await photoCard.locator('.indicator__head').click();
        await photoCard.locator('input[type=file]').setInputFiles({ name: 'kadulja.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(page) });
        await photoCard.getByTestId('new-photo').waitFor();
        await page.getByLabel(slScreens.forms.markCompleted).check();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
        const queued = await outboxCount(page);
        // walk + form + one row per answer + the photo, at least (the season link may be queued too).
        expect(queued).toBeGreaterThanOrEqual(2 + ANSWERS.length + 1);

        // Reload while offline: everything is still there, still queued.
        await page.reload();
        await page.getByTestId(`indicator-${ANSWERS[0]!.key}`).waitFor();
        expect(await page.evaluate(() => window.location.hash)).toBe(`#/forms/${localFormId}`);
        await expectAnswersShown(page);
        await photoCard.locator('.indicator__head').click();
        await photoCard.getByText(slScreens.forms.photoPending).waitFor();
        expect(await page.getByLabel(slScreens.forms.markCompleted).isChecked()).toBe(true);
        expect(await outboxCount(page)).toBe(queued);
        await goHash(page, `#/paths/${path!.id}`);
        await page
          .getByTestId('season-forms')
          .getByRole('link', { name: new RegExp(KIND.title) })
          .waitFor();
        // The walk is on the device too: the path counts as walked.
        expect(await page.locator('dl.facts').getByText(slScreens.paths.notWalked).count()).toBe(0);

        // Back online: the outbox drains.
        await context.setOffline(false);
        await waitForOutboxEmpty(page);
        await page.locator('.conn-status--online').waitFor();
      });

      // The server: exactly one new form, one link for this season, one row per answer, one photo.
      const season = (await data.rows('durations')).find((d) => String(Object.values(d.properties)).includes('2026'))!;
      const links = (await data.rows('durationPaths')).filter((l) => l.properties[linkPath] === path!.id && l.properties[linkDuration] === season.id);
      expect(links).toHaveLength(1);
      const formsAfter = await data.formsOfPath(path!.id);
      const newForms = formsAfter.filter((f) => !formsBefore.some((b) => b.id === f.id));
      expect(newForms).toHaveLength(1);
      const form = newForms[0]!;
      expect(form.properties[await data.col('forms', 'parent')]).toBe(links[0]!.id);
      expect(form.properties[await data.col('forms', 'form_id')]).toBe(KIND.id);
      expect(form.properties[await data.col('forms', 'completed')]).toBe(true);
      const indicators = await data.indicatorsOfForm(form.id);
      const keyCol = await data.col('indicators', 'key');
      const valueCol = await data.col('indicators', 'value');
      const byKey = new Map<string, WireRecord[]>();
      for (const row of indicators) byKey.set(String(row.properties[keyCol]), [...(byKey.get(String(row.properties[keyCol])) ?? []), row]);
      for (const answer of ANSWERS) {
        expect(byKey.get(answer.key)).toHaveLength(1);
        expect(String(byKey.get(answer.key)![0]!.properties[valueCol])).toBe(String(answer.value));
      }
      expect(indicators).toHaveLength(ANSWERS.length);
      const config = await data.config();
      const slot = config.tables.indicators.attachments!.photos!;
      const photoRow = byKey.get(PHOTO_ON)![0]!;
      const photos = await data.call<AttachmentInfoList>(DEMO_USERS.editor, `/api/Records/1/record/${photoRow.id}/attachmentinfo/${slot}`);
      expect(photos.status).toBe(200);
      expect(photos.body.attachments).toHaveLength(1);
      expect(photos.body.attachments[0]).toMatchObject({ mimeType: 'image/jpeg' });
      const otherPhotos = await Promise.all(
        indicators
          .filter((r) => r.id !== photoRow.id)
          .map((r) => data.call<AttachmentInfoList>(DEMO_USERS.editor, `/api/Records/1/record/${r.id}/attachmentinfo/${slot}`)),
      );
      expect(otherPhotos.map((r) => r.body.attachments.length)).toEqual(otherPhotos.map(() => 0));
      // The walk: the path carries the recorded track and every raw fix.
      const walked = (await data.rows('paths')).find((p) => p.id === path!.id)!;
      const walk = walked.properties[await data.col('paths', 'walk')] as { raw?: unknown[] } | null;
      expect(walk).not.toBeNull();
      expect(walk!.raw!.length).toBeGreaterThanOrEqual(WALK_M / STEP_M + 1);
      expect(walked.version).toBeGreaterThan(path!.version);

      // A reload online (fresh season load) sends nothing again and creates nothing new.
      await recordArtifacts('scenario-1-after-sync', page, log, async () => {
        await page.reload();
        await page.getByTestId('season-forms').waitFor();
        await page.waitForFunction(() => document.querySelector('.conn-status--online') !== null);
        expect(await outboxCount(page)).toBe(0);

        // QA: the farmer's whole day (sign-in, offline work, the reload, the sync, the reload
        // online) exported from /about and replayed headless, session by session.
        const exported = await exportActionLogFromAbout(page);
        const result = await replayExportedLog('farmer-field-day', 'scenario 1 (field-day.test.ts): the farmer', exported, log);
        expect(result.sessions).toBeGreaterThanOrEqual(3);
        const types = new Set(exported.file.entries.map((entry) => (entry.kind === 'action' ? entry.type : entry.kind)));
        expect([...types]).toEqual(expect.arrayContaining(['session', 'net', 'connectivity/browserOnlineChanged']));
        // The photo is in the log as its size and hash only.
        expect(exported.text).toMatch(/"\$binary":"blob","size":\d+,"mimeType":"image\/jpeg","sha256":"[0-9a-f]{64}"/);
      });
      expect(await data.formsOfPath(path!.id)).toHaveLength(formsAfter.length);
      expect(await data.indicatorsOfForm(form.id)).toHaveLength(ANSWERS.length);

      // The editor sees the farmer's new form, its answers and the photo.
      const editor = await e2e.signedIn('editor');
      try {
        await recordArtifacts('scenario-1-editor', editor.page, editor.log, async () => {
          const farmerId = await data.farmerId(DEMO_USERS.farmer1.email);
          await editor.page.getByTestId(`farmer-${farmerId}`).getByRole('button', { name: slScreens.farmers.choose }).click();
          await goHash(editor.page, `#/paths/${path!.id}`);
          await editor.page.getByTestId(`path-form-${form.id}`).waitFor();
          await goHash(editor.page, `#/forms/${form.id}`);
          await editor.page.getByTestId(`indicator-${ANSWERS[0]!.key}`).waitFor();
          await expectAnswersShown(editor.page);
          const card = editor.page.getByTestId(`indicator-${PHOTO_ON}`);
          await card.locator('.indicator__head').click();
          await card.locator('.photos__list img').first().waitFor();

          const exported = await exportActionLogFromAbout(editor.page);
          await replayExportedLog('editor-review', "scenario 1 (field-day.test.ts): the editor reviews the farmer's form", exported, editor.log);
        });
      } finally {
        await editor.close();
      }
    } finally {
      await close();
    }
  });
});
