/**
 * How fast a signed-in farmer gets to their paths and answers a form on a mid-range phone, in
 * Chromium against the real server (buildApp, the demo project, the embedded identity provider)
 * serving the production build in dist/. Phone profile through the DevTools protocol: CPU slowed
 * 4×, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, a 390×844 viewport.
 *
 * "Paths on screen": the first frame in which one of the farmer's paths (a link to
 * `#/paths/<id>`; not "Nova pot", not a meadow card) is laid out and visible, and, when it is in
 * the viewport, is what a tap at its centre would hit (stderr says whether it was in view: the
 * farmer has a form in progress, and the "what is waiting" card it brings follows the meadows).
 * Taken on the page's clock (performance.now() from navigation start) in the
 * requestAnimationFrame callback of that frame, just before its paint.
 *
 * - client.load_first_paths_ms    first visit (no service worker, no device data; signed in: the
 *                                 identity and the config copy the app keeps before it sends a new
 *                                 device to the login page are all there is in localStorage: no
 *                                 home picture)
 * - client.load_warm_paths_ms     the next visit, online (service worker installed, device data)
 * - client.load_offline_paths_ms  the next visit with the network off
 * - client.load_first_js_kb       JavaScript bytes over the wire on the first visit (compressed
 *                                 size plus headers, as the network reports them)
 * - client.load_first_line_floor_ms  the phone line's own floor for the first visit: two round
 *                                 trips (the page; then its scripts and the season's first reads)
 *                                 plus every byte the server sent until the paths were on screen
 *                                 (counted on its sockets: scripts, sign-in, config, answers) at
 *                                 the line's 1.6 Mbit/s; no CPU time in it, so it does not scale
 *                                 with the IndexedDB floor
 * - client.load_form_render_ms    on the warm visit's page, from the forms list, the hash change
 *                                 that opens the farmer's form of the meadow kind (24 indicators;
 *                                 made once before the visits) until the first frame in which its
 *                                 first indicator's answer is on screen and tappable (the screen's
 *                                 chunk comes from the service worker, as after a tap)
 * - client.load_tap_paint_median_ms / _worst_ms  taps on answers of that form (TAPS per visit,
 *                                 each on another indicator, after the last one settled): from
 *                                 the click event's timestamp until the next paint (a task posted
 *                                 from the following frame's requestAnimationFrame runs after
 *                                 that frame's paint); the median and the worst of all visits
 * - client.load_results_online_ms / _offline_ms  the farmer's results (all seasons of their paths:
 *                                 four reads, each filtered by the ids of the one before), on the
 *                                 page of another warm visit and on the offline visit's page:
 *                                 from the hash change to '#/results' until the first frame with
 *                                 their rows shown (the filters above the table, or the empty
 *                                 state, laid out and visible). Each page opens them once before
 *                                 (their code loaded; online, their history read whole onto the
 *                                 device, as by a farmer who looked at them before); the
 *                                 device-first rule wants online no slower than offline
 * - client.load_path_online_ms / _offline_ms  a path opened from home, as a farmer at the meadow
 *                                 taps it, on the same two pages after the results: from the hash
 *                                 change to '#/paths/<id>' until the first frame in which
 *                                 "Začni snemanje" is on screen and tappable (a walk can start;
 *                                 stderr adds when the map was ready)
 * - client.load_form_save_offline_ms  on the offline visit's page: the form with every indicator
 *                                 answered (untimed), then a tap on "Shrani obrazec" until the
 *                                 saved message is on screen (offline: nothing is sent, so the
 *                                 server's form stays unanswered for the next run)
 * - client.load_photo_thumbnail_ms / _longest_task_ms  on the form after the taps, a 12-megapixel
 *                                 camera photo chosen for the first indicator: until its
 *                                 thumbnail is shown, and the longest main-thread task meanwhile
 *                                 (0: none over 50 ms); a tap waits for that task
 *                                 (bench/client-photo.ts)
 * - client.load_photo_on_page_thumbnail_ms / _longest_task_ms  the same on a page of the same
 *                                 visit where no worker can start, so the app resizes the photo
 *                                 on the page: the naive way
 * - floor.idb_put_10k_ms          raw IndexedDB in the same Chromium (bench/idb-floor.ts): the
 *                                 median of FLOOR_RUNS measurements before the visits and as many
 *                                 after them; the time goals are for a floor of 1,100 ms and
 *                                 scale with it
 * The times are medians of RUNS fresh browser contexts. Skipped with a message when dist/ or
 * Chromium is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from '../scripts/chromium';
import { slMap, slScreens } from '../src/common/i18n/sl';
import { buildApp } from '../src/server/app';
import { IDENTITY_STORAGE_KEYS } from '../src/client/lib/auth/local-identity';
import { CONFIG_STORAGE_KEY } from '../src/client/lib/config/load-config';
import { PICTURE_BUSY_ATTRIBUTE } from '../src/client/lib/home-snapshot';
import type { BenchIo } from './sync';
import { FLOOR_NAME, measureIdbFloor } from './idb-floor';
import { cpuSnapshot, describeCpu, untilChromiumQuiet } from './process-cpu';
import { addPhoto, cameraPhoto, LONG_TASKS_HELPER, NO_WORKERS, type PhotoTimes } from './client-photo';

const RUNS = Number(process.env.CLIENT_LOAD_RUNS ?? 3);
const FARMER = { email: 'kmet1@example.si', password: 'demo' };
const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downBytesPerS: (1.6 * 1_000_000) / 8,
  upBytesPerS: (750 * 1_000) / 8,
  viewport: { width: 390, height: 844 },
};
const TAPS = Number(process.env.CLIENT_LOAD_TAPS ?? 8);
const FLOOR_RUNS = 3;
/** A folder for Chromium traces of each visit (DevTools' Performance panel opens them). */
const TRACE_DIR = process.env.CLIENT_LOAD_TRACE;
const TRACE_CATEGORIES = [
  'disabled-by-default-v8.cpu_profiler',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'loading',
  'blink.user_timing',
];

