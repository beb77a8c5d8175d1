/**
 * Chaos in the real browser: the built app in Chromium, signed in as a farmer, against the real
 * server running as a separate process. Each round makes seeded offline edits across every table a
 * farmer writes — paths' walked line (geometry, `walk`, `length_m`), season links
 * (durationPaths), forms, indicators, photos, updates and deletes; the first round partly through
 * the app's own screens (a meadow form with its answers, a note and a photo), the volume through
 * lib/db's outbox API inside the page (page-outbox.ts) — then goes online and injects one fault
 * into the drain at a seeded request:
 *
 * - `kill`: SIGKILL of the server process, before the request reached it or after it committed
 *   (the answer never arrives), then a restart on the same DATA_DIR and port;
 * - `reload`: the page reloads while the request is held (before the server / after it committed);
 * - `secondTab`: a second tab of the app opens and starts while the request is held (before the
 *   server / committed); then the first tab's requests fail until the second tab, woken by an
 *   'online' event, has drained a call of the same outbox (the tabs share it; Web Locks let one
 *   drain at a time);
 * - `tokenExpiry`: the request reaches the server with its token expired (a copy of the page's
 *   token re-signed by the server's own key with `exp` in the past: what a phone that slept
 *   through the refresh sends), so the real server answers 401 and the app must refresh and resend.
 *
 * After each round: every edit is on the server exactly once (matched by content against the
 * seeded expectation: markers, keys, values, geometry, references, photo names), the device copy
 * (IndexedDB `features` and `attachments`) equals the server's rows with server ids and no pending
 * flags, and the outbox is empty. Waits are for conditions only (outbox length, server log lines,
 * requests seen), never for time.
 *
 * Used by chaos.test.ts (one short seed in CI) and `npm run chaos -- --browser`.
 */
import { build } from 'esbuild';
import path from 'node:path';
import type { LineString } from 'geojson';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { LOCAL_ID_BOUND } from '../../../src/common/constants';
import { slScreens } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { AppConfig } from '../../../src/common/schemas/config';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { seededRandom } from '../../../src/common/seeded-random';
import { refKeysFor } from '../../../src/client/lib/db/refs';
import type { Browser } from 'playwright-core';
import { DEMO_USERS, ROOT, launchBrowser, openAppSignedIn, type ConsoleLog } from '../harness';
import { REQUIRED_ANSWERS, ServerData, goHash, makeJpeg } from '../scenarios/helpers';
import type { ChaosEdit, ChaosOutbox, DeviceDump } from './page-outbox';
import { ServerProcess } from './server-process';
import { expiredCopy, photosOf } from './server-data-dir';

export const FAULTS = ['kill', 'reload', 'secondTab', 'tokenExpiry'] as const;
type Fault = (typeof FAULTS)[number];
/** Where the held request is when the fault strikes: not yet at the server, or committed there. */
type FaultMoment = 'beforeServer' | 'afterCommit';

export interface BrowserChaosOptions {
  seed: number;
  /** Edits made through the in-page outbox API per round. */
  editsPerRound: number;
  /** Faults, one round each, in this order (default: all four). */
  faults?: readonly Fault[];
  /** Also edit through the app's screens in the first round (default true). */
  ui?: boolean;
  log?: (message: string) => void;
  /** A running Chromium (the browser tests' fixture), used and left open; otherwise one is launched and closed. */
  browser?: Browser;
}

interface RoundReport {
  seed: number;
  round: number;
  fault: Fault;
  moment: FaultMoment;
  /** The drain request (1-based, counted from going online) the fault struck. */
  atRequest: number;
  injected: boolean;
  /** Drain requests the browser sent this round (bulk calls and photo uploads, resends included). */
  requests: number;
  /** secondTab: how many of them the second tab sent (the tabs share one outbox; Web Locks let one drain at a time). */
  secondTabRequests?: number;
  edits: { ui: number; api: number };
  queued: number;
  checked: { serverRows: number; deviceRows: number; photos: number };
  problems: string[];
  /** Observations that are not a lost or doubled edit (a derived score the device has not re-read yet). */
  notes: string[];
}

export interface BrowserChaosReport {
  seed: number;
  rounds: RoundReport[];
  problems: string[];
}

type FarmerTable = 'paths' | 'durationPaths' | 'forms' | 'indicators';
const TABLES: FarmerTable[] = ['paths', 'durationPaths', 'forms', 'indicators'];
const DRAIN_REQUEST = /\/api\/(Records|Features)\/\d+\/(bulk|attachment)(\/|$|\?)/;
/** Indicator keys a chaos form may hold (one live row per key and form). */
const INDICATOR_KEYS = [...new Set(FORM_KINDS.travnik.indicators.map((indicator) => indicator.key))];

