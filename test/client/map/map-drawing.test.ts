/**
 * The drawing side of a map (lib/map/map-drawing.ts) once its map has gone (MapEngine.destroy:
 * `detach`, then MapLibre's remove): a drawing tool whose effect still runs then draws nothing.
 * Before, it added a new Mapbox GL Draw to the removed map and polled it for Draw's source every
 * 50 ms until the page closed, each poll an uncaught TypeError (about 20 a second in the browser
 * tests' logs).
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import type { Map as MlMap } from 'maplibre-gl';
import { MapDrawing } from '../../../src/client/lib/map/map-drawing';

afterEach(() => {
  jest.useRealTimers();
});

/** What the drawing asks of the map; a removed MapLibre map throws as its style is gone. */
function fakeMap() {
  const asked: string[] = [];
  let removed = false;
  const ask = (name: string) => {
    if (removed) throw new TypeError(`Cannot read properties of undefined (reading '${name}')`);
    asked.push(name);
  };
  const map = {
    addControl: () => ask('addControl'),
    getSource: () => ask('getSource'),
    on: () => undefined,
    off: () => undefined,
  };
  return { asked, remove: () => (removed = true), map: map as unknown as MlMap };
}

describe('drawing on a map that has gone', () => {
  it('adds no Draw to it and never polls it', async () => {
    jest.useFakeTimers();
    const { asked, remove, map } = fakeMap();
    const drawing = new MapDrawing(map);
    drawing.detach();
    remove();

    drawing.startLine();
    drawing.editLine({
      type: 'LineString',
      coordinates: [
        [16, 46.8],
        [16.001, 46.8],
      ],
    });
    drawing.startPolygon();
    drawing.startPoint(null);
    let ready = false;
    void drawing.whenDrawReady().then(() => (ready = true));
    await jest.advanceTimersByTimeAsync(1_000);

    expect(asked).toEqual([]);
    expect(ready).toBe(false);
    expect(drawing.isDrawing()).toBe(false);
    expect(drawing.drawnGeometry()).toBeNull();
  });
});