/** Starts a trace of `page` to TRACE_DIR/<name>.json when asked for; resolves to what ends it. */
async function traceIfAsked(browser: Browser, page: Page, name: string): Promise<() => Promise<unknown>> {
  if (!TRACE_DIR) return async () => undefined;
  await browser.startTracing(page, { path: path.join(TRACE_DIR, `${name}.json`), categories: TRACE_CATEGORIES });
  return () => browser.stopTracing();
}
/** What a new device holds in localStorage when it comes back from the login page. */
const AFTER_LOGIN_PAGE = new Set([...IDENTITY_STORAGE_KEYS, CONFIG_STORAGE_KEY]);
const MEADOW_FORM_TITLE = 'Popis kazalnih rastlin na poti';
/** The path screen's button that starts a walk. */
const START_WALK = slMap.recording.start;
/** The form's save button. */
const SAVE_FORM = slScreens.forms.save;
const NAMES = [
  'client.load_first_paths_ms',
  'client.load_warm_paths_ms',
  'client.load_offline_paths_ms',
  'client.load_first_js_kb',
  'client.load_first_line_floor_ms',
  'client.load_form_render_ms',
  'client.load_tap_paint_median_ms',
  'client.load_tap_paint_worst_ms',
  'client.load_results_online_ms',
  'client.load_results_offline_ms',
  'client.load_path_online_ms',
  'client.load_path_offline_ms',
  'client.load_form_save_offline_ms',
  'client.load_photo_thumbnail_ms',
  'client.load_photo_longest_task_ms',
  'client.load_photo_on_page_thumbnail_ms',
  'client.load_photo_on_page_longest_task_ms',
] as const;

/**
 * The page's side of the measurements, strings rather than functions: tsx's name-keeping helpers
 * would not exist in the page. `__onScreen(test, done)` calls done(time) in the first frame in
 * which test() finds what it wants laid out in the viewport and hit by a tap at its centre,
 * checking once per frame while the document changes. The click listener keeps each tap's time
 * to the next paint in `__taps`.
 */
