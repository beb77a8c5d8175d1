/**
 * The one fixture of the browser suites: per test file one Chromium and (unless the suite says
 * otherwise) one real server with fresh demo data, and pages signed in per role.
 *
 *   describeApp('…', {}, (e2e) => {
 *     test('…', async () => {
 *       const { page, log, close } = await e2e.signedIn('farmer1', { hash: '#/paths' });
 *       try { await recordArtifacts('name', page, log, async () => { … }); } finally { await close(); }
 *     });
 *   });
 *
 * - `e2e.signedIn(role)` — a new device (its own context: IndexedDB, service worker, cookies)
 *   that holds the role's session the way the app keeps it for a returning user (tokens from the
 *   file's identity provider, in the app's own storage format), so the app opens signed in and
 *   renews the session itself. `{ loginPage: true }`: signed in through the provider's login page
 *   instead (the device also holds the provider's session cookie), for tests of the sign-in, the
 *   sign-out and an ended session. `{ shared: true }`: a new page in the role's shared context
 *   instead, set up once per file (the device already holds the app, its data and a session);
 *   for tests that neither need an empty device nor leave a device state that another test checks.
 * - `e2e.device()` — a new device, not signed in (tests of the sign-in itself).
 * - `e2e.startServer()` — one more server for this test (closed after it): when the test stops
 *   the server or "deploys" a changed build.
 * - `e2e.data` — the server's data over HTTP (ServerData), for the checks after a scenario.
 * Tests of one file share the server: a test that checks rows counts what it made itself (rows
 * before → rows after) or uses rows no other test of the file writes.
 */
import { afterAll, afterEach, beforeAll, describe, test } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import {
  ARTIFACTS_DIR,
  DEMO_USERS,
  ROOT,
  describeE2E,
  launchBrowser,
  openAppSignedIn,
  recordArtifacts,
  reportPolicyViolations,
  startServer,
  watchPage,
  type ConsoleLog,
  type E2EServer,
  type StartServerOptions,
} from './harness';
import { ServerData } from './scenarios/helpers';
import { decodeClaims, userFromClaims, writeIdentity } from '../../src/client/lib/auth/local-identity';
import { OidcTestClient } from '../server/auth/oidc-client';

export type Role = keyof typeof DEMO_USERS;
type User = { email: string; password: string };

/** How a device is set up (a browser context). */
export interface DeviceOptions {
  viewport?: { width: number; height: number };
  /** Location permission granted at this scripted position (moved with `context.setGeolocation`). */
  geolocation?: { longitude: number; latitude: number; accuracy?: number };
  /** `reduce`: colours settle at once (no fade between a button's states for axe to measure). */
  reducedMotion?: 'reduce';
  deviceScaleFactor?: number;
  /** Default 'allow' (the installed app); 'block' lets Playwright's routes see every request. */
  serviceWorkers?: 'allow' | 'block';
}

/** A page on a device, with its log for failure reports; `close` ends what the test owns. */
interface Device {
  context: BrowserContext;
  page: Page;
  log: ConsoleLog;
  close(): Promise<void>;
}

interface SignedInOptions extends DeviceOptions {
  /** Where the app opens (default '#/'). */
  hash?: string;
  /** A page of the role's shared, already signed-in device instead of a new device. */
  shared?: boolean;
  /** Another server than the file's (one from `e2e.startServer`). */
  server?: E2EServer;
  /** Signed in through the provider's login page rather than starting with a stored session. */
  loginPage?: boolean;
}

export interface E2E {
  readonly browser: Browser;
  /** The file's server (not for suites made with `server: false`). */
  readonly server: E2EServer;
  /** The file's server's data over HTTP, as each demo user sees it. */
  readonly data: ServerData;
  device(options?: DeviceOptions): Promise<Device>;
  signedIn(who: Role | User, options?: SignedInOptions): Promise<Device>;
  startServer(options?: StartServerOptions): Promise<E2EServer>;
}

