/**
 * A form's optional location picked by a tap on the map ('/forms/{formId}'), in
 * Chromium against the real server: a farmer opens this season's meadow form, gives an indicator a
 * location with "Izberi na zemljevidu", taps the map at a pixel away from the centre, saves, and —
 * once the outbox has drained — the server's indicator row holds a Point at the lon/lat of that
 * pixel. The expected lon/lat is computed here with Web Mercator arithmetic from the map's view
 * (the element's data-view: centre and zoom, lib/map/map-view.tsx) and the pixel's offset from
 * the canvas centre, independently of the map library's own unproject; the coordinates the form
 * shows must match too. A second test (a bug found earlier, see its comment) makes two meadow
 * forms of the season on one path and checks each keeps its own answers.
 */
import { expect, jest, test } from '@jest/globals';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Point } from 'geojson';
import { slMap, slScreens } from '../../src/common/i18n/sl';
import { describeApp, fieldDevice } from './fixture';
import { ARTIFACTS_DIR, DEMO_USERS, recordArtifacts, keepScreenshot } from './harness';
import { REQUIRED_ANSWERS, addMeadowForm, waitForOutboxEmpty, homePathRow } from './scenarios/helpers';

jest.setTimeout(240_000);

/** MapLibre's tile size: the world is 512 · 2^zoom CSS pixels wide. */
const TILE_SIZE = 512;
/** Where the farmer taps, in CSS pixels from the centre of the map canvas (right, down). */
const TAP = { dx: 70, dy: -45 };
/** The indicator given a location. */
const KEY = 'salvia-pratensis';

interface MapViewData {
  center: [number, number];
  zoom: number;
  bearing: number;
  pitch: number;
}

