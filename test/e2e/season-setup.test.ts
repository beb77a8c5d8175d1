/**
 * Setting up a season in the app, in Chromium against the real server (the built client): an
 * editor creates a season (an overlapping one is refused first, in Slovenian), a farmer, draws a
 * meadow for that farmer and a transect inside it with Mapbox GL Draw through map clicks (ended
 * with "Končaj risanje"); once the outbox has drained the server holds exactly those rows, linked
 * to each other. A farmer then trims the end of a walked transect with Draw on a phone: the
 * server's line loses that vertex and the path's raw GPS fixes (`walk`) are unchanged; and walks
 * another one, correcting the walked line before saving it (all raw fixes kept). Offline on a
 * phone, the farmer creates a new transect on their meadow by walking it ("Nova pot"), trims it
 * with Draw and saves it; online again, the server holds exactly that path. Every new
 * screen is photographed at phone (390×844) and desk (1280×800) size into test-results/e2e/setup/.
 * The editor then hands that farmer a one-time activation link (the account panel); on a phone
 * the farmer sets a password on the provider's Slovenian page, signs in through the normal login
 * page and sees the meadow drawn for them. Last, farmers (CSV) and D96/TM meadows (GeoPackage)
 * go through the import screen (preview, mapping, dry run, commit) and the server holds exactly
 * the imported rows.
 */
import { expect, jest, test } from '@jest/globals';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { LineString, Polygon } from 'geojson';
import { sl, slMap, slSeasonServer, slSetup } from '../../src/common/i18n/sl';
import { farmersCsv, geoPackageFile, squareMeadow } from '../fixtures/geo-files';
import { describeApp, fieldDevice } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, openAppSignedIn, recordArtifacts } from './harness';
import {
  DESK_SIZE,
  PHONE_SIZE,
  goHash,
  outboxCount,
  shootBothSizes,
  startWalk,
  waitForOutboxEmpty,
  waitForServiceWorkerControl,
  homePathRow,
} from './scenarios/helpers';

jest.setTimeout(300_000);

const SHOTS = path.join(ARTIFACTS_DIR, 'setup');
const PHONE = PHONE_SIZE;
const DESK = DESK_SIZE;
/** The farmer the editor creates; the password is the one the farmer sets through the activation link. */
const TINA = { email: 'tina.travnik@example.si', password: 'Travnik-2031!' };

/** Screenshots of the current screen at both sizes, ending at the desk size. */
async function shoot(page: Page, name: string): Promise<void> {
  await shootBothSizes(page, SHOTS, name);
}

