/**
 * Shared steps of the browser tests (the fixture, fixture.ts, opens the pages): look at the device's
 * outbox, fill in a meadow form, and read the server's data afterwards through the API (as the editor, who sees all),
 * with table and column ids taken from the server's own /config.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { AppConfig } from '../../../src/common/schemas/config';
import type { RecordPage, WireRecord } from '../../../src/common/schemas/wire';
import { OFFLINE_DB_NAME } from '../../../src/common/constants';
import { slMap, slScreens, slPhone } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { PICTURE_BUSY_ATTRIBUTE } from '../../../src/client/lib/home-snapshot';
import { DEMO_USERS, tokenFor, waitForCheck, type E2EServer, keepScreenshot, SCREENSHOTS_WANTED } from '../harness';

export type DemoUser = { email: string; password: string };
export type TableKey = keyof AppConfig['tables'];

/** Resolves once the service worker has installed (precache complete) and controls the page. */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
}

/**
 * What a farmer's home shows of the season's own rows: not a picture of them (the last home's, or
 * a first visit's from the early reads), which is marked busy (`aria-busy`) and is there before
 * the season is on the device.
 */
function seasonOnHome(page: Page): Locator {
  return page.locator(`[${PICTURE_BUSY_ATTRIBUTE}]:not([aria-busy="true"])`);
}

/** A path's row on a farmer's home once the season's own rows are on screen (`seasonOnHome`). */
export function homePathRow(page: Page, pathId: number): Locator {
  return seasonOnHome(page).getByTestId(`home-path-${pathId}`);
}

/** Every path's row on a farmer's home once the season's own rows are on screen (`seasonOnHome`). */
export function homePathRows(page: Page): Locator {
  return seasonOnHome(page).getByTestId(/^home-path-/);
}

/** Moves to another route the way a link does (no reload). */
export async function goHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

/** Queued operations in the device's outbox (raw IndexedDB, so it works whatever the app state). */
export async function outboxCount(page: Page): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('outbox')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('outbox').objectStore('outbox').count();
          count.onsuccess = () => {
            resolve(count.result);
            db.close();
          };
          count.onerror = () => reject(count.error);
        };
      }),
    OFFLINE_DB_NAME,
  );
}

/** Waits until the outbox has drained (every queued edit acknowledged by the server). */
export async function waitForOutboxEmpty(page: Page, timeout = 90_000): Promise<void> {
  await waitForCheck(page, async () => (await outboxCount(page)) === 0, { timeout });
}

/** The server's data, read over HTTP with one user's token (fetched once per user). */
export class ServerData {
  private tokens = new Map<string, string>();
  private configPromise: Promise<AppConfig> | null = null;

  /** Any server with an origin: the harness's in-process one or a separate process. */
  constructor(private readonly server: Pick<E2EServer, 'origin'>) {}

  config(): Promise<AppConfig> {
    this.configPromise ??= fetch(`${this.server.origin}/config.json`).then((r) => r.json() as Promise<AppConfig>);
    return this.configPromise;
  }

  async token(user: DemoUser): Promise<string> {
    let token = this.tokens.get(user.email);
    if (!token) {
      token = await tokenFor(this.server, user);
      this.tokens.set(user.email, token);
    }
    return token;
  }

