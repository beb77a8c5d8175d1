/**
 * End-to-end harness: the real server and a real browser. The pieces under the fixture the browser
 * tests use (fixture.ts); the chaos command (`npm run chaos -- --browser`) uses them outside jest.
 *
 * - startServer(): buildApp (src/server/app.ts) with a fresh temporary DATA_DIR, the demo project
 *   and the embedded identity provider, listening on 127.0.0.1 port 0 (never a fixed port).
 * - launchBrowser(): Debian's Chromium as scripts/chromium.ts starts it (SwiftShader so MapLibre
 *   renders headless). When Chromium is missing the suite is skipped with a message saying how to
 *   install it — unless CI is set, where it fails.
 * - signInThroughLoginPage(): fills the Slovenian login page of the embedded provider.
 * - recordArtifacts(): on failure, a screenshot, the browser console and whether the page still
 *   ran and painted go to test-results/e2e/<test name>/ (CI prints that folder).
 * - waitForCheck(): waits for an asynchronous check of the page (an IndexedDB read, say), which
 *   page.waitForFunction cannot do.
 * - Every page runs under the server's Content-Security-Policy and reports each violation to the
 *   console with CSP_VIOLATION (reportPolicyViolations per context, collectPageLog); recordArtifacts
 *   fails a test whose log has one, or an error the page threw and nothing caught.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from '../../scripts/chromium';
import { buildApp, type BuildAppOptions } from '../../src/server/app';
import type { IdentityOptions } from '../../src/server/auth';
import { OidcTestClient } from '../server/auth/oidc-client';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS_DIR = path.join(ROOT, 'test-results', 'e2e');

export const DEMO_USERS = {
  farmer1: { email: 'kmet1@example.si', password: 'demo' },
  farmer2: { email: 'kmet2@example.si', password: 'demo' },
  editor: { email: 'urednik@example.si', password: 'demo' },
  reader: { email: 'bralec@example.si', password: 'demo' },
} as const;

/** Whether the browser suite can run here; in CI a missing browser is a failure, not a skip. */
function browserAvailability(): { ok: true } | { ok: false; reason: string } {
  if (existsSync(CHROMIUM_PATH)) return { ok: true };
  return {
    ok: false,
    reason: `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get update && apt-get install -y chromium\` (Debian) or set CHROMIUM_PATH.`,
  };
}

/**
 * `describe` for browser suites: runs when Chromium is present; otherwise skips with the reason
 * printed — except in CI, where the suite runs and fails on the missing browser.
 */
export function describeE2E(name: string, fn: () => void): void {
  // jest's global `describe`, not an import of @jest/globals: this module also serves scripts run
  // outside jest (`npm run chaos -- --browser`), where that import cannot load.
  const availability = browserAvailability();
  if (!availability.ok && !process.env.CI) {
    console.warn(`[e2e] skipping "${name}": ${availability.reason}`);
    describe.skip(name, fn);
    return;
  }
  describe(name, fn);
}

export interface E2EServer {
  app: FastifyInstance;
  origin: string;
  dataDir: string;
  /** The built client it serves (a throwaway copy with `copyClient`). */
  clientDir: string;
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** Access-token lifetime in seconds (short to see a refresh). */
  accessTokenTtl?: number;
  /** Refresh-token lifetime in seconds (short for a session that cannot be renewed after a while offline). */
  refreshTokenTtl?: number;
  /** Load the demo project and demo accounts (default true). */
  demo?: boolean;
  /** Built client to serve (default dist/). */
  clientDir?: string;
  /** Serve a throwaway copy of the built client, which the test may change ("deploy" a new build); removed on close. */
  copyClient?: boolean;
  /** Routes to add before the server starts (test pages). */
  extraRoutes?: (app: FastifyInstance) => void | Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<E2EServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'travnik-e2e-'));
  const sourceClient = options.clientDir ?? path.join(ROOT, 'dist');
  const clientDir = options.copyClient ? mkdtempSync(path.join(tmpdir(), 'travnik-dist-')) : sourceClient;
  if (options.copyClient) cpSync(sourceClient, clientDir, { recursive: true });
  const removeDirs = () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (options.copyClient) rmSync(clientDir, { recursive: true, force: true });
  };
  const identity: NonNullable<IdentityOptions['identity']> = {
    ...(options.accessTokenTtl ? { accessTokenTtl: options.accessTokenTtl } : {}),
    ...(options.refreshTokenTtl ? { refreshTokenTtl: options.refreshTokenTtl } : {}),
  };
  // Typed separately: the identity settings pass through buildApp to registerIdentity.
  const appOptions: BuildAppOptions & Partial<IdentityOptions> = {
    dataDir,
    demo: options.demo ?? true,
    clientDir,
    logger: process.env.E2E_SERVER_LOG ? { level: 'info' } : false,
    auth: 'embedded',
    production: false,
    identity,
  };
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp(appOptions);
    await options.extraRoutes?.(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app?.close().catch(() => undefined);
    removeDirs();
    throw error;
  }
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('server has no TCP address');
  const started = app;
  let closed: Promise<void> | null = null;
  return {
    app: started,
    origin: `http://127.0.0.1:${address.port}`,
    dataDir,
    clientDir,
    // Once: a test may close its server early (the app then runs from the service worker alone).
    close: () => (closed ??= started.close().then(removeDirs)),
  };
}

