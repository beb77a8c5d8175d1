/**
 * The app on a 390×844 phone in Chromium (the built client, the real server):
 * - axe-core (injected into the page) on every screen for each role, the login page, the leave
 *   dialog and the form's error state: no critical and no serious violations;
 * - no screen wider than the viewport at 360 px, also with the offline pill and waiting edits;
 * - every tap target of the field screens at least 44 × 44 px (map controls, card links, error links);
 * - config.json and the home screen's chunk preloaded by the HTML (fetched once each); an installed
 *   app loads the field screens' code once idle, a first visit does not;
 * - the form's indicator rows compact enough that a 390×844 screen shows seven to answer, and a
 *   360×640 one four (an indicator is one row: the plant's name opens the rest);
 * - what the field is for in view above the bottom menu: the farmer's first path on a 360×640
 *   home with a form waiting in the review, and a path's "Začni snemanje" offline at 390×844;
 * - a keyboard-only run that answers a form and saves it, every focused element visible (inside
 *   the viewport and not under the sticky score/save bar, the header or the bottom menu).
 * With E2E_SCREENSHOTS=1, screenshots of every screen at 390×844 go to test-results/e2e/phone/.
 */
import { beforeAll, expect, jest, test } from '@jest/globals';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { OFFLINE_DB_NAME } from '../../src/common/constants';
import { sl, slMap, slPhone, slScreens, slSetup } from '../../src/common/i18n/sl';
import { describeApp, type DeviceOptions } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, LOGIN_PAGE_PATTERN, openAppSignedIn, recordArtifacts, waitForCheck, keepScreenshot } from './harness';
import { axeViolations } from './axe';
import { goHash, openNewMeadowForm, waitForServiceWorkerControl, homePathRow, homePathRows } from './scenarios/helpers';

jest.setTimeout(600_000);

const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 800 };
/** A small phone's screen, the bottom menu included. */
const SMALL_PHONE = { width: 360, height: 640 };
const SHOTS = path.join(ARTIFACTS_DIR, 'phone');

/**
 * The app's main script held back from a page: `hold(page)` from then on, until `release()` (also
 * in the test's clean-up). What the page shows meanwhile comes from the scripts before it.
 */
function mainScriptGate(): { hold: (page: Page) => Promise<void>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    hold: async (page) => {
      await page.route(/\/static\/js\/main\.[0-9a-f]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
    },
    release,
  };
}

/** Whether the page is wider than its viewport at 360 px (it pans sideways then). */
async function overflowAt360(page: Page): Promise<number> {
  await page.setViewportSize(NARROW);
  const extra = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.setViewportSize(PHONE);
  return extra;
}

/**
 * Tap targets of the page smaller than 44 × 44 px (WCAG 2.5.5): links, buttons, fields, fold-out
 * summaries and radios, MapLibre's controls included. A check box or radio inside its label is
 * measured by the label (the label is what the finger hits).
 */
async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const targets = document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [role="radio"], [role="button"]');
    for (const el of targets) {
      if (el.closest('.visually-hidden')) continue;
      const label = el.tagName === 'INPUT' ? el.closest('label') : null;
      const box = (label ?? el).getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown
      if (getComputedStyle(el).visibility === 'hidden') continue;
      if (box.width < 44 || box.height < 44) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30);
        found.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return found;
  });
}

/**
 * How many indicators can be answered without scrolling once the first one is scrolled to the
 * top: their names and their answer (Da/Ne, the number) wholly visible between the header and the
 * form's score/save bar.
 */
async function indicatorsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid^="indicator-"]')];
    rows[0]?.scrollIntoView({ block: 'start' });
    const top = document.querySelector('.app-header')?.getBoundingClientRect().bottom ?? 0;
    const bottom = document.querySelector('.desk-layout__side')?.getBoundingClientRect().top ?? window.innerHeight;
    return rows.filter((row) => {
      const parts = [row.querySelector('.indicator__names'), row.querySelector('.choice-row, input, select')];
      return parts.every((part) => {
        const r = part?.getBoundingClientRect();
        return r !== undefined && r.top >= top && r.bottom <= bottom;
      });
    }).length;
  });
}