const mercatorY = (lat: number) => (1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2;
const latOfMercatorY = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** The lon/lat under a pixel offset (dx, dy) from the centre of a north-up, unpitched map. */
function lonLatAt(view: MapViewData, dx: number, dy: number): [number, number] {
  const world = TILE_SIZE * 2 ** view.zoom;
  return [view.center[0] + (dx / world) * 360, latOfMercatorY(mercatorY(view.center[1]) + dy / world)];
}

/** Degrees of longitude and latitude that `px` CSS pixels span at this view. */
function pixelsInDegrees(view: MapViewData, px: number): [number, number] {
  const [lon0, lat0] = lonLatAt(view, 0, 0);
  const [lon1, lat1] = lonLatAt(view, px, px);
  return [Math.abs(lon1 - lon0), Math.abs(lat1 - lat0)];
}

async function mapView(page: Page): Promise<MapViewData | null> {
  const raw = await page.getByRole('dialog').locator('.mt-map__canvas').getAttribute('data-view');
  return raw ? (JSON.parse(raw) as MapViewData) : null;
}

// Both tests make forms on kmet1's first path: each counts only the forms it made (forms before → after).
describeApp('form location by a tap on the map (Chromium)', {}, (e2e) => {
  test('a farmer taps the map for an indicator’s location; the saved row on the server is at the tapped point', async () => {
    const { data } = e2e;
    const [meadowPath] = await data.pathsOf(DEMO_USERS.farmer1.email);
    expect(meadowPath).toBeDefined();
    const formsBefore = new Set((await data.formsOfPath(meadowPath!.id)).map((f) => f.id));
    const start = (meadowPath!.geometry as { coordinates: number[][] }).coordinates[0]!;
    // The browser's own position is far away: a location near the path can only come from the tap.
    const { page, log, close } = await e2e.signedIn('farmer1', fieldDevice({ longitude: start[0]! + 0.5, latitude: start[1]! - 0.3 }));
    try {
      await recordArtifacts('form-map-location', page, log, async () => {
        await homePathRow(page, meadowPath!.id).waitFor();
        await addMeadowForm(page, meadowPath!.id);
        await page.getByText(slScreens.states.savedOnline).or(page.getByText(slScreens.states.saved)).first().waitFor();

        const card = page.getByTestId(`indicator-${KEY}`);
        await card.getByRole('radio', { name: slScreens.forms.yes, exact: true }).click();
        await card.locator('.indicator__head').click();
        await card.getByRole('button', { name: slScreens.forms.pickOnMap }).click();

        const dialog = page.getByRole('dialog');
        await dialog.locator('[data-testid="map-view"][data-ready="true"]').waitFor({ timeout: 90_000 });
        // The map has settled on the meadow (fitted once its items arrived) and is north-up, flat.
        await page.waitForFunction(() => {
          const raw = document.querySelector('[role="dialog"] .mt-map__canvas')?.getAttribute('data-view');
          return raw !== null && raw !== undefined && (JSON.parse(raw) as { zoom: number }).zoom > 12;
        });
        const view = (await mapView(page))!;
        expect(view.bearing).toBe(0);
        expect(view.pitch).toBe(0);

        const box = (await dialog.locator('canvas.maplibregl-canvas').boundingBox())!;
        expect(box.width).toBeGreaterThan(2 * Math.abs(TAP.dx) + 40);
        expect(box.height).toBeGreaterThan(2 * Math.abs(TAP.dy) + 40);
        const x = box.x + box.width / 2 + TAP.dx;
        const y = box.y + box.height / 2 + TAP.dy;
        const expected = lonLatAt(view, TAP.dx, TAP.dy);
        // Nothing to save before the tap; the tap goes to the drawing tool once it has started.
        const save = dialog.getByRole('button', { name: slMap.draw.save, exact: true });
        expect(await save.isDisabled()).toBe(true);
        await dialog.locator('[data-drawing="point"]').waitFor();
        await page.mouse.click(x, y);
        // The tap drew the point: saving is possible now (Playwright waits for the button to enable).
        await dialog.locator('button:not([disabled])', { hasText: slMap.draw.save }).waitFor();
        await keepScreenshot(page, path.join(ARTIFACTS_DIR, 'form-map-location-tapped.png'));
        await save.click();
        await dialog.waitFor({ state: 'detached' });

        // Within 3 pixels of the tap (the pointer lands on whole device pixels).
        const [tolLon, tolLat] = pixelsInDegrees(view, 3);
        const shown = (await card.getByTestId('location-value').textContent()) ?? '';
        const [shownLat, shownLon] = (shown.match(/\d+,\d+/g) ?? []).map((n) => Number(n.replace(',', '.')));
        expect(Math.abs(shownLon! - expected[0])).toBeLessThan(tolLon + 1e-5);
        expect(Math.abs(shownLat! - expected[1])).toBeLessThan(tolLat + 1e-5);

        await page.getByRole('button', { name: slScreens.forms.save }).click();
        await page
          .getByRole('status')
          .filter({ hasText: slScreens.states.savedOnline })
          .or(page.getByRole('status').filter({ hasText: slScreens.states.saved }))
          .first()
          .waitFor();

        // The server's row of that indicator, on the form this test made, once the outbox has
        // delivered everything (the server acknowledged each edit: its rows are there).
        await waitForOutboxEmpty(page);
        const keyCol = await data.col('indicators', 'key');
        const made = (await data.formsOfPath(meadowPath!.id)).filter((f) => !formsBefore.has(f.id));
        expect(made).toHaveLength(1);
        const rows = (await data.indicatorsOfForm(made[0]!.id)).filter((r) => r.properties[keyCol] === KEY && !r.deleted && !r.archived);
        if (rows.length !== 1) {
          // Say where the answer went (every form of the path with its indicators), not just "0".
          const forms = await data.formsOfPath(meadowPath!.id);
          const report = await Promise.all(
            forms.map(async (f) => ({
              id: f.id,
              new: !formsBefore.has(f.id),
              indicators: (await data.indicatorsOfForm(f.id)).map((r) => [r.id, r.properties[keyCol], r.geometry?.type ?? null]),
            })),
          );
          throw new Error(`expected one located ${KEY} row on the new form; the path's forms: ${JSON.stringify(report)}; at ${page.url()}`);
        }
        const geometry = rows[0]!.geometry as Point;
        expect(geometry.type).toBe('Point');
        const [lon, lat] = geometry.coordinates as [number, number];
        expect(Math.abs(lon - expected[0])).toBeLessThan(tolLon);
        expect(Math.abs(lat - expected[1])).toBeLessThan(tolLat);
        // And nowhere near the browser's own position.
        expect(Math.abs(lon - (start[0]! + 0.5))).toBeGreaterThan(0.1);
      });
    } finally {
      await close();
    }
  });
  // Found by the archive helper (2026-11-22): the route guessed which server row an offline-made
  // form became (newest of its kind on the path) and, when the season did not list the new one
  // yet, picked the first form; the second form's save then deleted the first one's answers.
  // The route now asks the outbox which server id the offline id got (screens/form-follow).
  test('a second meadow form on the path this season keeps its own answers (not saved into the first)', async () => {
    const { data } = e2e;
    const [meadowPath] = await data.pathsOf(DEMO_USERS.farmer1.email);
    const before = new Set((await data.formsOfPath(meadowPath!.id)).map((f) => f.id));
    const { page, log, close } = await e2e.signedIn('farmer1', fieldDevice({ longitude: 16.2, latitude: 46.8 }));
    try {
      await recordArtifacts('form-second-of-kind', page, log, async () => {
        await homePathRow(page, meadowPath!.id).waitFor();
        const keyCol = await data.col('indicators', 'key');
        const answersOf = async (formId: number) =>
          (await data.indicatorsOfForm(formId))
            .filter((r) => !r.deleted)
            .map((r) => String(r.properties[keyCol]))
            .sort();
        const required = REQUIRED_ANSWERS.map((a) => a.key).sort();
        const newForms = async () => (await data.formsOfPath(meadowPath!.id)).filter((f) => !before.has(f.id)).sort((a, b) => a.id - b.id);
        for (let n = 1; n <= 2; n++) {
          await addMeadowForm(page, meadowPath!.id);
          await page
            .getByRole('status')
            .filter({ hasText: slScreens.states.savedOnline })
            .or(page.getByRole('status').filter({ hasText: slScreens.states.saved }))
            .first()
            .waitFor();
          // Delivered: the server acknowledged the form and its answers before the next one is made.
          await waitForOutboxEmpty(page);
          const made = await newForms();
          expect(made).toHaveLength(n);
          expect(await answersOf(made[n - 1]!.id)).toEqual(required);
        }
        const made = await newForms();
        expect(made).toHaveLength(2);
        expect(await answersOf(made[0]!.id)).toEqual(required);
        expect(await answersOf(made[1]!.id)).toEqual(required);
      });
    } finally {
      await close();
    }
  });
});