export async function launchBrowser(): Promise<Browser> {
  const availability = browserAvailability();
  if (!availability.ok) throw new Error(availability.reason);
  return launchChromium();
}

export interface ConsoleLog {
  lines: string[];
}

/** Marks an error the page threw and nothing caught in its log. */
const PAGE_ERROR = '[pageerror]';

/** Marks a Content-Security-Policy violation in a page's console log. */
export const CSP_VIOLATION = '[csp-violation]';

/**
 * Every document of the context (app, login page, later loads) reports what the policy blocked
 * to the console. Playwright injects init scripts past the page's CSP, so the listener itself is
 * never blocked.
 */
export async function reportPolicyViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript((marker: string) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `${marker} ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in ${event.documentURI} (${event.sourceFile}:${event.lineNumber}) sample: ${event.sample}`,
      );
    });
  }, CSP_VIOLATION);
}

/**
 * Collects a page's console, page errors, failed requests and main-frame navigations for failure
 * reports. Policy violations reach the console once the context reports them (reportPolicyViolations,
 * once per context).
 */
export function watchPage(page: Page): ConsoleLog {
  const log: ConsoleLog = { lines: [] };
  page.on('console', (message) => log.lines.push(`[${message.type()}] ${message.text()}`));
  page.on('pageerror', (error) => log.lines.push(`${PAGE_ERROR} ${error.stack?.split('\n').slice(0, 4).join('\n  ') ?? error.message}`));
  page.on('requestfailed', (request) => log.lines.push(`[requestfailed] ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  // Every new document, with the time: a step that dies with "Execution context was destroyed" shows which load raced it.
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) log.lines.push(`[navigated ${new Date().toISOString().slice(11, 23)}] ${frame.url()}`);
  });
  return log;
}

/**
 * Collects a page's console, page errors and failed requests for failure reports, with policy
 * violations reported (see CSP_VIOLATION); for pages of a context made by a test itself.
 */
export async function collectPageLog(context: BrowserContext, page: Page): Promise<ConsoleLog> {
  await reportPolicyViolations(context);
  return watchPage(page);
}

/**
 * Throws when the page threw an error that nothing caught (a map tool polling a removed map, say):
 * a bug of the app even when the test's own steps got through.
 */
function assertNoPageErrors(log: ConsoleLog): void {
  const errors = log.lines.filter((line) => line.startsWith(PAGE_ERROR));
  if (errors.length) throw new Error(`${errors.length} uncaught errors in the page, the first:\n${errors.slice(0, 3).join('\n')}`);
}

/** Throws when the page broke the Content-Security-Policy (a script, style or request it blocked). */
export function assertNoPolicyViolations(log: ConsoleLog): void {
  const violations = log.lines.filter((line) => line.includes(CSP_VIOLATION));
  if (violations.length) throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
}

/**
 * Pictures of screens for a person to look at (under test-results/e2e/) are taken only with
 * E2E_SCREENSHOTS=1: no test reads them, and each costs a busy CPU 1–2 s (a full page with the
 * map drawn in software). A failed test's picture (recordArtifacts) is always taken.
 */
export const SCREENSHOTS_WANTED = process.env.E2E_SCREENSHOTS === '1';

/** Saves a picture of the page (or of one element) to `file` when SCREENSHOTS_WANTED. */
export async function keepScreenshot(target: Page | Locator, file: string, { fullPage = false }: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  mkdirSync(path.dirname(file), { recursive: true });
  if ('goto' in target) await target.screenshot({ path: file, fullPage });
  else await target.screenshot({ path: file });
}

/**
 * Runs `fn` and fails it when the page broke the Content-Security-Policy meanwhile; when it
 * throws, saves a screenshot and the console under test-results/e2e/<name>/.
 */
export async function recordArtifacts<T>(name: string, page: Page, log: ConsoleLog, fn: () => Promise<T>): Promise<T> {
  try {
    const result = await fn();
    assertNoPolicyViolations(log);
    assertNoPageErrors(log);
    return result;
  } catch (error) {
    const dir = path.join(ARTIFACTS_DIR, name.replace(/[^\w.-]+/g, '-'));
    mkdirSync(dir, { recursive: true });
    // Before the screenshot, which waits for a frame as the failed action may have.
    const state = await renderingState(page);
    await page.screenshot({ path: path.join(dir, 'screenshot.png'), fullPage: true, timeout: 15_000 }).catch(() => undefined);
    writeFileSync(path.join(dir, 'console.log'), `${log.lines.join('\n')}\n\nurl: ${page.url()}\npage: ${state}\nerror: ${String(error)}\n`);
    throw error;
  }
}

/** How long renderingState waits for the page, and then for its next frame. */
const PROBE_MS = 5_000;

/**
 * Whether a page still runs its scripts and paints frames, in words for a failed test's log. A
 * click waits for two frames with the element in one place, a screenshot for one frame: when
 * either waits out its whole timeout with the element on the page, this tells a page whose main
 * thread is busy (a loop) from one that runs but gets no frames.
 */
async function renderingState(page: Page): Promise<string> {
  const answered = page
    .evaluate(
      (waitMs) =>
        new Promise<string>((resolve) => {
          const asked = performance.now();
          const facts = `visibility ${document.visibilityState}, focus ${document.hasFocus()}`;
          const noFrame = setTimeout(() => resolve(`scripts run; no frame within ${waitMs} ms; ${facts}`), waitMs);
          requestAnimationFrame(() => {
            clearTimeout(noFrame);
            resolve(`scripts run; next frame after ${Math.round(performance.now() - asked)} ms; ${facts}`);
          });
        }),
      PROBE_MS,
    )
    .catch((error: unknown) => `not reachable: ${String(error)}`);
  const unanswered = delay(2 * PROBE_MS + 1_000, undefined, { ref: false }).then(() => `its main thread did not answer within ${2 * PROBE_MS + 1_000} ms`);
  return Promise.race([answered, unanswered]);
}

/**
 * Resolves once `check` (typically a page.evaluate of an asynchronous read, an IndexedDB count
 * say) resolves true; checked every `polling` ms until `timeout`. page.waitForFunction cannot do
 * this: it does not await a promise, so it takes the promise itself as a truthy answer and
 * returns at once, and the test then races the page (the lint forbids that use). The pause
 * between two checks is the polling interval of a condition wait (what waitForFunction does
 * inside the page), not a wait for time.
 */
export async function waitForCheck(page: Page, check: () => Promise<boolean>, { timeout = 30_000, polling = 50 } = {}): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waitForCheck: still false after ${timeout} ms`);
    await delay(polling);
  }
}