const PAGE_HELPERS = `
window.__tappable = function (el, belowFold) {
  var r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0 || r.bottom <= 0 || r.right <= 0 || r.left >= innerWidth) return false;
  if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
  if (r.top >= innerHeight) return !!belowFold;
  var x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  var y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  var hit = document.elementFromPoint(x, y);
  return !!hit && (el === hit || el.contains(hit));
};
window.__onScreen = function (test, done) {
  var pending = false, finished = false;
  function check() {
    pending = false;
    if (finished) return;
    var t = performance.now();
    if (test()) { finished = true; observer.disconnect(); done(t); }
  }
  var observer = new MutationObserver(function () {
    if (!pending && !finished) { pending = true; requestAnimationFrame(check); }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  pending = true;
  requestAnimationFrame(check);
};
window.__pathLink = function () {
  var links = document.querySelectorAll('a[href^="#/paths/"]');
  for (var i = 0; i < links.length; i++) {
    var href = links[i].getAttribute('href');
    if (/^#\\/paths\\/[^/?#]+$/.test(href) && href !== '#/paths/new' && window.__tappable(links[i], true)) { window.__pathInView = links[i].getBoundingClientRect().top < innerHeight; return true; }
  }
  return false;
};
window.__onScreen(window.__pathLink, function (t) { window.__pathsAt = t; });
window.__taps = [];
addEventListener('click', function (event) {
  var start = event.timeStamp;
  requestAnimationFrame(function () {
    var channel = new MessageChannel();
    channel.port1.onmessage = function () { window.__taps.push(performance.now() - start); };
    channel.port2.postMessage(0);
  });
}, true);
`;

/**
 * Round trips a first visit cannot do without: the page, then its scripts and the season's first
 * reads (which start from the device's copy of config.json, beside the scripts).
 */
const FIRST_VISIT_ROUND_TRIPS = 2;

/** The phone line's own time for a first visit: its round trips, and the bytes the server sent it at the line's speed. */
function lineFloorMs(bytes: number): number {
  return FIRST_VISIT_ROUND_TRIPS * PHONE.latencyMs + (bytes / PHONE.downBytesPerS) * 1000;
}

/**
 * Bytes the server has written to all its connections so far: a visit's bytes are the difference
 * (one visit runs at a time; the IndexedDB floor's page is not counted, it runs before and after).
 */
function bytesSentBy(server: Server): () => number {
  const open = new Set<Socket>();
  let closed = 0;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      closed += socket.bytesWritten;
      open.delete(socket);
    });
  });
  return () => [...open].reduce((sum, socket) => sum + socket.bytesWritten, closed);
}

/**
 * A timed visit starts once the browser is quiet: the page closed before it (the path's map
 * above all) keeps its renderer and the GPU process busy for about half a second, which the next
 * visit would otherwise share the two cores with. A wait of over a second is said.
 */
async function startQuiet(log: (message: string) => void, visit: string): Promise<void> {
  const waited = await untilChromiumQuiet();
  if (waited > 1000) log(`${visit}: waited ${waited.toFixed(0)} ms for the browser to go quiet`);
}

/** Each page's DevTools session (the main thread's busy time is read from it). */
const sessions = new WeakMap<Page, CDPSession>();

/** Applies the phone profile to the page; returns a counter of JavaScript bytes received. */
async function phoneProfile(context: BrowserContext, page: Page): Promise<{ jsBytes: () => number }> {
  const cdp = await context.newCDPSession(page);
  sessions.set(page, cdp);
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: PHONE.downBytesPerS,
    uploadThroughput: PHONE.upBytesPerS,
  });
  const scripts = new Set<string>();
  let bytes = 0;
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script' && !event.response.fromServiceWorker && !event.response.fromDiskCache) scripts.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event) => {
    if (scripts.has(event.requestId)) bytes += event.encodedDataLength;
  });
  return { jsBytes: () => bytes };
}

type PageWindow = { __pathsAt?: number; __formAt?: number; __taps: number[] };