  async call<T = unknown>(user: DemoUser, urlPath: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
    const send = async () =>
      fetch(`${this.server.origin}${urlPath}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${await this.token(user)}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    let response = await send();
    if (response.status === 401 && (await response.clone().text()).includes('token expired')) {
      // The kept token ran out (scenario 5's server issues 35 s tokens; a retried test reuses
      // this object): sign in again once.
      this.tokens.delete(user.email);
      response = await send();
    }
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async tableId(table: TableKey): Promise<number> {
    return (await this.config()).tables[table].id;
  }

  /** Column id (as the string key of `properties`) of a table's named column. */
  async col(table: TableKey, column: string): Promise<string> {
    const columns = (await this.config()).tables[table].columns as Record<string, number>;
    const id = columns[column];
    if (id === undefined) throw new Error(`no column ${table}.${column}`);
    return String(id);
  }

  /** Every non-deleted row of a table the user may see (archived rows included unless filtered). */
  async rows(table: TableKey, user: DemoUser = DEMO_USERS.editor): Promise<WireRecord[]> {
    const config = await this.config();
    const { status, body } = await this.call<RecordPage>(user, `/api/Records/${config.projectId}/search`, {
      body: { tableId: config.tables[table].id, page: 1, perPage: 10_000 },
    });
    if (status !== 200) throw new Error(`search ${table} as ${user.email}: ${status} ${JSON.stringify(body)}`);
    return body.records;
  }

  /** The user's farmer record id, by e-mail. */
  async farmerId(email: string): Promise<number> {
    const emailCol = await this.col('farmers', 'email');
    const farmer = (await this.rows('farmers')).find((r) => r.properties[emailCol] === email);
    if (!farmer) throw new Error(`no farmer ${email}`);
    return farmer.id;
  }

  /** A farmer's paths (through their areas), as the editor sees them. */
  async pathsOf(email: string): Promise<WireRecord[]> {
    const farmerId = await this.farmerId(email);
    const [userCol, parentCol] = [await this.col('areas', 'user'), await this.col('paths', 'parent')];
    const areaIds = new Set((await this.rows('areas')).filter((a) => a.properties[userCol] === farmerId).map((a) => a.id));
    return (await this.rows('paths')).filter((p) => areaIds.has(p.properties[parentCol] as number));
  }

  /** Forms hanging on the path's duration-path links (any season). */
  async formsOfPath(pathId: number): Promise<WireRecord[]> {
    const [dpPath, formParent] = [await this.col('durationPaths', 'path_id'), await this.col('forms', 'parent')];
    const links = new Set((await this.rows('durationPaths')).filter((l) => l.properties[dpPath] === pathId).map((l) => l.id));
    return (await this.rows('forms')).filter((f) => links.has(f.properties[formParent] as number));
  }

  async indicatorsOfForm(formId: number): Promise<WireRecord[]> {
    const parent = await this.col('indicators', 'parent');
    return (await this.rows('indicators')).filter((i) => i.properties[parent] === formId);
  }
}

/** A small valid JPEG (generated by the browser's canvas), for a photo input. */
export async function makeJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#4a7a2a';
    ctx.fillRect(0, 0, 64, 48);
    ctx.fillStyle = '#f0d020';
    ctx.beginPath();
    ctx.arc(32, 24, 10, 0, Math.PI * 2);
    ctx.fill();
    return canvas.toDataURL('image/jpeg', 0.8).split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}

/** The required answers of the meadow walk form ('travnik'), as a farmer gives them. */
export const REQUIRED_ANSWERS = [
  { key: 'rumex-obtusifolius', label: 'Ni na poti', value: 'ni' },
  { key: 'taraxacum', label: 'Pogosto (v skupinah ob vsej poti)', value: 'pogosto' },
  { key: 'zarascanje', value: 10 },
] as const;

/**
 * On the path screen: creates this season's meadow walk form (confirming when the path already has
 * one this season) and opens it, nothing answered. Returns the form id in the hash (a local id when
 * made offline).
 */
export async function openNewMeadowForm(page: Page, pathId: number): Promise<number> {
  await goHash(page, `#/paths/${pathId}`);
  await page.getByLabel(slScreens.paths.formKind).selectOption({ label: FORM_KINDS.travnik.title });
  await page.getByRole('button', { name: slScreens.paths.create }).click();
  const opened = page.waitForFunction(() => /^#\/forms\/\d+$/.test(window.location.hash)).then(() => 'opened' as const);
  const asked = page
    .getByTestId('second-form-question')
    .waitFor()
    .then(() => 'asked' as const);
  if ((await Promise.race([opened, asked.catch(() => 'opened' as const)])) === 'asked') {
    await page.getByRole('button', { name: slPhone.secondForm.confirm }).click();
    await opened;
  }
  return Number((await page.evaluate(() => window.location.hash)).split('/').pop());
}

/**
 * On the path screen: creates this season's meadow walk form, gives the required answers and saves
 * it (through the outbox). Returns the form id in the hash (a local id when made offline).
 */
export async function addMeadowForm(page: Page, pathId: number): Promise<number> {
  const formId = await openNewMeadowForm(page, pathId);
  for (const answer of REQUIRED_ANSWERS) {
    const card = page.getByTestId(`indicator-${answer.key}`);
    if ('label' in answer) await card.getByRole('radio', { name: answer.label, exact: true }).click();
    else await card.locator('input[type=number]').fill(String(answer.value));
  }
  await page.getByRole('button', { name: slScreens.forms.save }).click();
  return formId;
}

/** Seconds until the access token stored on the device expires (negative: expired). */
export async function storedTokenSecondsLeft(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const token = window.localStorage.getItem('token');
    if (!token) return null;
    const payload = JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number };
    return payload.exp - Date.now() / 1000;
  });
}