export interface SuiteOptions {
  /** The suite drives the built client (dist/): default true. */
  builtApp?: boolean;
  /** The file's server: its options, or false for suites that serve their own page. */
  server?: StartServerOptions | false;
}

/** A device for field work: location permission granted at a scripted position (moved with `context.setGeolocation`). */
export function fieldDevice(position: { longitude: number; latitude: number; accuracy?: number }): DeviceOptions {
  return { geolocation: position, viewport: { width: 1100, height: 900 } };
}

/** Every wait of a fixture page may take a minute: the shared machine is slow at times. */
const PAGE_TIMEOUT_MS = 60_000;

function contextOptions(options: DeviceOptions, storageState?: BrowserContextOptions['storageState']): BrowserContextOptions {
  return {
    locale: 'sl-SI',
    ...(storageState ? { storageState } : {}),
    serviceWorkers: options.serviceWorkers ?? 'allow',
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.geolocation ? { permissions: ['geolocation'], geolocation: { accuracy: 5, ...options.geolocation } } : {}),
    ...(options.reducedMotion ? { reducedMotion: options.reducedMotion } : {}),
    ...(options.deviceScaleFactor ? { deviceScaleFactor: options.deviceScaleFactor } : {}),
  };
}

/** A Storage over a Map: what the app's own identity writer puts in localStorage, to hand to the browser. */
class MapStorage implements Storage {
  readonly entries = new Map<string, string>();
  get length(): number {
    return this.entries.size;
  }
  clear(): void {
    this.entries.clear();
  }
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.entries.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, value);
  }
}

/**
 * The browser storage of a device whose user signed in before: a fresh token set from the
 * provider (the app's client, authorization code + PKCE over HTTP), kept as the app keeps it.
 * The app renews it at start without a redirect, as for any returning user.
 */
