/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The QA action log in the built app, in Chromium: a farmer signs in and the app
 * works; /about → "Izvozi dnevnik" downloads the log; the file holds the session's actions and
 * HTTP exchanges, no token, and replays headless (the same engine as `npm run replay`) into a
 * fresh store with every state hash matching the one the browser logged.
 * Skipped with a message when dist/ has not been built (npm run build); under CI that fails instead.
 */
import { readFileSync } from 'node:fs';
import { expect, jest, test } from '@jest/globals';
import { slQa } from '../../src/common/i18n/sl';
import { parseActionLogFile, replayActionLog, type ActionEntry } from '../../src/client/features/qa';
import { createReplayStore, teardownReplayStore } from '../../scripts/replay-store';
import { describeApp } from './fixture';
import { DEMO_USERS, recordArtifacts, signInThroughLoginPage, waitForCheck } from './harness';

jest.setTimeout(120_000);

describeApp('QA action log: recorded in the browser, exported from /about, replayed headless (Chromium)', {}, (e2e) => {
  test('a farmer session exports as a redacted log that replays without divergence', async () => {
    const { server } = e2e;
    const { page, log, close } = await e2e.device();
    try {
      await recordArtifacts('qa-action-log-export', page, log, async () => {
        await page.goto(`${server.origin}/`);
        await signInThroughLoginPage(page, DEMO_USERS.farmer1);
        await page.waitForFunction(() => window.localStorage.getItem('token') !== null);
        const token = await page.evaluate(() => window.localStorage.getItem('token'));
        // The app has logged the sign-in and its first API answers (batches reach IndexedDB within a second).
        await waitForCheck(
          page,
          () =>
            page.evaluate(
              () =>
                new Promise<boolean>((resolve) => {
                  const open = indexedDB.open('Moj_travnik_qa_log');
                  open.onerror = () => resolve(false);
                  open.onsuccess = () => {
                    const db = open.result;
                    // Closed at once: an open handle would block the app's own upgrade of the database.
                    if (!db.objectStoreNames.contains('entries')) {
                      db.close();
                      return resolve(false);
                    }
                    const all = db.transaction('entries').objectStore('entries').getAll();
                    all.onsuccess = () => {
                      const entries = all.result as Array<{ kind: string; type?: string }>;
                      resolve(entries.some((e) => e.type === 'auth/authenticated') && entries.some((e) => e.kind === 'net'));
                      db.close();
                    };
                  };
                }),
            ),
          { polling: 250 },
        );

        await page.goto(`${server.origin}/#/about`);
        const downloadPromise = page.waitForEvent('download');
        await page.getByRole('button', { name: slQa.qa.export }).click();
        const download = await downloadPromise;
        expect(download.suggestedFilename()).toMatch(/^moj-travnik-dnevnik-\d{4}-\d{2}-\d{2}-\d{4}\.json$/);
        const text = readFileSync((await download.path())!, 'utf8');
        await page.getByText(slQa.qa.exported, { exact: false }).waitFor();

        // Redacted: the bearer token the app holds appears nowhere; no password either.
        expect(token).toBeTruthy();
        expect(text).not.toContain(token!);
        expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./);
        expect(text).not.toContain('"demo"');

        const file = parseActionLogFile(JSON.parse(text));
        const actions = file.entries.filter((entry): entry is ActionEntry => entry.kind === 'action');
        expect(file.entries.some((entry) => entry.kind === 'session')).toBe(true);
        expect(actions.map((entry) => entry.type)).toEqual(expect.arrayContaining(['auth/authenticated', 'config/configLoaded']));
        expect(file.entries.some((entry) => entry.kind === 'net' && entry.url.startsWith('/api/'))).toBe(true);

        const result = await replayActionLog(file, { createStore: createReplayStore, teardown: teardownReplayStore });
        if (result.divergence) log.lines.push(`[replay] diverged: ${JSON.stringify(result.divergence)}`);
        expect(result.divergence).toBeNull();
        expect(result.finalHash).toBe(actions.at(-1)!.hash);
        const rehydrated = actions.some((entry) => entry.type === 'persist/REHYDRATE');
        process.stderr.write(
          `[e2e] browser action log: ${file.entries.length} entries, ${result.actions} actions replayed (REHYDRATE ${rehydrated ? 'included' : 'absent'}), final state hash ${result.finalHash} = logged ${result.recordedFinalHash}\n`,
        );
      });
    } finally {
      await close();
    }
  });
});
