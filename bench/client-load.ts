/**
 * How fast a signed-in farmer sees the meadow list on a mid-range phone, in Chromium against the
 * real server (buildApp, the demo project, the embedded identity provider) serving the production
 * build in dist/. Phone profile through the DevTools protocol: CPU slowed 4×, 150 ms round trip,
 * 1.6 Mbit/s down, 750 kbit/s up, a 390×844 viewport.
 *
 * - client.load_first_list_ms    first visit (no service worker, no device data; signed in: the
 *                                tokens are in localStorage as after the login page) until a path
 *                                row of the home screen is in the document
 * - client.load_warm_list_ms     the next visit, online (service worker installed, device data)
 * - client.load_offline_list_ms  the next visit with the network off
 * - client.load_first_js_kb      JavaScript bytes over the wire on the first visit (compressed size
 *                                plus headers, as the network reports them)
 * Each the median of RUNS fresh browser contexts. Times are the page's own clock (performance.now()
 * from navigation start) when the first `home-path-…` row appears. Skipped with a message when
 * dist/ or Chromium is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildApp } from '../src/server/app';
import type { BenchIo } from './sync';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
const RUNS = Number(process.env.CLIENT_LOAD_RUNS ?? 3);
const FARMER = { email: 'kmet1@example.si', password: 'demo' };
const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downBytesPerS: (1.6 * 1_000_000) / 8,
  upBytesPerS: (750 * 1_000) / 8,
  viewport: { width: 390, height: 844 },
};
const LIST_ROW = '[data-testid^="home-path-"]';
const NAMES = ['client.load_first_list_ms', 'client.load_warm_list_ms', 'client.load_offline_list_ms', 'client.load_first_js_kb'] as const;

/**
 * Records on the page's clock when the first path row enters the document. A string, not a
 * function: tsx's name-keeping helpers would not exist in the page.
 */
const WATCH_FOR_LIST = `new MutationObserver(function () {
  if (window.__listAt === undefined && document.querySelector(${JSON.stringify(LIST_ROW)})) window.__listAt = performance.now();
}).observe(document, { subtree: true, childList: true });`;

/** Applies the phone profile to the page; returns a counter of JavaScript bytes received. */
async function phoneProfile(context: BrowserContext, page: Page): Promise<{ jsBytes: () => number }> {
  const cdp = await context.newCDPSession(page);
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

async function listShownAt(page: Page): Promise<number> {
  try {
    const handle = await page.waitForFunction(() => (window as unknown as { __listAt?: number }).__listAt, undefined, { timeout: 120_000 });
    return (await handle.jsonValue()) as number;
  } catch (error) {
    const text = await page.evaluate(() => document.body.innerText.slice(0, 300)).catch(() => '');
    throw new Error(`no meadow list at ${page.url()}: ${text}`, { cause: error });
  }
}

async function signIn(browser: Browser, origin: string): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const context = await browser.newContext({ locale: 'sl-SI' });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.waitForURL(/\/login-actions\//, { timeout: 60_000 });
  await page.getByLabel('E-pošta ali uporabniško ime', { exact: true }).fill(FARMER.email);
  await page.getByLabel('Geslo', { exact: true }).fill(FARMER.password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/auth/')), page.getByRole('button', { name: 'Prijava' }).click()]);
  await page.waitForSelector(LIST_ROW, { timeout: 60_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function clientLoadFigures({ want, emit, log }: BenchIo): Promise<void> {
  if (!NAMES.some(want)) return;
  const dist = path.resolve('dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    log('dist/ has no build: client.load_* figures skipped (npm run build)');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    log(`Chromium not found at ${CHROMIUM}: client.load_* figures skipped`);
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-load-'));
  const app = await buildApp({ dataDir, demo: true, clientDir: dist, logger: false, auth: 'embedded', production: false });
  let browser: Browser | undefined;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const origin = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
    const storageState = await signIn(browser, origin);
    const first: number[] = [];
    const warm: number[] = [];
    const offline: number[] = [];
    const jsKb: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ storageState, locale: 'sl-SI', serviceWorkers: 'allow', viewport: PHONE.viewport });
      await context.addInitScript({ content: WATCH_FOR_LIST });
      try {
        const page = await context.newPage();
        const counter = await phoneProfile(context, page);
        await page.goto(`${origin}/`);
        first.push(await listShownAt(page));
        // Usable offline: the service worker is active (its precache done) and controls the page.
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready;
          if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
        });
        jsKb.push(counter.jsBytes() / 1024);
        await page.close();

        const next = await context.newPage();
        await phoneProfile(context, next);
        await next.goto(`${origin}/`);
        warm.push(await listShownAt(next));
        await next.close();

        await context.setOffline(true);
        const away = await context.newPage();
        await phoneProfile(context, away);
        await away.goto(`${origin}/`);
        offline.push(await listShownAt(away));
        await away.close();
      } finally {
        await context.close();
      }
      log(`run ${run + 1}: first ${first.at(-1)!.toFixed(0)} ms (${jsKb.at(-1)!.toFixed(0)} KB JS), warm ${warm.at(-1)!.toFixed(0)} ms, offline ${offline.at(-1)!.toFixed(0)} ms`);
    }
    emit('client.load_first_list_ms', median(first));
    emit('client.load_warm_list_ms', median(warm));
    emit('client.load_offline_list_ms', median(offline));
    emit('client.load_first_js_kb', median(jsKb), 'KB');
  } finally {
    await browser?.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