async function returningUserState(origin: string, user: User): Promise<NonNullable<BrowserContextOptions['storageState']>> {
  const tokens = await new OidcTestClient(origin).signIn(user.email, user.password);
  const account = userFromClaims(decodeClaims(tokens.id_token));
  if (!account) throw new Error(`e2e fixture: the ID token of ${user.email} names no user`);
  const storage = new MapStorage();
  writeIdentity(storage, account, { token: tokens.access_token, refreshToken: tokens.refresh_token ?? null, idToken: tokens.id_token ?? null });
  return { cookies: [], origins: [{ origin, localStorage: [...storage.entries].map(([name, value]) => ({ name, value })) }] };
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Whether dist/ holds a build. Missing: the suite skips with a message, except under CI, where
 * it fails (CI builds before the tests). Older than its sources: said, since it tests old code.
 */
function builtAppProblem(): string | null {
  const index = path.join(ROOT, 'dist', 'index.html');
  if (!existsSync(index)) return 'dist/ is missing (run `npm run build`)';
  const sources = Math.max(...['src/client', 'src/common', 'public'].map((dir) => newestMtime(path.join(ROOT, dir))));
  if (statSync(index).mtimeMs < sources) console.warn('[e2e] dist/ is older than src/client, src/common or public/: `npm run build` to test the current code.');
  return null;
}

/**
 * The fixture of the current describe block around the suite's own hooks and tests (`fn`): it
 * starts in a beforeAll before theirs and ends in an afterAll after theirs (jest runs hooks of a
 * block in the order they were declared), so their own clean-up still has the browser.
 */
function useE2E(options: SuiteOptions, fn: (e2e: E2E) => void): void {
  let browser: Browser | undefined;
  let server: E2EServer | undefined;
  let data: ServerData | undefined;
  const shared = new Map<string, Promise<BrowserContext>>();
  /** What the running test opened: closed after it, whatever happened. */
  const perTest: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const [launched, started] = await Promise.allSettled([
      launchBrowser(),
      options.server === false ? Promise.resolve(undefined) : startServer(options.server ?? {}),
    ]);
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'rejected') throw launched.reason;
    if (started.status === 'rejected') throw started.reason;
    if (server) data = new ServerData(server);
  });

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`e2e fixture: no ${what} (used before beforeAll, or the suite has none)`);
    return value;
  };

  async function newContext(deviceOptions: DeviceOptions, storageState?: BrowserContextOptions['storageState']): Promise<BrowserContext> {
    const context = await need(browser, 'browser').newContext(contextOptions(deviceOptions, storageState));
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    await reportPolicyViolations(context);
    return context;
  }

  async function device(deviceOptions: DeviceOptions = {}, storageState?: BrowserContextOptions['storageState']): Promise<Device> {
    const context = await newContext(deviceOptions, storageState);
    const page = await context.newPage();
    return { context, page, log: watchPage(page), close: () => context.close() };
  }

  function userOf(who: Role | User): User {
    return typeof who === 'string' ? DEMO_USERS[who] : who;
  }

  async function signedIn(
    who: Role | User,
    { hash = '#/', shared: useShared = false, server: other, loginPage = false, ...deviceOptions }: SignedInOptions = {},
  ): Promise<Device> {
    const user = userOf(who);
    const target = other ?? need(server, 'server');
    const storedSession = () => (loginPage ? Promise.resolve(undefined) : returningUserState(target.origin, user));
    if (!useShared) {
      const opened = await device(deviceOptions, await storedSession());
      await openAppSignedIn(opened.page, `${target.origin}/${hash}`, user);
      return opened;
    }
    if (loginPage || deviceOptions.geolocation || deviceOptions.reducedMotion || deviceOptions.deviceScaleFactor || deviceOptions.serviceWorkers) {
      throw new Error('e2e fixture: a shared device has the default settings and a stored session (only the viewport is per page)');
    }
    const key = `${target.origin} ${user.email}`;
    let context = shared.get(key);
    if (!context) {
      context = storedSession().then((state) => newContext({}, state));
      shared.set(key, context);
    }
    const page = await (await context).newPage();
    if (deviceOptions.viewport) await page.setViewportSize(deviceOptions.viewport);
    const log = watchPage(page);
    await recordArtifacts(`sign-in-${user.email}`, page, log, () => openAppSignedIn(page, `${target.origin}/${hash}`, user));
    return { context: await context, page, log, close: () => page.close() };
  }

  async function extraServer(serverOptions: StartServerOptions = {}): Promise<E2EServer> {
    const started = await startServer(serverOptions);
    perTest.push(() => started.close());
    return started;
  }

  const e2e: E2E = {
    get browser() {
      return need(browser, 'browser');
    },
    get server() {
      return need(server, 'server');
    },
    get data() {
      return need(data, 'server');
    },
    device,
    signedIn,
    startServer: extraServer,
  };
  fn(e2e);

  afterEach(async () => {
    for (const close of perTest.splice(0).reverse()) await close().catch(() => undefined);
  });

  afterAll(async () => {
    for (const context of shared.values()) await (await context.catch(() => null))?.close();
    await browser?.close();
    await server?.close();
  });
}

/**
 * A browser suite on the fixture. Skipped with the reason when Chromium (or, for the built app,
 * dist/) is missing — except under CI, where the suite runs and fails on what is missing.
 */
export function describeApp(name: string, options: SuiteOptions, fn: (e2e: E2E) => void): void {
  const problem = options.builtApp === false ? null : builtAppProblem();
  if (problem && !process.env.CI) {
    console.warn(`[e2e] skipping "${name}": ${problem}.`);
    describe.skip(name, () => useE2E(options, fn));
    return;
  }
  if (problem) {
    describe(name, () => {
      test('the built app is there', () => {
        throw new Error(`${problem}: CI builds the app before the browser tests`);
      });
    });
    return;
  }
  describeE2E(name, () => useE2E(options, fn));
}