/** Whether the device's offline database (`features` store) holds the row. */
export async function deviceHasFeature(page: Page, tableId: number, featureId: number): Promise<boolean> {
  return page.evaluate(
    ({ name, key }) =>
      new Promise<boolean>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('features')) {
            db.close();
            resolve(false);
            return;
          }
          const get = db.transaction('features').objectStore('features').get(key);
          get.onsuccess = () => {
            resolve(get.result !== undefined);
            db.close();
          };
          get.onerror = () => reject(get.error);
        };
      }),
    { name: OFFLINE_DB_NAME, key: [tableId, featureId] },
  );
}

/** Phone and desk sizes the screen photographs are taken at. */
export const PHONE_SIZE = { width: 390, height: 844 };
export const DESK_SIZE = { width: 1280, height: 800 };

/**
 * Photographs the current screen at phone and desk size into `dir` (`<name>-390x844.png`, …) when
 * pictures are wanted (SCREENSHOTS_WANTED); the page is back at its own size afterwards.
 */
export async function shootBothSizes(page: Page, dir: string, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  const own = page.viewportSize();
  for (const viewport of [PHONE_SIZE, DESK_SIZE]) {
    await page.setViewportSize(viewport);
    // The page has laid out at the new size (two frames) before the picture.
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await keepScreenshot(page, path.join(dir, `${name}-${viewport.width}x${viewport.height}.png`), { fullPage: true });
  }
  if (own) await page.setViewportSize(own);
}

/**
 * Starts a scripted walk standing at `start`: the position is set again first, because Chromium
 * stamps an emulated fix with the time the position was set. The device's position from its
 * creation would arrive as a first fix as old as the sign-in and the screens before it; when that
 * is more than the recorder's gap (30 s, a slow machine), the first move starts a new segment and
 * adds no distance. Then "Začni snemanje", and the first fix ("waiting for a fix" gone) before
 * the caller's first move — a move made earlier would become the first fix.
 */
/** Scripted positions for `setGeolocation`: `east` and `north` metres from `[lon0, lat0]`, with this accuracy (m). */
export function metresFrom(
  [lon0, lat0]: readonly number[],
  accuracy = 5,
): (east: number, north?: number) => { longitude: number; latitude: number; accuracy: number } {
  const mLon = 1 / (111_320 * Math.cos((lat0! * Math.PI) / 180));
  const mLat = 1 / 110_574;
  return (east, north = 0) => ({ longitude: lon0! + east * mLon, latitude: lat0! + north * mLat, accuracy });
}

export async function startWalk(context: BrowserContext, page: Page, start: { longitude: number; latitude: number; accuracy?: number }): Promise<void> {
  await context.setGeolocation({ accuracy: 5, ...start });
  await page.getByRole('button', { name: slMap.recording.start }).click();
  await page.getByTestId('walk-distance').waitFor();
  await page.getByText(slMap.recording.waitingForFix).waitFor({ state: 'hidden' });
}

/**
 * "Deploys" a changed build into a server's client folder: index.html gets
 * `<meta name="e2e-build" content="{build}">` and sw.js a new revision of it, and the page's
 * service worker is asked to look for the update (as it does by itself on a later visit).
 */
export async function deployChangedBuild(page: Page, clientDir: string, build: number): Promise<void> {
  const indexPath = path.join(clientDir, 'index.html');
  writeFileSync(indexPath, readFileSync(indexPath, 'utf8').replace('<head>', `<head><meta name="e2e-build" content="${build}">`));
  const swPath = path.join(clientDir, 'sw.js');
  const sw = readFileSync(swPath, 'utf8');
  const revision = `e2e${String(build).padStart(28, '0')}`;
  const changed = sw.replace(/(['"]revision['"]:\s*['"])[0-9a-f]+(['"],\s*['"]url['"]:\s*['"]\/index\.html['"])/, `$1${revision}$2`);
  if (changed === sw) throw new Error('deployChangedBuild: no revision of /index.html in sw.js');
  writeFileSync(swPath, changed);
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    await registration?.update();
  });
}