interface Entity {
  table: FarmerTable;
  /** The id the device knows the row by: a local id until the round's check finds the server's. */
  id: number;
  /** Content that identifies the row on the server: the note for forms and indicators. */
  note?: string;
  /** The expected columns (by name) apart from references. */
  expected: Record<string, unknown>;
  geometry?: LineString;
  parents: Partial<Record<'parent' | 'path_id', Entity>>;
  /** durationPaths: the season's server id. */
  durationId?: number;
  deleted: boolean;
  photos: string[];
  ui: boolean;
  /** An existing row from the demo data (paths, their links): never inserted by the run. */
  existing: boolean;
  /** What the run did to the row, round by round (for the problem reports). */
  history: string[];
}

const TOKEN_ENDPOINT = '/protocol/openid-connect/token';
/** A drain that has not finished after this long is stuck (held for sign-in, say): the run reports it. */
const DRAIN_TIMEOUT_MS = 60_000;
async function pageScript(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'test/e2e/chaos/page-outbox.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function outboxOf(page: Page): Promise<DeviceDump> {
  return page.evaluate(() => (window as unknown as { chaosOutbox: ChaosOutbox }).chaosOutbox.dump([]));
}

/**
 * Waits until nothing sendable is left in the outbox (failed/conflict items stay and are reported):
 * a condition checked inside the page every 100 ms. A reload
 * of the page meanwhile ends the check; it starts again in the new document.
 */
async function waitForDrained(page: Page): Promise<void> {
  for (;;) {
    const drained = await page
      .evaluate((timeout) => (window as unknown as { chaosOutbox: ChaosOutbox }).chaosOutbox.drained(timeout), DRAIN_TIMEOUT_MS)
      .then(
        () => true,
        (error: unknown) => {
          if (/Execution context was destroyed|navigation/i.test(String(error))) return false;
          throw error;
        },
      );
    if (drained) return;
    await page.waitForLoadState('domcontentloaded');
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value as object)
              .sort()
              .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
          )
        : value;
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}

/** Drain requests the outbox will take at least: runs of bulk operations (≤ 200) and one per photo. */
function requestsAtLeast(kinds: Array<{ kind: string; api: string }>): number {
  let requests = 0;
  let run: string | null = null;
  let inRun = 0;
  for (const { kind, api } of kinds) {
    if (kind === 'attachment' || kind === 'attachmentDelete') {
      requests++;
      run = null;
    } else if (run === api && inRun < 200) {
      inRun++;
    } else {
      requests++;
      run = api;
      inRun = 1;
    }
  }
  return requests;
}