async function pathsShownAt(page: Page, log: (message: string) => void): Promise<number> {
  try {
    const handle = await page.waitForFunction(() => (window as unknown as PageWindow).__pathsAt, undefined, { timeout: 120_000 });
    const at = (await handle.jsonValue()) as number;
    const inView = await page.evaluate(() => (window as unknown as { __pathInView: boolean }).__pathInView);
    const { metrics } = await sessions.get(page)!.send('Performance.getMetrics');
    const busy = (name: string) => ((metrics.find((m) => m.name === name)?.value ?? 0) * 1000).toFixed(0);
    log(
      `paths at ${at.toFixed(0)} ms${inView ? '' : ' (the first one below the fold)'}: ` +
        `main thread so far ${busy('TaskDuration')} ms busy, of which script ${busy('ScriptDuration')}, style and layout ${busy('RecalcStyleDuration')} + ${busy('LayoutDuration')}`,
    );
    return at;
  } catch (error) {
    const text = await page.evaluate(() => document.body.innerText.slice(0, 300)).catch(() => '');
    throw new Error(`no path on screen at ${page.url()}: ${text}`, { cause: error });
  }
}

/**
 * The id of the farmer's first form of the meadow kind (24 indicators) in the season, from the
 * forms screen. The demo farmer has none in the current season at first: the first visit makes
 * one on its first path's screen, as a farmer does (later visits find it, from the server).
 */
async function meadowFormId(page: Page): Promise<string> {
  const row = page.locator('[data-testid^="form-item-"]', { hasText: MEADOW_FORM_TITLE }).first();
  const showForms = async () => {
    await page.evaluate(() => {
      location.hash = '#/forms';
    });
    await page.locator('[data-testid^="form-item-"], .empty-state').first().waitFor({ timeout: 60_000 });
  };
  await showForms();
  if ((await row.count()) === 0) {
    await page.evaluate(() => {
      location.hash = '#/';
    });
    const path = page.locator('[data-testid^="home-path-"]').first();
    await path.click();
    await page.getByRole('button', { name: 'Ustvari obrazec' }).waitFor({ timeout: 60_000 });
    await page.getByLabel('Vrsta obrazca').selectOption({ label: MEADOW_FORM_TITLE });
    await page.getByRole('button', { name: 'Ustvari obrazec' }).click();
    await page.waitForURL(/#\/forms\/./, { timeout: 60_000 });
    await page.locator('[data-testid^="indicator-"]').first().waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    await showForms();
  }
  await row.waitFor({ timeout: 60_000 }).catch(async (error: unknown) => {
    const text = await page.evaluate(() => document.body.innerText.slice(0, 600)).catch(() => '');
    throw new Error(`no form of the meadow kind on the forms screen: ${text}`, { cause: error });
  });
  const href = (await row.getAttribute('href')) ?? '';
  const id = /^#\/forms\/(.+)$/.exec(href)?.[1];
  if (!id) throw new Error(`no meadow form among the forms: ${href}`);
  return id;
}

/**
 * Opens the form by its address on the page's own clock; resolves to the time until its first
 * indicator's answer is on screen and tappable, and logs how many indicators were in the document
 * then.
 */
async function formRenderMs(page: Page, formId: string, log: (message: string) => void): Promise<number> {
  await page.evaluate(
    `(function () {
      var opened = performance.now();
      window.__onScreen(function () {
        var answer = document.querySelector('[data-testid^="indicator-"] [role="radio"], [data-testid^="indicator-"] input');
        return !!answer && window.__tappable(answer);
      }, function (t) {
        window.__formAt = t - opened;
        window.__formIndicators = document.querySelectorAll('[data-testid^="indicator-"]').length;
      });
      location.hash = '#/forms/' + ${JSON.stringify(formId)};
    })()`,
  );
  const handle = await page.waitForFunction(() => (window as unknown as PageWindow).__formAt, undefined, { timeout: 60_000 });
  const ms = (await handle.jsonValue()) as number;
  const shown = await page.evaluate(() => (window as unknown as { __formIndicators: number }).__formIndicators);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="indicator-"]').length >= 24, undefined, { timeout: 60_000 });
  log(`form on screen ${ms.toFixed(0)} ms with ${shown} indicators in the document`);
  return ms;
}

/**
 * On the open form: answers every indicator that has answers to choose (untimed; a farmer who went
 * through the whole list), then taps "Shrani obrazec"; resolves to the time from the tap until the
 * saved message is on screen, and how many answers the save held.
 */