/** Path prefix of the embedded provider's login page. */
export const LOGIN_PAGE_PATTERN = /\/auth\/realms\/moj-travnik\/login-actions\//;

/**
 * Signs in on the provider's login page: waits for it (the app redirects there), fills the
 * labelled fields like a user, submits and waits until the browser has left the provider.
 */
export async function signInThroughLoginPage(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.waitForURL(LOGIN_PAGE_PATTERN);
  await page.getByLabel('E-pošta ali uporabniško ime', { exact: true }).fill(user.email);
  await page.getByLabel('Geslo', { exact: true }).fill(user.password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/auth/')), page.getByRole('button', { name: 'Prijava' }).click()]);
}

/**
 * Opens the app at `url` signed in as `user`. The shell renders its first screen at once and only
 * then (once keycloak-js has asked the provider) goes to the login page, so a visible heading does
 * not mean signed in: done when a token is stored and a screen shows on the app's page, after
 * signing in on the login page if it comes up (a context signed in before renews its stored
 * session instead). waitForFunction outlives the navigations in between (it starts again in each
 * new document).
 */
export async function openAppSignedIn(page: Page, url: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  const signedIn = page.waitForFunction(
    () => !window.location.pathname.startsWith('/auth/') && window.localStorage.getItem('token') !== null && document.querySelector('main h1') !== null,
    undefined,
    { timeout: 90_000 },
  );
  const loginPage = page.waitForURL(LOGIN_PAGE_PATTERN, { timeout: 90_000 });
  // Whichever comes first; the other one's outcome is not needed (the login page may never show).
  loginPage.catch(() => undefined);
  const first = await Promise.race([signedIn.then(() => 'signed-in' as const), loginPage.then(() => 'login-page' as const)]);
  if (first === 'login-page') await signInThroughLoginPage(page, user);
  await signedIn.catch((error: unknown) => {
    throw new Error(`not signed in as ${user.email}; at ${page.url()}: ${String(error)}`);
  });
}

/**
 * An access token for a demo user, obtained through the same login page over plain HTTP (no
 * browser): for checking the server's data after a scenario, as that user would see it.
 */
export async function tokenFor(server: Pick<E2EServer, 'origin'>, user: { email: string; password: string }): Promise<string> {
  const tokens = await new OidcTestClient(server.origin).signIn(user.email, user.password);
  return tokens.access_token;
}

/** Calls the API as a demo user; returns the status and the parsed JSON body. */
export async function apiAs<T = unknown>(
  server: E2EServer,
  user: { email: string; password: string },
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const token = await tokenFor(server, user);
  const response = await fetch(`${server.origin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}