export async function runBrowserChaos(options: BrowserChaosOptions): Promise<BrowserChaosReport> {
  const log = options.log ?? (() => undefined);
  const rnd = seededRandom(options.seed);
  const pick = <T>(items: T[]): T => items[Math.floor(rnd() * items.length)]!;
  const faults = options.faults ?? FAULTS;
  const report: BrowserChaosReport = { seed: options.seed, rounds: [], problems: [] };

  const started = await Promise.allSettled([pageScript(), ServerProcess.start(), options.browser ?? launchBrowser()] as const);
  const [scriptResult, serverResult, browserResult] = started;
  if (scriptResult.status === 'rejected' || serverResult.status === 'rejected' || browserResult.status === 'rejected') {
    // Nothing left running when one of them could not start.
    if (serverResult.status === 'fulfilled') await serverResult.value.stop();
    if (browserResult.status === 'fulfilled' && !options.browser) await browserResult.value.close();
    throw started.find((result): result is PromiseRejectedResult => result.status === 'rejected')!.reason;
  }
  const [script, server, browser] = [scriptResult.value, serverResult.value, browserResult.value];
  const consoleLog: ConsoleLog = { lines: [] };
  let context: BrowserContext | undefined;
  /** What the failure report adds about the session: token requests seen, whether the app asks to sign in. */
  let sessionState: () => Promise<string> = async () => '';
  try {
    const data = new ServerData(server);
    const config: AppConfig = await data.config();
    const col = (table: FarmerTable, name: string) => String((config.tables[table].columns as Record<string, number>)[name]);
    const projectId = config.projectId;
    // A 6×6 green PNG, as base64 (how page-outbox takes a photo's bytes).
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAYAAAAGCAIAAABvrngfAAAAFElEQVR4nGNgYPhPJGIYVTiqkDoKAQ6gL9GWzfdfAAAAAElFTkSuQmCC';

    // The world the farmer starts in: his paths, this season, the links that exist.
    const farmerPaths = await data.pathsOf(DEMO_USERS.farmer1.email);
    const durations = await data.rows('durations');
    const season = durations.find((row) => Object.values(row.properties).some((value) => String(value).includes('2026')))!;
    const links = await data.rows('durationPaths');
    const entities: Entity[] = [];
    const pathEntities = farmerPaths.map((row): Entity => {
      const entity: Entity = { table: 'paths', id: row.id, expected: {}, parents: {}, deleted: false, photos: [], ui: false, existing: true, history: [] };
      if (row.geometry) entity.geometry = row.geometry as LineString;
      return entity;
    });
    entities.push(...pathEntities);
    for (const link of links) {
      const pathEntity = pathEntities.find((p) => p.id === link.properties[col('durationPaths', 'path_id')]);
      if (!pathEntity) continue;
      entities.push({
        table: 'durationPaths',
        id: link.id,
        expected: {},
        parents: { path_id: pathEntity },
        durationId: link.properties[col('durationPaths', 'duration_id')] as number,
        deleted: false,
        photos: [],
        ui: false,
        existing: true,
        history: [],
      });
    }

    context = await browser.newContext({ locale: 'sl-SI', serviceWorkers: 'block', viewport: { width: 1100, height: 900 } });
    context.setDefaultTimeout(60_000);
    await context.addInitScript({ content: script });
    const tokenPosts: string[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith(TOKEN_ENDPOINT) && request.method() === 'POST')
        tokenPosts.push(new URLSearchParams(request.postData() ?? '').get('grant_type') ?? '');
    });
    const watch = (page: Page, name: string) => {
      page.on('console', (message) => consoleLog.lines.push(`[${name} ${message.type()}] ${message.text()}`));
      page.on('pageerror', (error) => consoleLog.lines.push(`[${name} pageerror] ${error.message}`));
    };
    const page = await context.newPage();
    watch(page, 'tab1');
    sessionState = async () =>
      `token requests ${JSON.stringify(tokenPosts)}; sign-in banner shown: ${
        (await page
          .locator('.sign-in-banner')
          .count()
          .catch(() => -1)) > 0
      }`;
    await openAppSignedIn(page, `${server.origin}/#/`, DEMO_USERS.farmer1);
    // Screens the first round uses offline: open them online once so their chunks are loaded.
    const uiPath = pathEntities[0]!;
    await goHash(page, `#/paths/${uiPath.id}`);
    await page.getByTestId('season-forms').getByRole('button', { name: slScreens.paths.create }).waitFor();
    const someForm = (await data.formsOfPath(uiPath.id))[0];
    if (someForm) {
      await goHash(page, `#/forms/${someForm.id}`);
      // Rendered by the form screen's chunk either way (a past season's form may not be listed as his).
      await page.locator('[data-testid^="indicator-"]').first().or(page.getByText(slScreens.forms.notFound)).waitFor();
    }
    await goHash(page, '#/');
    await page.locator('main h1').waitFor();

    // The drain gate: counts drain requests and strikes the armed fault at the chosen one.
    let drainRequests = 0;
    let strike: ((route: Route) => Promise<void>) | null = null;
    let strikeAt = 0;
    let struck: (outcome: unknown) => void = () => undefined;
    const requestsOf = new Map<Page, number>();
    /** secondTab: the tab whose drain requests fail until the second tab has had an answer. */
    let firstTabCut: Page | null = null;
    await context.route(DRAIN_REQUEST, async (route) => {
      drainRequests++;
      const from = route.request().frame().page();
      requestsOf.set(from, (requestsOf.get(from) ?? 0) + 1);
      if (strike && drainRequests === strikeAt) {
        const fault = strike;
        strike = null;
        struck(
          await fault(route).then(
            () => null,
            (error: unknown) => error,
          ),
        );
        return;
      }
      if (firstTabCut) {
        if (from === firstTabCut) {
          await route.abort('failed').catch(() => undefined);
          return;
        }
        const response = await route.fetch().catch(() => null);
        if (!response) {
          await route.abort('failed').catch(() => undefined);
          return;
        }
        firstTabCut = null;
        await route.fulfill({ response }).catch(() => undefined);
        return;
      }
      await route.continue().catch(() => undefined);
    });

    let n = 0;
    const marker = () => `chaos-${options.seed}-${++n}`;
    const live = (table: FarmerTable) => entities.filter((e) => e.table === table && !e.deleted);
    const save = async (edits: ChaosEdit[]) => page.evaluate((list) => (window as unknown as { chaosOutbox: ChaosOutbox }).chaosOutbox.save(list), edits);

    for (let round = 0; round < faults.length; round++) {
      const fault = faults[round]!;
      const problems: string[] = [];
      const moment: FaultMoment = rnd() < 0.5 ? 'beforeServer' : 'afterCommit';
      const roundReport: RoundReport = {
        seed: options.seed,
        round,
        fault,
        moment: fault === 'tokenExpiry' ? 'beforeServer' : moment,
        atRequest: 0,
        injected: false,
        requests: 0,
        edits: { ui: 0, api: 0 },
        queued: 0,
        checked: { serverRows: 0, deviceRows: 0, photos: 0 },
        problems,
        notes: [],
      };
      await context.setOffline(true);
      await page.locator('.conn-status--offline').waitFor();

      // --- edits through the app's screens -----------------------------------------------------
      if (round === 0 && options.ui !== false) {
        const note = marker();
        await goHash(page, `#/paths/${uiPath.id}`);
        await page.getByLabel(slScreens.paths.formKind).selectOption({ label: FORM_KINDS.travnik.title });
        await page.getByRole('button', { name: slScreens.paths.create }).click();
        await page.waitForFunction(() => /^#\/forms\/\d+$/.test(window.location.hash));
        for (const answer of REQUIRED_ANSWERS) {
          const card = page.getByTestId(`indicator-${answer.key}`);
          if ('label' in answer) await card.getByRole('radio', { name: answer.label, exact: true }).click();
          else await card.locator('input[type=number]').fill(String(answer.value));
        }
        await page.getByLabel(slScreens.forms.formNote).fill(note);
        const photoCard = page.getByTestId(`indicator-${REQUIRED_ANSWERS[0].key}`);
        await photoCard.locator('.indicator__head').click();
        await photoCard.locator('input[type=file]').setInputFiles({ name: `${note}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(page) });
        await photoCard.getByTestId('new-photo').waitFor();
        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page.getByText(slScreens.states.saved, { exact: true }).waitFor();
        await goHash(page, '#/');
        // What the screens saved, as the device holds it: the model takes it from there.
        const dump = await page.evaluate(
          (ids) => (window as unknown as { chaosOutbox: ChaosOutbox }).chaosOutbox.dump(ids),
          TABLES.map((t) => config.tables[t].id),
        );
        const rows = (table: FarmerTable) => dump.features.filter((row) => row.tableId === config.tables[table].id);
        const formRow = rows('forms').find((row) => row.feature.properties[col('forms', 'note')] === note);
        if (!formRow) throw new Error(`the form saved through the screen (note ${note}) is not on the device`);
        const linkId = formRow.feature.properties[col('forms', 'parent')] as number;
        let link = entities.find((e) => e.table === 'durationPaths' && e.id === linkId);
        if (!link) {
          link = {
            table: 'durationPaths',
            id: linkId,
            expected: {},
            parents: { path_id: uiPath },
            durationId: season.id,
            deleted: false,
            photos: [],
            ui: true,
            existing: false,
            history: [`r${round}:screen`],
          };
          entities.push(link);
          roundReport.edits.ui++;
        }
        const form: Entity = {
          table: 'forms',
          id: formRow.featureId,
          note,
          expected: { form_id: FORM_KINDS.travnik.id },
          parents: { parent: link },
          deleted: false,
          photos: [],
          ui: true,
          existing: false,
          history: [`r${round}:screen`],
        };
        entities.push(form);
        roundReport.edits.ui++;
        for (const answer of REQUIRED_ANSWERS) {
          const row = rows('indicators').find(
            (r) => r.feature.properties[col('indicators', 'parent')] === form.id && r.feature.properties[col('indicators', 'key')] === answer.key,
          );
          if (!row) {
            problems.push(`indicator ${answer.key} saved through the screen is not on the device`);
            continue;
          }
          const photos = dump.attachments.filter((a) => a.featureId === row.featureId).map((a) => a.name);
          entities.push({
            table: 'indicators',
            id: row.featureId,
            expected: { key: answer.key, value: answer.value },
            parents: { parent: form },
            deleted: false,
            photos,
            ui: true,
            existing: false,
            history: [`r${round}:screen`],
          });
          roundReport.edits.ui += 1 + photos.length;
        }
      }

      // --- edits through the outbox API in the page ------------------------------------------
      const edits: ChaosEdit[] = [];
      const flush = async () => {
        if (!edits.length) return [];
        const ids = await save(edits.splice(0));
        return ids;
      };
      for (let i = 0; i < options.editsPerRound; i++) {
        const roll = rnd();
        const myForms = live('forms').filter((e) => !e.existing);
        const myIndicators = live('indicators');
        if (roll < 0.1) {
          // A walk: the path's line, the walk summary with its raw fixes, the walked length.
          const target = pick(pathEntities);
          const [lon, lat] = (target.geometry?.coordinates[0] ?? [16.15, 46.83]) as [number, number];
          const step = 1 + Math.floor(rnd() * 5);
          const coordinates = Array.from({ length: 4 + Math.floor(rnd() * 4) }, (_, k) => [
            Math.round((lon + k * step * 1e-5) * 1e6) / 1e6,
            Math.round((lat + k * 1e-5) * 1e6) / 1e6,
          ]);
          const tag = marker();
          const walk = { recordedAt: '2026-06-01T08:00:00.000Z', chaos: tag, raw: coordinates.map(([x, y], k) => [x, y, 5, k * 1000, 'ok']) };
          target.history.push(`r${round}:walk`);
          target.expected = { walk, length_m: coordinates.length * step };
          target.geometry = { type: 'LineString', coordinates };
          edits.push({
            kind: 'update',
            isRecord: false,
            projectId,
            tableId: config.tables.paths.id,
            id: target.id,
            geometry: target.geometry,
            properties: { [col('paths', 'walk')]: walk, [col('paths', 'length_m')]: target.expected.length_m },
          });
        } else if (roll < 0.16) {
          // This season's link of a path that has none yet.
          const free = pathEntities.filter((p) => !live('durationPaths').some((l) => l.parents.path_id === p && l.durationId === season.id));
          if (!free.length) continue;
          const target = pick(free);
          const entity: Entity = {
            table: 'durationPaths',
            id: 0,
            expected: {},
            parents: { path_id: target },
            durationId: season.id,
            deleted: false,
            photos: [],
            ui: false,
            existing: false,
            history: [`r${round}:insert`],
          };
          edits.push({
            kind: 'insert',
            projectId,
            tableId: config.tables.durationPaths.id,
            properties: { [col('durationPaths', 'duration_id')]: season.id, [col('durationPaths', 'path_id')]: target.id },
            refs: refKeysFor(config, 'durationPaths'),
          });
          entity.id = (await flush()).at(-1)!;
          entities.push(entity);
        } else if (roll < 0.4 || myForms.length === 0) {
          const parent = pick(live('durationPaths'));
          const note = marker();
          const kind = rnd() < 0.7 ? FORM_KINDS.travnik.id : FORM_KINDS.upravljanje.id;
          const entity: Entity = {
            table: 'forms',
            id: 0,
            note,
            expected: { form_id: kind, completed: false },
            parents: { parent },
            deleted: false,
            photos: [],
            ui: false,
            existing: false,
            history: [`r${round}:insert`],
          };
          edits.push({
            kind: 'insert',
            projectId,
            tableId: config.tables.forms.id,
            properties: {
              [col('forms', 'parent')]: parent.id,
              [col('forms', 'form_id')]: kind,
              [col('forms', 'note')]: note,
              [col('forms', 'completed')]: false,
            },
            refs: refKeysFor(config, 'forms'),
          });
          entity.id = (await flush()).at(-1)!;
          entities.push(entity);
        } else if (roll < 0.7) {
          const parent = pick(myForms.concat(live('forms').filter((e) => e.ui)));
          const used = new Set(myIndicators.filter((e) => e.parents.parent === parent).map((e) => e.expected.key));
          const key = INDICATOR_KEYS.find((candidate) => !used.has(candidate) && rnd() < 0.5) ?? INDICATOR_KEYS.find((candidate) => !used.has(candidate));
          if (!key) continue;
          const note = marker();
          const value = Math.floor(rnd() * 100);
          const entity: Entity = {
            table: 'indicators',
            id: 0,
            note,
            expected: { key, value },
            parents: { parent },
            deleted: false,
            photos: [],
            ui: false,
            existing: false,
            history: [`r${round}:insert`],
          };
          edits.push({
            kind: 'insert',
            projectId,
            tableId: config.tables.indicators.id,
            properties: {
              [col('indicators', 'parent')]: parent.id,
              [col('indicators', 'key')]: key,
              [col('indicators', 'value')]: value,
              [col('indicators', 'note')]: note,
            },
            refs: refKeysFor(config, 'indicators'),
          });
          entity.id = (await flush()).at(-1)!;
          entities.push(entity);
        } else if (roll < 0.82) {
          // Updates: a form's note, an indicator's value and note (with the refs, as the form screen
          // saves them), rows delivered in earlier rounds included.
          const candidates = myForms.concat(myIndicators.filter((e) => !e.ui));
          if (!candidates.length) continue;
          const target = pick(candidates);
          const note = marker();
          target.note = note;
          target.history.push(`r${round}:update`);
          if (target.table === 'forms') {
            edits.push({
              kind: 'update',
              projectId,
              tableId: config.tables.forms.id,
              id: target.id,
              properties: { [col('forms', 'note')]: note },
              refs: refKeysFor(config, 'forms'),
            });
          } else {
            target.expected.value = Math.floor(rnd() * 100);
            edits.push({
              kind: 'update',
              projectId,
              tableId: config.tables.indicators.id,
              id: target.id,
              properties: { [col('indicators', 'value')]: target.expected.value, [col('indicators', 'note')]: note },
              refs: refKeysFor(config, 'indicators'),
            });
          }
        } else if (roll < 0.9) {
          const target = pick([...pathEntities, ...myForms, ...myIndicators]);
          const name = `${marker()}.png`;
          target.photos.push(name);
          target.history.push(`r${round}:photo`);
          edits.push({
            kind: 'attachment',
            projectId,
            tableId: config.tables[target.table].id,
            recordId: target.id,
            tableAttachmentInfoId: config.tables[target.table].attachments!.photos!,
            name,
            mimeType: 'image/png',
            base64: png,
          });
        } else {
          // Deletes: leaves only (nothing of the run hangs under them, no photos).
          const leaves = [...myIndicators.filter((e) => !e.ui), ...myForms.filter((f) => !entities.some((e) => e.parents.parent === f && !e.deleted))].filter(
            (e) => e.photos.length === 0,
          );
          if (!leaves.length) continue;
          const target = pick(leaves);
          target.deleted = true;
          target.history.push(`r${round}:delete`);
          edits.push({ kind: 'delete', projectId, tableId: config.tables[target.table].id, id: target.id });
        }
        roundReport.edits.api++;
      }
      await flush();

      const before = await outboxOf(page);
      roundReport.queued = before.outbox;
      const atLeast = requestsAtLeast(before.outboxKinds);
      roundReport.atRequest = atLeast >= 2 ? 2 + Math.floor(rnd() * (atLeast - 1)) : 1;
      log(
        `seed ${options.seed} round ${round}: ${roundReport.edits.ui} edits through the screens, ${roundReport.edits.api} through the outbox API, ${roundReport.queued} queued; ${fault} (${roundReport.moment}) at drain request ${roundReport.atRequest} of at least ${atLeast}`,
      );

      // --- online, with the fault armed ----------------------------------------------------------
      const requestsBefore = drainRequests;
      const tokenPostsBefore = tokenPosts.length;
      let secondTab: Page | null = null;
      let unauthorized = 0;
      strikeAt = drainRequests + roundReport.atRequest;
      const faultDone = new Promise<unknown>((resolve) => (struck = resolve));
      strike = async (route) => {
        const origin = route.request().frame().page();
        switch (fault) {
          case 'kill': {
            if (roundReport.moment === 'afterCommit') {
              await route.fetch().then((response) => response.body());
              await server.kill();
              await route.abort('connectionreset').catch(() => undefined);
            } else {
              await server.kill();
              await route.continue().catch(() => undefined);
            }
            await server.restart();
            break;
          }
          case 'reload': {
            if (roundReport.moment === 'afterCommit') await route.fetch().then((response) => response.body());
            await origin.reload({ waitUntil: 'commit' });
            await route.abort('aborted').catch(() => undefined);
            break;
          }
          case 'secondTab': {
            // The second tab starts while the first one's request is held; then the first tab's
            // link fails (the held request and every later one of that tab, until the second tab
            // has had an answer), so the first tab backs off, lets go of the drain lock, and the
            // second tab — woken by an 'online' event, as when its signal returns — drains the
            // same outbox, sending again what the first tab's committed call already applied.
            if (roundReport.moment === 'afterCommit') await route.fetch().then((response) => response.body());
            const tab = await context!.newPage();
            watch(tab, 'tab2');
            await tab.goto(`${server.origin}/#/`);
            await tab.locator('main h1').waitFor();
            secondTab = tab;
            firstTabCut = origin;
            await route.abort('failed').catch(() => undefined);
            await tab.evaluate(() => window.dispatchEvent(new Event('online')));
            break;
          }
          case 'tokenExpiry': {
            const headers = route.request().headers();
            const token = headers.authorization?.replace(/^Bearer /, '');
            if (!token) throw new Error('the drain request carries no bearer token');
            const response = await route.fetch({ headers: { ...headers, authorization: `Bearer ${await expiredCopy(token, server.databaseFile)}` } });
            if (response.status() === 401) unauthorized++;
            else problems.push(`the server answered ${response.status()} to an expired token`);
            await route.fulfill({ response }).catch(() => undefined);
            break;
          }
        }
        roundReport.injected = true;
      };
      await context.setOffline(false);
      // The fault strikes inside the gate (or the outbox drains without reaching that request).
      const outcome = await Promise.race([faultDone, waitForDrained(page).then(() => 'drained' as const)]);
      if (outcome === 'drained') {
        strike = null;
        problems.push(`the drain ended after ${drainRequests - requestsBefore} requests, before request ${roundReport.atRequest}: no ${fault}`);
      } else if (outcome) {
        throw outcome;
      }
      if (fault === 'reload') await page.locator('main h1').waitFor();
      await waitForDrained(page);
      if (secondTab) await waitForDrained(secondTab);
      roundReport.requests = drainRequests - requestsBefore;
      if (secondTab) roundReport.secondTabRequests = requestsOf.get(secondTab) ?? 0;
      if (fault === 'tokenExpiry') {
        if (unauthorized !== 1) problems.push(`expected one 401 for the expired token, saw ${unauthorized}`);
        if (!tokenPosts.slice(tokenPostsBefore).includes('refresh_token')) problems.push('the app did not refresh its token after the 401');
      }

      // --- checks ------------------------------------------------------------------------------
      const dump = await page.evaluate(
        (ids) => (window as unknown as { chaosOutbox: ChaosOutbox }).chaosOutbox.dump(ids),
        Object.values(config.tables).map((t) => t.id),
      );
      if (dump.outbox)
        problems.push(
          `${dump.outbox} operations left in the outbox: ${JSON.stringify(dump.outboxKinds.filter((item) => item.status !== 'pending').slice(0, 5))}`,
        );
      const serverRows = new Map<FarmerTable, WireRecord[]>();
      for (const table of TABLES) serverRows.set(table, await data.rows(table));
      const serverIdOf = new Map<Entity, number>();
      for (const entity of entities.filter((e) => e.existing)) serverIdOf.set(entity, entity.id);
      let checked = 0;
      for (const table of TABLES) {
        for (const entity of entities.filter((e) => e.table === table)) {
          const rows = serverRows.get(table)!;
          let matches: WireRecord[];
          if (table === 'paths' || entity.existing) matches = rows.filter((r) => r.id === entity.id);
          else if (table === 'durationPaths')
            matches = rows.filter(
              (r) =>
                r.properties[col(table, 'duration_id')] === entity.durationId &&
                r.properties[col(table, 'path_id')] === serverIdOf.get(entity.parents.path_id!),
            );
          else if (entity.note !== undefined && !entity.ui) matches = rows.filter((r) => r.properties[col(table, 'note')] === entity.note);
          else if (table === 'forms') matches = rows.filter((r) => r.properties[col(table, 'note')] === entity.note);
          else
            matches = rows.filter(
              (r) => r.properties[col(table, 'parent')] === serverIdOf.get(entity.parents.parent!) && r.properties[col(table, 'key')] === entity.expected.key,
            );
          const what = `${table} ${entity.note ?? entity.expected.key ?? entity.id}`;
          checked++;
          if (entity.deleted) {
            if (matches.length) problems.push(`${what}: deleted offline, ${matches.length} live row(s) on the server`);
            continue;
          }
          if (matches.length !== 1) {
            problems.push(`${what}: ${matches.length} rows on the server, expected 1`);
            continue;
          }
          const row = matches[0]!;
          serverIdOf.set(entity, row.id);
          if (row.id < LOCAL_ID_BOUND) problems.push(`${what}: server id ${row.id}`);
          for (const [name, value] of Object.entries(entity.expected)) {
            if (!sameJson(row.properties[col(table, name)], value) && String(row.properties[col(table, name)]) !== String(value))
              problems.push(`${what}: ${name}=${JSON.stringify(row.properties[col(table, name)])}, expected ${JSON.stringify(value)}`);
          }
          if (table === 'paths' && entity.geometry && !sameJson(row.geometry, entity.geometry)) problems.push(`${what}: geometry differs from the walk`);
          for (const [name, parent] of Object.entries(entity.parents)) {
            if (row.properties[col(table, name)] !== serverIdOf.get(parent))
              problems.push(`${what}: ${name}=${String(row.properties[col(table, name)])}, expected ${serverIdOf.get(parent)}`);
          }
        }
      }
      // Nothing of the run on the server that the model does not expect (a duplicate under another note, say).
      const expectedNotes = new Set(entities.filter((e) => !e.deleted && e.note).map((e) => e.note));
      for (const table of ['forms', 'indicators'] as const) {
        for (const row of serverRows.get(table)!) {
          const note = row.properties[col(table, 'note')];
          if (typeof note === 'string' && note.startsWith(`chaos-${options.seed}-`) && !expectedNotes.has(note))
            problems.push(`${table} ${row.id}: unexpected row with note ${note}`);
        }
      }
      const chaosForms = new Set(entities.filter((e) => e.table === 'forms' && !e.deleted).map((e) => serverIdOf.get(e)));
      const expectedIndicators = entities.filter((e) => e.table === 'indicators' && !e.deleted).length;
      const serverIndicators = serverRows.get('indicators')!.filter((r) => chaosForms.has(r.properties[col('indicators', 'parent')] as number)).length;
      if (serverIndicators !== expectedIndicators)
        problems.push(`the run's forms hold ${serverIndicators} indicators on the server, expected ${expectedIndicators}`);
      roundReport.checked.serverRows = checked;

      // Photos: the names the run expects on each row, and the device's attachment rows.
      const withPhotos = entities.filter((e) => !e.deleted && serverIdOf.has(e));
      const serverPhotos = photosOf(
        server.databaseFile,
        withPhotos.map((e) => serverIdOf.get(e)!),
      );
      const photoNames = new Map<number, string[]>();
      for (const photo of serverPhotos) photoNames.set(photo.recordId, [...(photoNames.get(photo.recordId) ?? []), photo.name]);
      for (const entity of withPhotos) {
        // Photos through the screen may be renamed on the device (resized): counted; the others by name.
        const expected = entity.ui ? entity.photos.length : -1;
        const actual = photoNames.get(serverIdOf.get(entity)!) ?? [];
        if (expected >= 0 ? actual.length !== expected : !sameJson([...actual].sort(), [...entity.photos].sort()))
          problems.push(`${entity.table} ${serverIdOf.get(entity)}: photos ${JSON.stringify(actual)}, expected ${JSON.stringify(entity.photos)}`);
        roundReport.checked.photos += actual.length;
      }
      const serverPhotoIds = new Set(serverPhotos.map((photo) => photo.id));
      const recordIds = new Set(withPhotos.map((e) => serverIdOf.get(e)));
      const devicePhotos = dump.attachments.filter((a) => recordIds.has(a.featureId) || a.featureId < LOCAL_ID_BOUND || a.id < LOCAL_ID_BOUND);
      for (const photo of devicePhotos) {
        if (photo.id < LOCAL_ID_BOUND || photo.featureId < LOCAL_ID_BOUND || photo.isInsert || photo.isDelete)
          problems.push(`device photo ${photo.id} on ${photo.featureId}: not synced (${JSON.stringify(photo)})`);
        else if (!serverPhotoIds.has(photo.id)) problems.push(`device photo ${photo.id} on ${photo.featureId}: not on the server`);
      }

      // The device copy: every row the device holds equals the server's, under the server's id.
      const byId = new Map<string, WireRecord>();
      for (const table of TABLES) for (const row of serverRows.get(table)!) byId.set(`${config.tables[table].id}:${row.id}`, row);
      const tableKeyOf = new Map(TABLES.map((t) => [config.tables[t].id, t]));
      const derived = new Set([col('forms', 'score'), col('forms', 'rule_version')]);
      /** Device rows by id: a row keeps its device key when it is delivered, so one id must not be on two rows. */
      const seen = new Set<string>();
      for (const row of dump.features) {
        const table = tableKeyOf.get(row.tableId);
        if (!table) continue;
        roundReport.checked.deviceRows++;
        const what = `device ${table} ${row.featureId}`;
        if (seen.has(`${row.tableId}:${row.featureId}`)) problems.push(`${what}: on the device twice`);
        seen.add(`${row.tableId}:${row.featureId}`);
        if (row.featureId < LOCAL_ID_BOUND) {
          problems.push(`${what}: still known by its offline id`);
          continue;
        }
        const server = byId.get(`${row.tableId}:${row.featureId}`);
        if (row.feature.deleted) {
          // A tombstone (kept until a later read): the server must not have the row live.
          if (server) problems.push(`${what}: deleted on the device, live on the server`);
          if (row.isInsert || row.isEdit || row.isDelete)
            problems.push(`${what}: tombstone still flagged (insert=${row.isInsert} edit=${row.isEdit} delete=${row.isDelete})`);
          continue;
        }
        if (row.isInsert || row.isEdit || row.isDelete) {
          const entity = entities.find((e) => e.table === table && serverIdOf.get(e) === row.featureId);
          problems.push(
            `${what}: flags insert=${row.isInsert} edit=${row.isEdit} delete=${row.isDelete} after the drain${entity ? ` (${entity.history.join(' ')})` : ''}`,
          );
        }
        if (!server) {
          problems.push(`${what}: not live on the server`);
          continue;
        }
        const keys = [...new Set([...Object.keys(row.feature.properties), ...Object.keys(server.properties)])].filter(
          (key) => !sameJson(row.feature.properties[key], server.properties[key]),
        );
        const entity = entities.find((e) => e.table === table && serverIdOf.get(e) === row.featureId);
        const source = entity ? ` (${entity.ui ? 'saved by the screen' : 'saved by the outbox API'})` : '';
        const shown = (key: string) => `${key} (device ${JSON.stringify(row.feature.properties[key])}, server ${JSON.stringify(server.properties[key])})`;
        // A form's score is the server's to derive (rescored after its indicators): a note, not an edit lost.
        const derivedOnly = keys.filter((key) => derived.has(key));
        const other = keys.filter((key) => !derived.has(key));
        if (other.length) problems.push(`${what}${source}: properties differ from the server's in ${other.map(shown).join(', ')}`);
        if (derivedOnly.some((key) => row.feature.properties[key] !== undefined))
          roundReport.notes.push(`${what}: derived ${derivedOnly.map(shown).join(', ')}`);
        if (table === 'paths' && !sameJson(row.feature.geometry, server.geometry)) problems.push(`${what}: geometry differs from the server's`);
        // The next edit of the row is sent based on the device's version: behind the server's, it is a false conflict.
        if (row.feature.version !== server.version)
          problems.push(`${what}${source}: version ${row.feature.version}, the server's ${server.version}${entity ? ` (${entity.history.join(' ')})` : ''}`);
      }
      for (const entity of entities.filter(
        (e) => !e.deleted && serverIdOf.has(e) && (!e.existing || Object.keys(e.expected).length > 0 || e.photos.length > 0),
      )) {
        if (!dump.features.some((row) => row.tableId === config.tables[entity.table].id && row.featureId === serverIdOf.get(entity)))
          problems.push(`${entity.table} ${serverIdOf.get(entity)}: on the server but not on the device`);
      }
      // From here on the model knows each row by its server id.
      for (const [entity, id] of serverIdOf) entity.id = id;
      for (const entity of entities.filter((e) => e.deleted && !serverIdOf.has(e))) entity.id = -1;

      if (secondTab) await (secondTab as Page).close();
      report.rounds.push(roundReport);
      report.problems.push(...problems.map((problem) => `round ${round} (${fault}): ${problem}`));
      log(
        `seed ${options.seed} round ${round}: ${fault} ${roundReport.injected ? 'injected' : 'NOT injected'}, ${roundReport.requests} drain requests, ${roundReport.checked.serverRows} server rows, ${roundReport.checked.deviceRows} device rows, ${roundReport.checked.photos} photos checked, ${problems.length} problems`,
      );
    }
    return report;
  } catch (error) {
    report.problems.push(`run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    report.problems.push(`session: ${await sessionState()}`);
    // What the screen said then (a read-only notice, an error): the first lines of the first page.
    const firstPage = context?.pages()[0];
    const screen = await firstPage
      ?.locator('main')
      .innerText({ timeout: 5_000 })
      .catch(() => null);
    if (firstPage && screen) report.problems.push(`screen at ${firstPage.url()}: ${screen.split('\n').slice(0, 12).join(' | ')}`);
    report.problems.push(...consoleLog.lines.slice(-30));
    report.problems.push(...server.log.slice(-10).map((line) => `[server] ${JSON.stringify(line)}`));
    return report;
  } finally {
    await context?.close().catch(() => undefined);
    if (!options.browser) await browser.close().catch(() => undefined);
    await server.stop();
  }
}