async function formSaveMs(page: Page): Promise<{ ms: number; answers: number }> {
  // Every indicator in the document (the list renders its later ones a slice per frame).
  await page.waitForFunction(() => document.querySelectorAll('[data-testid^="indicator-"]').length >= 24, undefined, { timeout: 60_000 });
  const answers = await page.evaluate(() => {
    let count = 0;
    for (const card of document.querySelectorAll('[data-testid^="indicator-"]')) {
      const radio = card.querySelector<HTMLElement>('[role="radio"]:not([disabled])');
      if (!radio) continue;
      radio.click();
      count++;
    }
    return count;
  });
  const button = page.getByRole('button', { name: SAVE_FORM, exact: true });
  await button.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.evaluate(`(function () {
    window.__savedAt = undefined;
    addEventListener('click', function (event) {
      var tapped = event.timeStamp;
      window.__onScreen(function () {
        var message = document.querySelector('.save-message--ok');
        return !!message && window.__tappable(message, true);
      }, function (t) { window.__savedAt = t - tapped; });
    }, { capture: true, once: true });
  })()`);
  await button.click();
  const handle = await page.waitForFunction(() => (window as unknown as { __savedAt?: number }).__savedAt, undefined, { timeout: 60_000 });
  return { ms: (await handle.jsonValue()) as number, answers };
}

/** Opens the form by its address once its start-up is over, as after a tap in the forms list. */
async function openForm(page: Page, formId: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate((id) => {
    location.hash = `#/forms/${id}`;
  }, formId);
  await page.locator('[data-testid^="indicator-"] [role="radio"]').first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
}

const describePhoto = ({ thumbnailMs, longestTaskMs }: PhotoTimes) =>
  `thumbnail at ${thumbnailMs.toFixed(0)} ms, longest main-thread task meanwhile ${longestTaskMs.toFixed(0)} ms`;

/** Opens the results by their address on the page's own clock; resolves to the time until their rows are shown (`client.load_results_*`). */
async function resultsShownMs(page: Page): Promise<number> {
  await page.evaluate(`(function () {
    window.__resultsAt = undefined;
    var opened = performance.now();
    window.__onScreen(function () {
      // Their filters (shown with the rows, whichever season they pick) or the empty state, laid out
      // and visible: the screen has its rows (a loading screen has neither).
      var content = document.querySelector('main fieldset.filters, main .empty-state');
      var box = content && content.getBoundingClientRect();
      return !!box && box.width > 0 && box.height > 0 && (!content.checkVisibility || content.checkVisibility({ visibilityProperty: true }));
    }, function (t) { window.__resultsAt = t - opened; });
    location.hash = '#/results';
  })()`);
  const handle = await page.waitForFunction(() => (window as unknown as { __resultsAt?: number }).__resultsAt, undefined, { timeout: 60_000 });
  return (await handle.jsonValue()) as number;
}

/**
 * The results opened a second time on the page (`resultsShownMs`): once unmeasured (their code
 * loaded; online, their history read whole onto the device), home, then measured.
 */
async function resultsAgainMs(page: Page): Promise<number> {
  await resultsShownMs(page);
  await page.waitForLoadState('networkidle');
  await backHome(page);
  return resultsShownMs(page);
}

/**
 * Back to home, until the season's own rows are shown (not a picture of them, which is marked
 * busy) and the network is idle; resolves to the first path's row.
 */
async function backHome(page: Page): Promise<Locator> {
  await page.evaluate(() => {
    location.hash = '#/';
  });
  const row = page.locator(`[${PICTURE_BUSY_ATTRIBUTE}]:not([aria-busy="true"]) [data-testid^="home-path-"]`).first();
  await row.waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  return row;
}

/**
 * From home, opens the first path by its address on the page's own clock; resolves to the time
 * until "Začni snemanje" is on screen and tappable (`client.load_path_*`), and logs when the map
 * was ready.
 */
