/**
 * @jest-environment-options {"globalsCleanup": "off"}
 *
 * The farmer search offline, in Chromium against the real server and the built app (dist/): an
 * editor's season load stores the farmers on the device under the config's search profile; with
 * the text search call cut (the server cannot be reached) and then with the browser offline, the
 * search on the home screen still finds farmers by the start of a word, accents ignored.
 */
import { expect, jest, test } from '@jest/globals';
import { OFFLINE_DB_NAME } from '../../src/common/constants';
import { slScreens } from '../../src/common/i18n/sl';
import { describeApp } from './fixture';
import { DEMO_USERS, recordArtifacts, waitForCheck } from './harness';

jest.setTimeout(180_000);

describeApp('the farmer search offline (Chromium)', {}, (e2e) => {
  test('finds farmers stored on the device when the search call gets no answer and when offline', async () => {
    const { data } = e2e;
    // Service workers blocked: Playwright's routes then see the page's every request.
    const { context, page, log, close } = await e2e.signedIn('editor', { serviceWorkers: 'block' });
    try {
      await recordArtifacts('search-offline', page, log, async () => {
        const config = await data.config();
        const farmersTable = config.tables.farmers.id;
        const [stefan, ana, janez] = await Promise.all(
          ['stefan.kuhar@example.si', 'ana.vogrincic@example.si', DEMO_USERS.farmer1.email].map((email) => data.farmerId(email)),
        );
        await page.getByTestId(`farmer-${stefan}`).waitFor();

        // Every farmer row on the device carries the profile it was stored under.
        const profilesOnDevice = () =>
          page.evaluate(
            ({ name, tableId }) =>
              new Promise<Array<number | null>>((resolve, reject) => {
                const open = indexedDB.open(name);
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                  const db = open.result;
                  const all = db
                    .transaction('features')
                    .objectStore('features')
                    .getAll(IDBKeyRange.bound([tableId, -Infinity], [tableId, Infinity]));
                  all.onsuccess = () => {
                    resolve((all.result as Array<{ profileId?: number }>).map((row) => row.profileId ?? null));
                    db.close();
                  };
                  all.onerror = () => reject(all.error);
                };
              }),
            { name: OFFLINE_DB_NAME, tableId: farmersTable },
          );
        await waitForCheck(page, async () => (await profilesOnDevice()).length >= 5);
        expect(new Set(await profilesOnDevice())).toEqual(new Set([config.searchProfileId]));

        // The server cannot be reached for the search: the call is sent, gets no answer, and the device answers it.
        const searches: string[] = [];
        page.on('request', (request) => {
          if (request.method() === 'GET' && request.url().includes(`/api/Records/${config.projectId}/search/`)) searches.push(request.url());
        });
        await context.route(`**/api/Records/${config.projectId}/search/**`, (route) =>
          route.request().method() === 'GET' ? route.abort('internetdisconnected') : route.continue(),
        );
        const search = page.getByLabel(slScreens.farmers.search);
        await search.fill('štef kuh');
        await page.getByTestId(`farmer-${janez}`).waitFor({ state: 'detached' });
        expect(await page.getByTestId(`farmer-${stefan}`).count()).toBe(1);
        expect(await page.getByTestId(`farmer-${ana}`).count()).toBe(0);
        await waitForCheck(page, async () => searches.some((url) => url.includes(`/${encodeURIComponent('štef kuh')}?`)));

        // Offline: the device answers without asking.
        await context.setOffline(true);
        await page.getByText(slScreens.farmers.searchOffline).waitFor();
        const asked = searches.length;
        await search.fill('VOGRINCIC');
        await page.getByTestId(`farmer-${stefan}`).waitFor({ state: 'detached' });
        expect(await page.getByTestId(`farmer-${ana}`).count()).toBe(1);
        await search.fill('nihče takšen');
        await page.getByText(slScreens.farmers.none).waitFor();
        expect(searches.length).toBe(asked);
      });
    } finally {
      await close();
    }
  });
});