/** The screens a farmer uses in the field, where every tap target must be large enough. */
const FIELD_SCREENS = new Set(['home', 'paths', 'path', 'forms', 'form', 'results']);

async function screenReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('main h1') !== null && document.querySelector('main .loading:not(.loading--inline)') === null);
}

/**
 * A phone. Reduced motion settles colours at once: buttons fade between their disabled and enabled
 * colours (0.12 s), and axe measuring contrast in the middle of that fade reported the half-way colours.
 */
const PHONE_DEVICE: DeviceOptions = { viewport: PHONE, deviceScaleFactor: 1, reducedMotion: 'reduce' };

/** Creates this season's meadow walk form on the path (nothing answered) and opens it. */
async function newMeadowForm(page: Page, pathId: number): Promise<void> {
  await openNewMeadowForm(page, pathId);
  await page.getByTestId('live-score').waitFor();
}

describeApp('phone: accessibility, width and keyboard', {}, (e2e) => {
  let pathId: number;
  let formId: number;

  beforeAll(async () => {
    const { data } = e2e;
    const [first] = await data.pathsOf(DEMO_USERS.farmer1.email);
    pathId = first!.id;
    formId = (await data.formsOfPath(pathId))[0]!.id;
  });

  /** Visits a screen, checks it with axe and at 360 px, and saves its screenshot. */
  async function check(page: Page, name: string, problems: string[], field = false): Promise<void> {
    await screenReady(page);
    for (const v of await axeViolations(page)) problems.push(`${name}: ${v}`);
    if (field) for (const target of await smallTapTargets(page)) problems.push(`${name}: tap target smaller than 44 × 44 px: ${target}`);
    const extra = await overflowAt360(page);
    if (extra > 0) problems.push(`${name}: ${extra} px wider than a 360 px screen`);
    await keepScreenshot(page, path.join(SHOTS, `${name}.png`));
  }

  for (const role of ['farmer1', 'editor', 'reader'] as const) {
    test(`every screen of ${role}: 0 critical, 0 serious; never wider than 360 px`, async () => {
      // The farmer's device is not signed in yet: the login page is checked too.
      const { page, log, close } = await e2e.device(PHONE_DEVICE);
      const problems: string[] = [];
      try {
        await recordArtifacts(`phone-a11y-${role}`, page, log, async () => {
          if (role === 'farmer1') {
            await page.goto(`${e2e.server.origin}/`);
            await page.waitForURL(LOGIN_PAGE_PATTERN);
            for (const v of await axeViolations(page)) problems.push(`login: ${v}`);
            await keepScreenshot(page, path.join(SHOTS, 'login.png'));
          }
          await openAppSignedIn(page, `${e2e.server.origin}/#/`, DEMO_USERS[role]);
          if (role !== 'farmer1') {
            await screenReady(page);
            await check(page, `${role}-home-no-farmer`, problems);
            const farmerId = await e2e.data.farmerId(DEMO_USERS.farmer1.email);
            const row = page.getByTestId(`farmer-${farmerId}`);
            await row.getByRole('button', { name: slScreens.farmers.choose }).click();
            await row.getByRole('button', { name: slScreens.farmers.chosen }).waitFor();
          }
          await homePathRow(page, pathId).waitFor();
          const screens: Array<[string, string]> = [
            ['home', '#/'],
            ['paths', '#/paths'],
            ['path', `#/paths/${pathId}`],
            ['forms', '#/forms'],
            ['form', `#/forms/${formId}`],
            ['results', '#/results'],
            ['about', '#/about'],
            ['download', '#/download'],
          ];
          for (const [name, hash] of screens) {
            await goHash(page, hash);
            if (name === 'path') {
              await page.getByTestId('season-forms').waitFor();
              // The map's own controls (zoom, attribution) are tap targets too.
              await page.locator('.maplibregl-ctrl-attrib-button').waitFor();
            }
            if (name === 'form') await page.getByTestId('live-score').waitFor();
            await check(page, `${role}-${name}`, problems, FIELD_SCREENS.has(name));
          }
        });
      } finally {
        await close();
      }
      expect(problems).toEqual([]);
    });
  }

  test("a phone shows what the field is for first: the first path in view above the bottom menu at 360×640 with a form waiting (the to-do after the meadows), and a path's 'Začni snemanje' at 390×844 offline", async () => {
    const { context, page, log, close } = await e2e.signedIn('farmer1', PHONE_DEVICE);
    try {
      await recordArtifacts('phone-paths-first', page, log, async () => {
        await homePathRow(page, pathId).waitFor();
        await newMeadowForm(page, pathId);
        await goHash(page, '#/');
        await page.setViewportSize(SMALL_PHONE);
        await page.getByTestId('review-todo').waitFor();
        await homePathRows(page).first().waitFor();
        await keepScreenshot(page, path.join(SHOTS, 'home-with-todo-360x640.png'));
        const layout = await homePathRows(page)
          .first()
          .evaluate((row) => {
            window.scrollTo(0, 0);
            const box = row.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            const areas = document.querySelectorAll('[data-testid^="area-"]');
            const todo = document.querySelector('[data-testid="review-todo"]')!;
            return {
              rowBottom: Math.round(box.bottom),
              menuTop: Math.round(document.querySelector('.main-nav')!.getBoundingClientRect().top),
              tapHitsRow: hit !== null && row.contains(hit),
              todoAfterMeadows: Boolean(areas[areas.length - 1]!.compareDocumentPosition(todo) & Node.DOCUMENT_POSITION_FOLLOWING),
            };
          });
        expect(layout.rowBottom).toBeLessThanOrEqual(layout.menuTop);
        expect(layout.tapHitsRow).toBe(true);
        expect(layout.todoAfterMeadows).toBe(true);

        // The path's screen on the phone, offline as in a meadow (the screen then says its data is
        // the device's): starting a walk comes before correcting the line, in view.
        await waitForServiceWorkerControl(page);
        await context.setOffline(true);
        await page.setViewportSize(PHONE);
        await page.reload();
        await homePathRows(page).first().click();
        await page.getByTestId('offline-note').waitFor();
        await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor();
        const start = page.getByRole('button', { name: slMap.recording.start });
        const correct = page.getByRole('button', { name: slSetup.paths.correct });
        await start.waitFor();
        await correct.waitFor();
        await keepScreenshot(page, path.join(SHOTS, 'path-390x844.png'));
        const startBox = (await start.boundingBox())!;
        const menuTop = (await page.locator('.main-nav').boundingBox())!.y;
        expect(startBox.y + startBox.height).toBeLessThanOrEqual(menuTop);
        expect(startBox.y).toBeLessThan((await correct.boundingBox())!.y);
      });
    } finally {
      await close();
    }
  });

  test("a farmer's results on a 360×640 phone: the first path's score in view above the bottom menu; the payment preview's rows keep their titles' width", async () => {
    const { page, log, close } = await e2e.signedIn('farmer1', { ...PHONE_DEVICE, viewport: SMALL_PHONE });
    try {
      await recordArtifacts('phone-results-first', page, log, async () => {
        await goHash(page, '#/results');
        const firstScore = page.locator('tr[data-testid^="result-"]').first().locator(`td[data-label="${slScreens.results.score}"] .score-badge`);
        await firstScore.waitFor();
        await page.getByTestId('review-results').waitFor();
        await keepScreenshot(page, path.join(SHOTS, 'results-360x640.png'));
        const scoreBottom = await firstScore.evaluate((badge) => {
          window.scrollTo(0, 0);
          return Math.round(badge.getBoundingClientRect().bottom);
        });
        const menuTop = (await page.locator('.main-nav').boundingBox())!.y;
        expect(scoreBottom).toBeLessThanOrEqual(menuTop);

        // Each row of the preview: its title is not squeezed into a column beside the amount (on
        // the narrow screen the amount goes under it), and the review badge is as wide as its word.
        const rows = await page
          .getByTestId('review-results')
          .locator('.row-link')
          .evaluateAll((links) =>
            links.map((link) => {
              const row = link.getBoundingClientRect().width;
              const title = link.querySelector('.row-link__title')!.getBoundingClientRect().width;
              const badge = link.querySelector('[data-testid="review-badge"]')!.getBoundingClientRect().width;
              return { text: link.textContent, titleShare: Math.round((title / row) * 100), badgeShare: Math.round((badge / row) * 100) };
            }),
          );
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          expect({ text: row.text, wide: row.titleShare >= 80, badgeFits: row.badgeShare < 60 }).toEqual({ text: row.text, wide: true, badgeFits: true });
        }
      });
    } finally {
      await close();
    }
  });

  test("config.json and the home screen's chunk are preloaded by the HTML, each fetched once", async () => {
    const { page, log, close } = await e2e.signedIn('farmer1', PHONE_DEVICE);
    try {
      await recordArtifacts('phone-preload', page, log, async () => {
        await homePathRow(page, pathId).waitFor();
        const fetched = await page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((entry) => ({ path: new URL(entry.name).pathname, by: (entry as PerformanceResourceTiming).initiatorType }))
            .filter((entry) => entry.path === '/config.json' || /\/route-home\.[0-9a-f]+\.chunk\.js$/.test(entry.path)),
        );
        // Started by the HTML while the scripts download, not by the app once it runs; the
        // app's own request takes the preloaded answer instead of asking again.
        expect(fetched.map((entry) => entry.by).sort()).toEqual(['link', 'link']);
      });
    } finally {
      await close();
    }
  });

  test("an installed app loads the code of a path's, the forms' and a form's screen once idle; a first visit does not", async () => {
    const { page, log, close } = await e2e.signedIn('farmer1', PHONE_DEVICE);
    /** The field screens' chunks this page has fetched so far. */
    const fieldChunks = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => /\/(route-(?:path|forms|form))\.[0-9a-f]+\.chunk\.js$/.exec(new URL(entry.name).pathname)?.[1])
          .filter((name) => name !== undefined)
          .sort(),
      );
    /** The page has loaded and been idle once since. */
    const loadedAndIdle = () =>
      page.evaluate(async () => {
        if (document.readyState !== 'complete') await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
        await new Promise((resolve) => requestIdleCallback(resolve));
      });
    try {
      await recordArtifacts('phone-field-screens', page, log, async () => {
        await homePathRow(page, pathId).waitFor();
        await loadedAndIdle();
        // The first visit's bandwidth is the first screen's.
        expect(await fieldChunks()).toEqual([]);
        await waitForServiceWorkerControl(page);
        await page.reload();
        await homePathRow(page, pathId).waitFor();
        await waitForCheck(page, async () => (await fieldChunks()).length === 3);
        expect(await fieldChunks()).toEqual(['route-form', 'route-forms', 'route-path']);
      });
    } finally {
      await close();
    }
  });

  test("a farmer's last home is on screen before the app's code has run; a path tapped then opens once it has", async () => {
    // Routes see every request only without the service worker.
    const { page, log, close } = await e2e.signedIn('farmer1', { ...PHONE_DEVICE, serviceWorkers: 'block' });
    const mainScript = mainScriptGate();
    try {
      await recordArtifacts('phone-home-picture', page, log, async () => {
        await homePathRow(page, pathId).waitFor();
        // The picture is written once the season's own rows are on screen.
        await waitForCheck(page, () =>
          page.evaluate((id) => Object.values(localStorage).some((value) => value.includes('"html"') && value.includes(`home-path-${id}`)), pathId),
        );
        await mainScript.hold(page);
        await page.reload({ waitUntil: 'commit' });
        const pictured = page.getByTestId(`home-path-${pathId}`);
        await pictured.waitFor();
        // The main script is held back: the paths on screen are the picture of the last home.
        await pictured.click();
        expect(new URL(page.url()).hash).toBe(`#/paths/${pathId}`);
        mainScript.release();
        await page.getByRole('button', { name: slScreens.paths.create }).waitFor();
        expect(await page.getByTestId(`home-path-${pathId}`).count()).toBe(0);
      });
    } finally {
      mainScript.release();
      await close();
    }
  });

  test("a new device's first visit paints the farmer's meadows and paths from the early reads before the app's code has arrived; a path tapped then opens once it has", async () => {
    // Routes see every request only without the service worker, and the early reads run only without one.
    const { page, log, close } = await e2e.signedIn('farmer1', { ...PHONE_DEVICE, serviceWorkers: 'block' });
    const mainScript = mainScriptGate();
    try {
      await recordArtifacts('phone-first-visit-picture', page, log, async () => {
        await homePathRow(page, pathId).waitFor();
        // A new device: the signed-in identity and the config, no picture of home (taken away
        // before the page's own scripts run).
        await page.addInitScript(() => {
          for (const key of Object.keys(localStorage)) if (key.includes('home-snapshot')) localStorage.removeItem(key);
        });
        await mainScript.hold(page);
        await page.reload({ waitUntil: 'commit' });
        const pictured = page.getByTestId(`home-path-${pathId}`);
        await pictured.waitFor();
        // The main script is held back: the header is the picture's empty bar, and what needs the forms is not shown yet.
        expect(await page.locator('.app-header > *').count()).toBe(0);
        expect(await page.locator('[data-status]').count()).toBe(0);
        await pictured.click();
        expect(new URL(page.url()).hash).toBe(`#/paths/${pathId}`);
        mainScript.release();
        await page.getByRole('button', { name: slScreens.paths.create }).waitFor();
        expect(await page.getByTestId(`home-path-${pathId}`).count()).toBe(0);
      });
    } finally {
      mainScript.release();
      await close();
    }
  });

  test('the offline database is created while the main script is still on its way (the early entry)', async () => {
    const { page, log, close } = await e2e.device(PHONE_DEVICE);
    const mainScript = mainScriptGate();
    try {
      await recordArtifacts('phone-early-db', page, log, async () => {
        // The main script is held back: only the early entry can create the database meanwhile.
        await mainScript.hold(page);
        await page.goto(`${e2e.server.origin}/`, { waitUntil: 'commit' });
        await waitForCheck(page, () => page.evaluate(async (name) => (await indexedDB.databases()).some((db) => db.name === name), OFFLINE_DB_NAME));
        const stores = await page.evaluate(
          (name) =>
            new Promise<string[]>((resolve, reject) => {
              const request = indexedDB.open(name);
              request.onsuccess = () => {
                resolve([...request.result.objectStoreNames]);
                request.result.close();
              };
              request.onerror = () => reject(request.error);
            }),
          OFFLINE_DB_NAME,
        );
        // Created with the app's schema, not an empty database.
        expect(stores).toEqual(expect.arrayContaining(['features', 'outbox', 'meta']));
      });
    } finally {
      mainScript.release();
      await close();
    }
  });

  test("the form's error state and the leave dialog: 0 critical, 0 serious", async () => {
    const { page, log, close } = await e2e.signedIn('farmer1', PHONE_DEVICE);
    const problems: string[] = [];
    try {
      await recordArtifacts('phone-a11y-form-states', page, log, async () => {
        await newMeadowForm(page, pathId);
        // A new form has no score yet (not a bad 0).
        expect(await page.getByTestId('live-score').textContent()).toContain(slPhone.form.noScoreYet);
        // Compact rows (picture, names, Da/Ne in one row, the rest behind the plant's name; a size
        // smaller on a narrow phone): a phone screen shows seven indicators to answer, a small one four.
        expect(await indicatorsInView(page)).toBeGreaterThanOrEqual(7);
        await page.setViewportSize(SMALL_PHONE);
        expect(await indicatorsInView(page)).toBeGreaterThanOrEqual(4);
        await page.setViewportSize(PHONE);
        // Marked completed with the required answers missing: the error summary.
        await page.getByRole('checkbox', { name: slScreens.forms.markCompleted }).check();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        const summary = page.getByTestId('form-errors');
        await summary.waitFor();
        expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
        await check(page, 'form-errors', problems, true);
        // Its first link moves focus to the field it names.
        await summary.getByRole('link').first().click();
        expect(await page.evaluate(() => document.activeElement?.closest('[role="radiogroup"], input, textarea') !== null)).toBe(true);

        await page.getByRole('link', { name: sl.nav.paths }).first().click();
        const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
        await dialog.first().waitFor();
        for (const v of await axeViolations(page)) problems.push(`leave dialog: ${v}`);
        await keepScreenshot(page, path.join(SHOTS, 'leave-dialog.png'));
      });
    } finally {
      await close();
    }
    expect(problems).toEqual([]);
  });

  test('keyboard only: answer a form offline and save it, every focused element visible; the offline pill fits 360 px', async () => {
    const { context, page, log, close } = await e2e.signedIn('farmer1', PHONE_DEVICE);
    try {
      await recordArtifacts('phone-keyboard-form', page, log, async () => {
        // The season is on the device before the network goes, and so is the app: until the
        // service worker has precached it, the form screen's code cannot load offline (a busy
        // machine took longer to precache than this test took to get here).
        await homePathRow(page, pathId).waitFor();
        await waitForServiceWorkerControl(page);
        await goHash(page, `#/paths/${pathId}`);
        await page.getByLabel(slScreens.paths.formKind).waitFor();
        await context.setOffline(true);
        await newMeadowForm(page, pathId);
        await page.locator('main h1').focus();
        const hidden: string[] = [];
        let answered = 0;
        let saved = false;
        for (let presses = 0; presses < 400 && !saved; presses++) {
          await page.keyboard.press('Tab');
          const focus = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            if (!el || el === document.body) return null;
            el.scrollIntoView({ block: 'nearest' }); // what the browser does; scroll-padding keeps it clear of the bars
            const r = el.getBoundingClientRect();
            const x = Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1);
            const y = Math.min(Math.max(r.top + Math.min(r.height, 40) / 2, 0), window.innerHeight - 1);
            const top = document.elementFromPoint(x, y);
            const visible = r.bottom > 0 && r.top < window.innerHeight && top !== null && (el === top || el.contains(top) || top.contains(el));
            const over = top ? `${top.tagName}.${String(top.className).split(' ')[0]}` : 'nothing';
            return {
              visible,
              role: el.getAttribute('role'),
              text: (el.textContent ?? '').trim().slice(0, 40),
              tag: el.tagName,
              name: el.getAttribute('aria-label') ?? '',
              where: `${Math.round(r.top)}–${Math.round(r.bottom)} of ${window.innerHeight}, under ${over}`,
            };
          });
          if (!focus) continue;
          if (!focus.visible) hidden.push(`${focus.tag} ${focus.role ?? ''} "${focus.text || focus.name}" at ${focus.where}`);
          if (focus.role === 'radio' && answered < 3) {
            await page.keyboard.press('ArrowRight');
            answered++;
          }
          if (focus.tag === 'BUTTON' && focus.text === slScreens.forms.save) {
            await page.keyboard.press('Enter');
            saved = true;
          }
        }
        expect(saved).toBe(true);
        expect(answered).toBeGreaterThan(0);
        await page.getByText(slScreens.states.saved, { exact: false }).or(page.getByTestId('form-missing')).first().waitFor();
        expect(hidden).toEqual([]);
        // Offline with waiting edits: the header's pill must not widen the page.
        await page.locator('[data-testid="conn-status"] .conn-status__badge').waitFor();
        expect(await overflowAt360(page)).toBeLessThanOrEqual(0);
        await goHash(page, '#/');
        await screenReady(page);
        expect(await overflowAt360(page)).toBeLessThanOrEqual(0);
        await keepScreenshot(page, path.join(SHOTS, 'home-offline-pending.png'));
      });
    } finally {
      await close();
    }
  });
});