async function pathShownMs(page: Page, log: (message: string) => void): Promise<number> {
  const href = (await (await backHome(page)).getAttribute('href')) ?? '';
  await page.evaluate(`(function () {
    window.__pathAt = undefined;
    window.__mapAt = undefined;
    var opened = performance.now();
    window.__onScreen(function () {
      var start = document.querySelector('.mt-recorder button');
      return !!start && start.textContent.trim() === ${JSON.stringify(START_WALK)} && window.__tappable(start);
    }, function (t) { window.__pathAt = t - opened; });
    window.__onScreen(function () {
      return !!document.querySelector('[data-testid="map-view"][data-ready="true"]');
    }, function (t) { window.__mapAt = t - opened; });
    location.hash = ${JSON.stringify(href)};
  })()`);
  const handle = await page.waitForFunction(() => (window as unknown as { __pathAt?: number }).__pathAt, undefined, { timeout: 60_000 });
  const ms = (await handle.jsonValue()) as number;
  const map = await page.waitForFunction(() => (window as unknown as { __mapAt?: number }).__mapAt, undefined, { timeout: 60_000 });
  log(`path ${href}: a walk can start at ${ms.toFixed(0)} ms, its map ready at ${((await map.jsonValue()) as number).toFixed(0)} ms`);
  return ms;
}

/**
 * Taps the first answer of `count` indicators with an answer of radio buttons, one after another,
 * each brought into view first and tapped once the page has painted twice since; resolves to each
 * tap's time from the click to the next paint.
 */
async function tapTimes(page: Page, count: number): Promise<number[]> {
  const keys = await page.evaluate(() =>
    [...document.querySelectorAll('[data-testid^="indicator-"]')]
      .filter((card) => card.querySelector('[role="radio"]:not([disabled])'))
      .map((card) => card.getAttribute('data-testid')!),
  );
  if (keys.length === 0) throw new Error('the form has no answer to tap (read-only?)');
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const key = keys[i % keys.length]!;
    const radio = page.locator(`[data-testid="${key}"] [role="radio"]`).first();
    await radio.scrollIntoViewIfNeeded();
    // Two frames: the scroll painted and nothing of the last tap still pending.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const box = await radio.boundingBox();
    if (!box) throw new Error(`${key}: the answer is not laid out`);
    const before = await page.evaluate(() => (window as unknown as PageWindow).__taps.length);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const handle = await page.waitForFunction((n) => (window as unknown as PageWindow).__taps[n], before, { timeout: 30_000 });
    times.push((await handle.jsonValue()) as number);
  }
  return times;
}

/**
 * Signs the farmer in (the tokens the visits start with) and makes sure the farmer has a form of
 * the meadow kind in the season, as mid-season (every visit then shows the same home screen, with
 * its "what is waiting" card); resolves to the signed-in state and that form's id.
 */