/** MapLibre's tile size: the world is 512 · 2^zoom CSS pixels wide. */
const TILE_SIZE = 512;
const mercatorX = (lon: number) => (lon + 180) / 360;
const mercatorY = (lat: number) => (1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2;

/**
 * The page pixel of a lon/lat on the (north-up, flat) map, by Web Mercator arithmetic from the
 * view the map writes on its element (data-view), independent of the map library.
 */
async function pixelOf(page: Page, [lon, lat]: number[]): Promise<{ x: number; y: number }> {
  // The map's element holds its view only while the camera is at rest (an easing to the walker's
  // last position may still be under way), and says when the map is idle (a drawing's vertices are
  // drawn, so a tap finds them): the pixel is worked out from where the map stays.
  const written = await page.waitForFunction(() => {
    const map = document.querySelector<HTMLElement>('.mt-map__canvas');
    return map?.dataset.idle ? map.dataset.view : undefined;
  });
  const view = JSON.parse((await written.jsonValue())!) as { center: [number, number]; zoom: number };
  const world = TILE_SIZE * 2 ** view.zoom;
  const box = (await page.locator('canvas.maplibregl-canvas').boundingBox())!;
  return {
    x: box.x + box.width / 2 + (mercatorX(lon!) - mercatorX(view.center[0])) * world,
    y: box.y + box.height / 2 + (mercatorY(lat!) - mercatorY(view.center[1])) * world,
  };
}

/** Moves the scripted position through `steps` (after the first), each once the recorder has taken the last. */
/** Starts a walk at the first step and moves through the rest, each move counted before the next. */
async function walkThrough(context: BrowserContext, page: Page, steps: { longitude: number; latitude: number; accuracy: number }[]): Promise<void> {
  const distance = page.getByTestId('walk-distance');
  await startWalk(context, page, steps[0]!);
  for (const step of steps.slice(1)) {
    const before = await distance.textContent();
    await context.setGeolocation(step);
    await page.waitForFunction(([was]) => document.querySelector('[data-testid="walk-distance"]')?.textContent !== was, [before]);
  }
}

/**
 * With Draw open on a line: selects the vertex at `lonLat` and deletes it, photographed as `shot`.
 * At desk size the whole map fits in view below the header once scrolled to (on the phone the
 * header may cover the top of the scrolled map; a path's screen has the walk above its map); back
 * to the phone size afterwards.
 */
async function deleteVertexAt(page: Page, lonLat: number[], shot: string): Promise<void> {
  await page.locator('[data-drawing="line"]').waitFor();
  await page.setViewportSize(DESK);
  await page.locator('canvas.maplibregl-canvas').evaluate((canvas) => canvas.scrollIntoView({ block: 'center' }));
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  const vertex = await pixelOf(page, lonLat);
  await page.mouse.click(vertex.x, vertex.y);
  await page.getByRole('button', { name: slSetup.paths.deleteVertex }).click();
  await shoot(page, shot);
  await page.setViewportSize(PHONE);
}

/** The pixel at (dx, dy) CSS pixels from the centre of the visible map canvas. */
async function mapPoint(page: Page, dx: number, dy: number): Promise<{ x: number; y: number }> {
  const box = (await page.locator('canvas.maplibregl-canvas').boundingBox())!;
  return { x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 + dy };
}

/** Where the editor's browser is (no walk is recorded there). */
const DESK_PLACE = { longitude: 14.5, latitude: 46.05 };

describeApp('season set-up by an editor (Chromium)', {}, (e2e) => {
  test('an editor creates a season, a farmer, draws a meadow and a transect; the server holds them', async () => {
    const { data } = e2e;
    const { page, log, close } = await e2e.signedIn('editor', { ...fieldDevice(DESK_PLACE), viewport: DESK });
    try {
      await recordArtifacts('season-setup', page, log, async () => {
        await page.getByRole('link', { name: slSetup.nav }).waitFor();
        await page.getByRole('link', { name: slSetup.nav }).click();
        await page.getByRole('heading', { name: slSetup.hub.title }).waitFor();
        await shoot(page, 'hub');

        // ── Season: an overlapping one is refused before anything is queued, then a valid one.
        await goHash(page, '#/setup/seasons');
        await page.getByTestId('current-season').waitFor();
        await shoot(page, 'seasons');
        await page.getByRole('button', { name: slSetup.seasons.add }).click();
        await page.locator('input[name="name"]').fill('Sezona 2031');
        await page.locator('input[name="start"]').fill('2026-06-01');
        await page.locator('input[name="end"]').fill('2031-10-31');
        await page.getByRole('button', { name: sl.common.save }).click();
        await page
          .getByRole('alert')
          .filter({ hasText: slSetup.seasons.overlap('Sezona 2026') })
          .waitFor();
        await shoot(page, 'seasons-overlap');
        await page.locator('input[name="start"]').fill('2031-03-01');
        await page.getByRole('button', { name: sl.common.save }).click();
        await page.getByRole('status').filter({ hasText: slSetup.common.saved }).waitFor();
        await page.getByRole('rowheader', { name: 'Sezona 2031' }).waitFor();

        // ── Farmer.
        await goHash(page, '#/setup/farmers');
        await page.getByRole('button', { name: slSetup.farmers.add }).click();
        await page.locator('input[name="name"]').fill('Tina Travnik');
        await page.locator('input[name="email"]').fill(TINA.email);
        await page.locator('input[name="phone"]').fill('041 555 123');
        await page.locator('input[name="kmg_mid"]').fill('987654321');
        await shoot(page, 'farmer-form');
        await page.getByRole('button', { name: sl.common.save }).click();
        await page.getByRole('rowheader', { name: 'Tina Travnik' }).waitFor();
        await waitForOutboxEmpty(page);
        await shoot(page, 'farmers');

        // ── Meadow, drawn with four taps around the map's centre and a tap on the first corner.
        await goHash(page, '#/setup/areas');
        await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor({ timeout: 90_000 });
        await shoot(page, 'areas');
        await page.getByRole('button', { name: slSetup.areas.add }).click();
        await page.locator('input[name="name"]').fill('Tinin travnik');
        await page.locator('input[name="gerk_pid"]').fill('7654321');
        await page.locator('select[name="owner"]').selectOption({ label: 'Tina Travnik' });
        await page.locator('[data-drawing="polygon"]').waitFor();
        const corners = [
          [-80, -60],
          [80, -60],
          [80, 60],
          [-80, 60],
        ] as const;
        for (const [dx, dy] of corners) {
          const p = await mapPoint(page, dx, dy);
          await page.mouse.click(p.x, p.y);
        }
        await page.getByRole('button', { name: slSetup.common.finishDrawing }).click();
        await page.getByTestId('area-ha').filter({ hasText: / ha$/ }).waitFor();
        await shoot(page, 'area-drawn');
        // Four taps at the map's first zoom make thousands of hectares: the screen asks (the
        // built-in map has no parcels to follow, it says so), the adviser may still save.
        expect(await page.getByTestId('basemap-note').textContent()).toBe(slSetup.areas.basemapNote);
        await page.getByRole('button', { name: sl.common.save }).click();
        const doubt = page.getByTestId('area-doubt');
        await doubt.waitFor();
        expect(await doubt.textContent()).toMatch(/^Travnik meri \d{1,3}(\.\d{3})+(,\d{1,2})? ha, travniki v shemi pa največ okoli 50 ha\./);
        await shoot(page, 'area-doubt');
        await doubt.getByRole('button', { name: slSetup.areas.saveAnyway }).click();
        await page.getByText('Tinin travnik').waitFor();
        await waitForOutboxEmpty(page);

        // ── Transect inside the new meadow (the map fits to the chosen meadow).
        await goHash(page, '#/setup/paths');
        await page.getByRole('button', { name: slSetup.paths.add }).click();
        await page.locator('select[name="area"]').selectOption({ label: 'Tinin travnik' });
        await page.locator('input[name="name"]').fill('Tinin transekt');
        await page.locator('[data-drawing="line"]').waitFor();
        const a = await mapPoint(page, -60, 10);
        const b = await mapPoint(page, 0, -10);
        const c = await mapPoint(page, 60, 0);
        await page.mouse.click(a.x, a.y);
        await page.mouse.click(b.x, b.y);
        await page.mouse.click(c.x, c.y);
        await page.getByRole('button', { name: slSetup.common.finishDrawing }).click();
        await shoot(page, 'path-drawn');
        await page.getByRole('button', { name: sl.common.save }).click();
        // Inside the meadow: no question, straight back to the list.
        await page
          .getByTestId(/^setup-path-/)
          .filter({ hasText: 'Tinin transekt' })
          .waitFor();
        await waitForOutboxEmpty(page);
        await shoot(page, 'paths');
      });

      // ── What the server holds.
      const col = {
        season: await data.col('durations', 'name'),
        start: await data.col('durations', 'filter_start'),
        end: await data.col('durations', 'filter_end'),
        farmerName: await data.col('farmers', 'name'),
        email: await data.col('farmers', 'email'),
        phone: await data.col('farmers', 'phone'),
        kmg: await data.col('farmers', 'kmg_mid'),
        areaName: await data.col('areas', 'name'),
        user: await data.col('areas', 'user'),
        gerk: await data.col('areas', 'gerk_pid'),
        ha: await data.col('areas', 'area_ha'),
        pathName: await data.col('paths', 'name'),
        parent: await data.col('paths', 'parent'),
      };
      // Exactly one new season (the refused overlapping one never reached the server).
      const seasons = (await data.rows('durations')).filter((r) => String(r.properties[col.season]).includes('2031'));
      expect(seasons).toHaveLength(1);
      expect(String(seasons[0]!.properties[col.start]).slice(0, 10)).toBe('2031-03-01');
      expect(String(seasons[0]!.properties[col.end]).slice(0, 10)).toBe('2031-10-31');

      const farmers = (await data.rows('farmers')).filter((r) => r.properties[col.email] === TINA.email);
      expect(farmers).toHaveLength(1);
      expect(farmers[0]!.properties).toMatchObject({ [col.farmerName]: 'Tina Travnik', [col.phone]: '041 555 123', [col.kmg]: '987654321' });

      const areas = (await data.rows('areas')).filter((r) => r.properties[col.areaName] === 'Tinin travnik');
      expect(areas).toHaveLength(1);
      const area = areas[0]!;
      expect(area.properties[col.user]).toBe(farmers[0]!.id);
      expect(area.properties[col.gerk]).toBe('7654321');
      expect(area.geometry?.type).toBe('Polygon');
      expect((area.geometry as Polygon).coordinates[0]).toHaveLength(5);
      expect(area.properties[col.ha]).toBeGreaterThan(0);

      const paths = (await data.rows('paths')).filter((r) => r.properties[col.pathName] === 'Tinin transekt');
      expect(paths).toHaveLength(1);
      expect(paths[0]!.properties[col.parent]).toBe(area.id);
      expect(paths[0]!.geometry?.type).toBe('LineString');
      expect((paths[0]!.geometry as LineString).coordinates.length).toBeGreaterThanOrEqual(3);
    } finally {
      await close();
    }
  });

  test('a farmer trims the end of a walked transect with Draw; the server keeps the raw fixes', async () => {
    const { data } = e2e;
    const [walked] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const line = walked!.geometry as LineString;
    expect(line.coordinates).toHaveLength(5);
    const walkCol = await data.col('paths', 'walk');
    // The path's raw GPS fixes as the server holds them before (a walk recorded for this test).
    const walk = {
      recordedAt: '2026-06-01T08:00:00.000Z',
      summary: { distanceM: 140 },
      raw: line.coordinates.map(([lon, lat], i) => [lon, lat, 4, 1_780_000_000_000 + i * 1000, 'accepted']),
    };
    const config = await data.config();
    const put = await data.call(DEMO_USERS.farmer1, `/api/Features/${config.projectId}/${config.tables.paths.id}/${walked!.id}`, {
      method: 'PUT',
      body: { type: 'Feature', geometry: line, properties: { [walkCol]: walk } },
    });
    expect(put.status).toBe(200);

    const [lon, lat] = line.coordinates[0]!;
    // The sign-in redirect comes back to the start page; then the path, as a link would.
    const { page, log, close } = await e2e.signedIn('farmer1', { ...fieldDevice({ longitude: lon!, latitude: lat! }), viewport: PHONE });
    try {
      await recordArtifacts('season-setup-correct', page, log, async () => {
        await homePathRow(page, walked!.id).waitFor();
        await goHash(page, `#/paths/${walked!.id}`);
        await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor({ timeout: 90_000 });
        await page.getByRole('button', { name: slSetup.paths.correct }).click();
        await page.locator('[data-drawing="line"]').waitFor();
        // Select the last vertex and delete it: the walk's end is trimmed. At desk size the whole
        // map is in view below the header (on the phone the header may cover the scrolled map).
        await page.setViewportSize(DESK);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
        const end = await pixelOf(page, line.coordinates[4]!);
        await page.mouse.click(end.x, end.y);
        await page.getByRole('button', { name: slSetup.paths.deleteVertex }).click();
        await shoot(page, 'path-correct');
        await page.setViewportSize(PHONE);
        await page.getByRole('button', { name: sl.common.save }).click();
        await page.getByRole('status').filter({ hasText: slSetup.paths.corrected }).waitFor();
        await waitForOutboxEmpty(page);
      });
      const after = (await data.rows('paths', DEMO_USERS.farmer1)).find((p) => p.id === walked!.id)!;
      expect((after.geometry as LineString).coordinates).toEqual(line.coordinates.slice(0, 4));
      expect(after.properties[walkCol]).toEqual(walk);
    } finally {
      await close();
    }
  });

  test('a farmer walks a transect and corrects the walked line with Draw before saving it', async () => {
    const { data } = e2e;
    const [, second] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const [lon0, lat0] = (second!.geometry as LineString).coordinates[0]! as [number, number];
    const mLon = 1 / (111_320 * Math.cos((lat0 * Math.PI) / 180));
    const mLat = 1 / 110_574;
    // 40 m east, then 40 m north: the saved (simplified) line is start, corner, end.
    const route = [...Array.from({ length: 11 }, (_, i) => [i * 4, 0]), ...Array.from({ length: 10 }, (_, i) => [40, (i + 1) * 4])];
    const at = ([e, n]: number[]) => ({ longitude: lon0 + e! * mLon, latitude: lat0 + n! * mLat, accuracy: 4 });
    const endFix = at(route[route.length - 1]!);
    const { context, page, log, close } = await e2e.signedIn('farmer1', { ...fieldDevice(at(route[0]!)), viewport: PHONE });
    try {
      await recordArtifacts('season-setup-walk-correct', page, log, async () => {
        await homePathRow(page, second!.id).waitFor();
        await goHash(page, `#/paths/${second!.id}`);
        await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor({ timeout: 90_000 });
        await walkThrough(context, page, route.map(at));
        await page.getByRole('button', { name: slMap.recording.finish }).click();
        await page.getByTestId('walk-summary').waitFor();
        // Trim the end: the last vertex is deleted.
        await page.getByRole('button', { name: slSetup.paths.correct }).click();
        await deleteVertexAt(page, [endFix.longitude, endFix.latitude], 'walk-correct');
        await page.getByRole('button', { name: slMap.recording.save }).click();
        // Online: saved and sent at once, and said so.
        await page.getByText(slMap.recording.savedOnline).waitFor();
        await waitForOutboxEmpty(page);
      });
      const walkCol = await data.col('paths', 'walk');
      const after = (await data.rows('paths', DEMO_USERS.farmer1)).find((p) => p.id === second!.id)!;
      const saved = (after.geometry as LineString).coordinates;
      // Start and corner remain; the end is gone.
      expect(saved).toHaveLength(2);
      const corner = at([40, 0]);
      expect(Math.abs(saved[1]![0]! - corner.longitude)).toBeLessThan(2 * mLon);
      expect(Math.abs(saved[1]![1]! - corner.latitude)).toBeLessThan(2 * mLat);
      // Every raw fix is kept, the end of the walk included.
      const raw = (after.properties[walkCol] as { raw: number[][] }).raw;
      expect(raw.length).toBe(route.length);
      expect(Math.abs(raw[raw.length - 1]![1]! - endFix.latitude)).toBeLessThan(1e-7);
    } finally {
      await close();
    }
  });

  test('offline on a phone, a farmer walks a new transect on their meadow and corrects it with Draw; online, the server holds it once', async () => {
    const { data } = e2e;
    const [first] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const parentCol = await data.col('paths', 'parent');
    const areaId = first!.properties[parentCol] as number;
    const meadow = (await data.rows('areas')).find((a) => a.id === areaId)!;
    const pathsBefore = (await data.rows('paths')).map((p) => p.id);
    // The walk starts in the middle of the meadow (the mean of its outline's corners).
    const ring = (meadow.geometry as Polygon).coordinates[0]!.slice(0, -1);
    const lon0 = ring.reduce((sum, [lon]) => sum + lon!, 0) / ring.length;
    const lat0 = ring.reduce((sum, [, lat]) => sum + lat!, 0) / ring.length;
    const mLon = 1 / (111_320 * Math.cos((lat0 * Math.PI) / 180));
    const mLat = 1 / 110_574;
    // 40 m east, then 40 m north: the walked (simplified) line is start, corner, end.
    const route = [...Array.from({ length: 11 }, (_, i) => [i * 4, 0]), ...Array.from({ length: 10 }, (_, i) => [40, (i + 1) * 4])];
    const at = ([e, n]: number[]) => ({ longitude: lon0 + e! * mLon, latitude: lat0 + n! * mLat, accuracy: 4 });
    const endFix = at(route[route.length - 1]!);
    const name = 'Prehojena brez signala';
    const { context, page, log, close } = await e2e.signedIn('farmer1', { ...fieldDevice(at(route[0]!)), viewport: PHONE });
    let queuedOffline = 0;
    try {
      await recordArtifacts('season-setup-offline-walk', page, log, async () => {
        await page.getByTestId(`area-${areaId}`).getByRole('link', { name: slSetup.paths.add }).click();
        await page.getByRole('heading', { name: slSetup.paths.newForFarmer }).waitFor();
        await page.locator('[data-testid="map-view"][data-ready="true"]').waitFor({ timeout: 90_000 });
        // The meadow comes chosen from its card.
        await expect(page.locator('select[name="area"]').inputValue()).resolves.toBe(String(areaId));
        // The installed app (service worker in control) is what a farmer takes to the field.
        await waitForServiceWorkerControl(page);
        await context.setOffline(true);
        await page.locator('input[name="name"]').fill(name);
        await page.getByRole('radio', { name: slSetup.paths.howWalkSelf }).check();
        await walkThrough(context, page, route.map(at));
        await page.getByRole('button', { name: slMap.recording.finish }).click();
        await page.getByTestId('walk-summary').waitFor();
        // Trim the end: the last vertex is deleted.
        await page.getByRole('button', { name: slSetup.paths.correct }).click();
        await deleteVertexAt(page, [endFix.longitude, endFix.latitude], 'offline-walk-correct');
        await page.getByRole('button', { name: slMap.recording.save }).click();
        // Saved on the device: the new path's screen opens (under its device id).
        await page.waitForFunction(() => /^#\/paths\/-?\d+$/.test(window.location.hash));
        await page.getByRole('heading', { name }).waitFor();
        queuedOffline = await outboxCount(page);
        await context.setOffline(false);
        await waitForOutboxEmpty(page);
      });
    } finally {
      await close();
    }
    // The path and its walk waited in the outbox while offline.
    expect(queuedOffline).toBeGreaterThanOrEqual(1);
    const [nameCol, walkCol] = [await data.col('paths', 'name'), await data.col('paths', 'walk')];
    const created = (await data.rows('paths')).filter((p) => !pathsBefore.includes(p.id));
    expect(created).toHaveLength(1);
    const path = created[0]!;
    expect(path.properties[nameCol]).toBe(name);
    expect(path.properties[parentCol]).toBe(areaId);
    // The corrected line: start and corner; the walk's end is gone.
    const saved = (path.geometry as LineString).coordinates;
    expect(saved).toHaveLength(2);
    const corner = at([40, 0]);
    expect(Math.abs(saved[0]![0]! - lon0)).toBeLessThan(2 * mLon);
    expect(Math.abs(saved[0]![1]! - lat0)).toBeLessThan(2 * mLat);
    expect(Math.abs(saved[1]![0]! - corner.longitude)).toBeLessThan(2 * mLon);
    expect(Math.abs(saved[1]![1]! - corner.latitude)).toBeLessThan(2 * mLat);
    // Every raw fix is kept, the trimmed end of the walk included.
    const raw = (path.properties[walkCol] as { raw: number[][] }).raw;
    expect(raw.length).toBe(route.length);
    expect(Math.abs(raw[raw.length - 1]![1]! - endFix.latitude)).toBeLessThan(1e-7);
  });

  test('the editor hands the farmer a one-time activation link; on a phone the farmer sets a password, signs in and sees the meadow', async () => {
    const { data, server } = e2e;
    const farmerId = await data.farmerId(TINA.email);
    const editor = await e2e.signedIn('editor', { ...fieldDevice(DESK_PLACE), viewport: DESK });
    let url: string;
    try {
      url = await recordArtifacts('season-setup-account', editor.page, editor.log, async () => {
        const { page } = editor;
        await goHash(page, '#/setup/farmers');
        await page
          .getByRole('row', { name: /Tina Travnik/ })
          .getByRole('button', { name: slSetup.farmers.accountButton })
          .click();
        // The farmer was delivered by the first test: the panel reads the server's account state.
        await page.getByTestId('account-state').filter({ hasText: slSetup.farmers.accountNone }).waitFor();
        await page.getByRole('button', { name: slSetup.farmers.createLink }).click();
        const link = page.getByTestId('activation-link');
        await link.waitFor();
        // The state read again: a link is pending (the sentence before its date).
        await page
          .getByTestId('account-state')
          .filter({ hasText: slSetup.farmers.accountPending('').split('(')[0]! })
          .waitFor();
        await shoot(page, 'farmer-account');
        return link.inputValue();
      });
    } finally {
      await editor.close();
    }
    expect(url.startsWith(`${server.origin}/auth/realms/moj-travnik/login-actions/activate/`)).toBe(true);

    const t = slSeasonServer.activation;
    // A new phone, not signed in: the farmer sets the password first.
    const farmer = await e2e.device({ ...fieldDevice(DESK_PLACE), viewport: PHONE });
    try {
      await recordArtifacts('season-setup-activation', farmer.page, farmer.log, async () => {
        const { page } = farmer;
        await page.goto(url);
        await page.getByRole('heading', { name: t.heading }).waitFor();
        await page.getByLabel(t.passwordLabel, { exact: true }).fill(TINA.password);
        await page.getByLabel(t.repeatLabel, { exact: true }).fill(TINA.password);
        await shoot(page, 'activation');
        await page.setViewportSize(PHONE);
        await page.getByRole('button', { name: t.submit }).click();
        await page.getByRole('heading', { name: t.doneHeading }).waitFor();
        await shoot(page, 'activation-done');
        await page.setViewportSize(PHONE);
        // The normal login page, with the e-mail and the password just set.
        await openAppSignedIn(page, `${server.origin}/#/`, TINA);
        await page.getByRole('heading', { name: 'Tinin travnik', level: 3 }).waitFor();
        await page.getByRole('link', { name: /Tinin transekt/ }).waitFor();
        await shoot(page, 'farmer-home');
      });
    } finally {
      await farmer.close();
    }
    const state = await data.call<{ activated: boolean; activationPending: boolean }>(DEMO_USERS.editor, `/api/Accounts/${farmerId}`);
    expect(state).toMatchObject({ status: 200, body: { activated: true, activationPending: false } });
    // The link was for one use only: used, it says so.
    const again = await fetch(url);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain(slSeasonServer.activation.invalidHeading);
  });

  test('an editor imports farmers (CSV) and D96/TM meadows (GeoPackage): preview, mapping, dry run, commit', async () => {
    const { data } = e2e;
    const before = { farmers: (await data.rows('farmers')).map((r) => r.id), areas: (await data.rows('areas')).map((r) => r.id) };
    const farmersFile = farmersCsv([
      { name: 'Ana Uvožena', email: 'ana.uvozena@example.si', phone: '031 111 222', kmgMid: '300000001' },
      { name: 'Bojan Uvožen', email: 'bojan.uvozen@example.si', kmgMid: '300000002' },
    ]);
    // South-west corners in WGS84; the file holds them in D96/TM.
    const corners = [
      [14.51, 46.06, '300000001'],
      [14.52, 46.06, '300000001'],
      [14.53, 46.06, '300000002'],
    ] as const;
    const meadowsFile = geoPackageFile(
      corners.map(([lon, lat, kmg], i) => squareMeadow(lon, lat, { ime: `Uvožen travnik ${i + 1}`, GERK_PID: `810000${i + 1}`, KMG_MID: kmg }, { crs: 'd96' })),
      3794,
    );
    const col = {
      farmerName: await data.col('farmers', 'name'),
      email: await data.col('farmers', 'email'),
      phone: await data.col('farmers', 'phone'),
      kmg: await data.col('farmers', 'kmg_mid'),
      areaName: await data.col('areas', 'name'),
      gerk: await data.col('areas', 'gerk_pid'),
      user: await data.col('areas', 'user'),
      ha: await data.col('areas', 'area_ha'),
    };

    const { page, log, close } = await e2e.signedIn('editor', { ...fieldDevice(DESK_PLACE), viewport: DESK });
    try {
      await recordArtifacts('season-setup-import', page, log, async () => {
        await goHash(page, '#/setup/import');
        await page.getByRole('button', { name: slSetup.import.preview }).waitFor();
        await shoot(page, 'import');

        /** One file through the screen; `source` is a column whose suggested target (`column`) is checked. */
        const importFile = async (
          kind: 'farmers' | 'areas',
          name: string,
          buffer: Buffer,
          expected: { source: string; column: string; label: string; created: number; crs?: string },
        ) => {
          await page.locator('select[name="kind"]').selectOption(kind);
          await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
          await page.getByRole('button', { name: slSetup.import.preview }).click();
          const mapping = page.getByTestId('import-mapping');
          await mapping.waitFor();
          // The server's suggestion is shown as the chosen target column and is what the editor confirms.
          const target = mapping.getByRole('combobox', { name: `${slSetup.import.target}: ${expected.source}` });
          await expect(target.inputValue()).resolves.toBe(expected.column);
          await expect(target.locator('option:checked').textContent()).resolves.toBe(expected.label);
          if (expected.crs) await page.getByText(expected.crs, { exact: true }).waitFor();
          await shoot(page, `import-mapping-${kind}`);
          await page.getByRole('button', { name: slSetup.import.dryRun }).click();
          await page
            .getByTestId('import-counts')
            .filter({ hasText: slSetup.import.counts(expected.created, 0, 0) })
            .waitFor();
          await expect(page.getByTestId('import-report').locator('tbody tr').count()).resolves.toBe(expected.created);
          await shoot(page, `import-dry-run-${kind}`);
          await page.getByRole('button', { name: slSetup.import.commit }).click();
          await page
            .getByRole('status')
            .filter({ hasText: slSetup.import.committed(expected.created, 0) })
            .waitFor();
        };
        // Farmers first: the meadows name their owners by KMG-MID.
        await importFile('farmers', 'kmetje.csv', farmersFile, { source: 'KMG-MID', column: col.kmg, label: slSetup.farmers.kmgMid, created: 2 });
        await importFile('areas', 'travniki.gpkg', meadowsFile, {
          source: 'GERK_PID',
          column: col.gerk,
          label: slSetup.areas.gerkPid,
          created: 3,
          crs: 'EPSG:3794',
        });
        await shoot(page, 'import-done');
      });
    } finally {
      await close();
    }

    // Exactly the imported rows are new on the server.
    const farmers = (await data.rows('farmers')).filter((r) => !before.farmers.includes(r.id));
    expect(farmers.map((r) => r.properties[col.kmg]).sort()).toEqual(['300000001', '300000002']);
    const ana = farmers.find((r) => r.properties[col.kmg] === '300000001')!;
    const bojan = farmers.find((r) => r.properties[col.kmg] === '300000002')!;
    expect(ana.properties).toMatchObject({ [col.farmerName]: 'Ana Uvožena', [col.email]: 'ana.uvozena@example.si', [col.phone]: '031 111 222' });
    expect(bojan.properties).toMatchObject({ [col.farmerName]: 'Bojan Uvožen', [col.email]: 'bojan.uvozen@example.si' });

    const areas = (await data.rows('areas')).filter((r) => !before.areas.includes(r.id));
    expect(areas.map((r) => r.properties[col.gerk]).sort()).toEqual(['8100001', '8100002', '8100003']);
    for (const [i, [lon, lat, kmg]] of corners.entries()) {
      const area = areas.find((r) => r.properties[col.gerk] === `810000${i + 1}`)!;
      expect(area.properties[col.areaName]).toBe(`Uvožen travnik ${i + 1}`);
      expect(area.properties[col.user]).toBe(kmg === '300000001' ? ana.id : bojan.id);
      // Reprojected from D96/TM back to the WGS84 corner, area computed by the server.
      const [x, y] = (area.geometry as Polygon).coordinates[0]![0]!;
      expect(x).toBeCloseTo(lon, 6);
      expect(y).toBeCloseTo(lat, 6);
      expect(area.properties[col.ha]).toBeGreaterThan(0);
    }
  });
});