async function signIn(browser: Browser, origin: string): Promise<{ storageState: Awaited<ReturnType<BrowserContext['storageState']>>; formId: string }> {
  const context = await browser.newContext({ locale: 'sl-SI' });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForURL(/\/login-actions\//, { timeout: 60_000 });
  await page.getByLabel('E-pošta ali uporabniško ime', { exact: true }).fill(FARMER.email);
  await page.getByLabel('Geslo', { exact: true }).fill(FARMER.password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/auth/')), page.getByRole('button', { name: 'Prijava' }).click()]);
  await page.waitForSelector('[data-testid^="home-path-"]', { timeout: 60_000 });
  const signedIn = await context.storageState();
  const storageState = {
    ...signedIn,
    origins: signedIn.origins.map((origin) => ({ ...origin, localStorage: origin.localStorage.filter((entry) => AFTER_LOGIN_PAGE.has(entry.name)) })),
  };
  const formId = await meadowFormId(page);
  await context.close();
  return { storageState, formId };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function clientLoadFigures({ want, emit, log }: BenchIo): Promise<void> {
  if (!NAMES.some(want)) return;
  const dist = path.resolve('dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    log('dist/ has no build: client.load_* figures skipped (npm run build)');
    return;
  }
  if (!existsSync(CHROMIUM_PATH)) {
    log(`Chromium not found at ${CHROMIUM_PATH}: client.load_* figures skipped`);
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-load-'));
  const app = await buildApp({ dataDir, demo: true, clientDir: dist, logger: false, auth: 'embedded', production: false });
  let browser: Browser | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const bytesSent = bytesSentBy(app.server);
    const { port } = app.server.address() as { port: number };
    const origin = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
    const floors = await measureIdbFloor(browser, origin, '/config.json', FLOOR_RUNS);
    log(`${FLOOR_NAME} before the visits: ${floors.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    const { storageState, formId } = await signIn(browser, origin);
    const first: number[] = [];
    const warm: number[] = [];
    const offline: number[] = [];
    const jsKb: number[] = [];
    const lineFloors: number[] = [];
    const form: number[] = [];
    const taps: number[] = [];
    const resultsOnline: number[] = [];
    const resultsOffline: number[] = [];
    const pathOnline: number[] = [];
    const pathOffline: number[] = [];
    const saves: number[] = [];
    const resultsWanted = ['client.load_results_online_ms', 'client.load_results_offline_ms'].some(want);
    const pathWanted = ['client.load_path_online_ms', 'client.load_path_offline_ms'].some(want);
    const formWanted = ['client.load_form_render_ms', 'client.load_tap_paint_median_ms', 'client.load_tap_paint_worst_ms'].some(want);
    const photoWanted = NAMES.filter((name) => name.startsWith('client.load_photo_')).some(want);
    const photo = photoWanted ? await cameraPhoto(dataDir) : '';
    const photos: PhotoTimes[] = [];
    const photosOnPage: PhotoTimes[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ storageState, locale: 'sl-SI', serviceWorkers: 'allow', viewport: PHONE.viewport });
      await context.addInitScript({ content: PAGE_HELPERS + LONG_TASKS_HELPER });
      try {
        await startQuiet(log, 'first visit');
        const page = await context.newPage();
        const counter = await phoneProfile(context, page);
        const stopTraceFirst = await traceIfAsked(browser, page, `first-${run + 1}`);
        const cpuBefore = cpuSnapshot();
        const bytesBefore = bytesSent();
        await page.goto(`${origin}/`);
        first.push(await pathsShownAt(page, log));
        const visitBytes = bytesSent() - bytesBefore;
        lineFloors.push(lineFloorMs(visitBytes));
        log(
          `first visit: the server sent ${(visitBytes / 1024).toFixed(1)} KB until the paths; the line's floor for them ` +
            `(${FIRST_VISIT_ROUND_TRIPS} round trips of ${PHONE.latencyMs} ms and the bytes at ${(PHONE.downBytesPerS * 8) / 1e6} Mbit/s) ${lineFloors.at(-1)!.toFixed(0)} ms`,
        );
        // Where the two cores went until then (the page's renderer runs its service worker and workers too).
        log(`first visit, CPU ms by process until the paths: ${describeCpu(cpuBefore, cpuSnapshot())}`);
        await stopTraceFirst();
        // Usable offline: the service worker is active (its precache done) and controls the page.
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready;
          if (!navigator.serviceWorker.controller)
            await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
        });
        jsKb.push(counter.jsBytes() / 1024);
        await page.close();

        await startQuiet(log, 'warm visit');
        const next = await context.newPage();
        await phoneProfile(context, next);
        const stopTraceWarm = await traceIfAsked(browser, next, `warm-${run + 1}`);
        await next.goto(`${origin}/`);
        warm.push(await pathsShownAt(next, log));
        await stopTraceWarm();
        if (formWanted) {
          // The form from the warm visit's page once its start-up is over (the season read from
          // the server), as a farmer opens it: the forms list first, then the form.
          await next.waitForLoadState('networkidle');
          await next.evaluate(() => {
            location.hash = '#/forms';
          });
          await next.locator(`[data-testid="form-item-${formId}"]`).waitFor({ timeout: 60_000 });
          await next.waitForLoadState('networkidle');
          const stopTraceForm = await traceIfAsked(browser, next, `form-${run + 1}`);
          form.push(await formRenderMs(next, formId, log));
          await next.waitForLoadState('networkidle');
          const tapped = await tapTimes(next, TAPS);
          await stopTraceForm();
          log(`taps to the next paint: ${tapped.map((ms) => ms.toFixed(0)).join(', ')} ms`);
          taps.push(...tapped);
        }
        if (photoWanted) {
          if (!formWanted) await openForm(next, formId);
          photos.push(await addPhoto(next, photo));
          log(`photo: ${describePhoto(photos.at(-1)!)}`);
        }
        await next.close();
        if (photoWanted) {
          const naive = await context.newPage();
          await naive.addInitScript({ content: NO_WORKERS });
          await phoneProfile(context, naive);
          await naive.goto(`${origin}/`);
          await openForm(naive, formId);
          photosOnPage.push(await addPhoto(naive, photo));
          log(`photo resized on the page: ${describePhoto(photosOnPage.at(-1)!)}`);
          await naive.close();
        }
        if (resultsWanted || pathWanted) {
          // A page of its own: the form's page holds unsaved answers, which ask before leaving.
          const again = await context.newPage();
          await phoneProfile(context, again);
          await again.goto(`${origin}/`);
          await again.locator('[data-testid^="home-path-"]').first().waitFor({ timeout: 60_000 });
          if (resultsWanted) {
            resultsOnline.push(await resultsAgainMs(again));
            log(`results online ${resultsOnline.at(-1)!.toFixed(0)} ms`);
          }
          if (pathWanted) pathOnline.push(await pathShownMs(again, log));
          await again.close();
        }

        await context.setOffline(true);
        await startQuiet(log, 'offline visit');
        const away = await context.newPage();
        await phoneProfile(context, away);
        const stopTraceOffline = await traceIfAsked(browser, away, `offline-${run + 1}`);
        await away.goto(`${origin}/`);
        offline.push(await pathsShownAt(away, log));
        await stopTraceOffline();
        if (resultsWanted) {
          resultsOffline.push(await resultsAgainMs(away));
          log(`results offline ${resultsOffline.at(-1)!.toFixed(0)} ms`);
        }
        if (pathWanted) pathOffline.push(await pathShownMs(away, log));
        if (want('client.load_form_save_offline_ms')) {
          // Offline, as in the field without a signal: nothing is sent, so the server's form stays
          // unanswered for the next run's taps (a new context is a new device).
          await openForm(away, formId);
          const stopTraceSave = await traceIfAsked(browser, away, `save-${run + 1}`);
          const saved = await formSaveMs(away);
          await stopTraceSave();
          saves.push(saved.ms);
          log(`form saved offline with ${saved.answers} answers: ${saved.ms.toFixed(0)} ms until the saved message`);
        }
        await away.close();
      } finally {
        await context.close();
      }
      log(
        `run ${run + 1}: first ${first.at(-1)!.toFixed(0)} ms (${jsKb.at(-1)!.toFixed(0)} KB JS), warm ${warm.at(-1)!.toFixed(0)} ms, offline ${offline.at(-1)!.toFixed(0)} ms` +
          (formWanted ? `, form ${form.at(-1)!.toFixed(0)} ms` : ''),
      );
    }
    const after = await measureIdbFloor(browser, origin, '/config.json', FLOOR_RUNS);
    log(`${FLOOR_NAME} after the visits: ${after.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    floors.push(...after);
    emit('client.load_first_paths_ms', median(first));
    emit('client.load_warm_paths_ms', median(warm));
    emit('client.load_offline_paths_ms', median(offline));
    emit('client.load_first_js_kb', median(jsKb), 'KB');
    emit('client.load_first_line_floor_ms', median(lineFloors));
    if (formWanted) {
      emit('client.load_form_render_ms', median(form));
      emit('client.load_tap_paint_median_ms', median(taps));
      emit('client.load_tap_paint_worst_ms', Math.max(...taps));
    }
    if (photoWanted) {
      emit('client.load_photo_thumbnail_ms', median(photos.map((p) => p.thumbnailMs)));
      emit('client.load_photo_longest_task_ms', median(photos.map((p) => p.longestTaskMs)));
      emit('client.load_photo_on_page_thumbnail_ms', median(photosOnPage.map((p) => p.thumbnailMs)));
      emit('client.load_photo_on_page_longest_task_ms', median(photosOnPage.map((p) => p.longestTaskMs)));
    }
    if (resultsWanted) {
      emit('client.load_results_online_ms', median(resultsOnline));
      emit('client.load_results_offline_ms', median(resultsOffline));
    }
    if (pathWanted) {
      emit('client.load_path_online_ms', median(pathOnline));
      emit('client.load_path_offline_ms', median(pathOffline));
    }
    if (saves.length) emit('client.load_form_save_offline_ms', median(saves));
    emit(FLOOR_NAME, median(floors));
  } finally {
    await browser?.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
