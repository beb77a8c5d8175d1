import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { VectorTile } from '@mapbox/vector-tile';
import Fastify, { type FastifyInstance } from 'fastify';
import Pbf from 'pbf';
import { OWN_BASEMAP_MAX_ZOOM, OWN_BASEMAP_TILES_PATH } from '../../src/common/basemap';
import { basemapRoutes } from '../../src/server/routes/basemap/index';

// The base map plugin on its own Fastify instance: it has no dependency on the API (no auth, no
// database), so the test does not need the whole app. Real HTTP on an ephemeral port (fastify's
// inject pulls in the ESM-only `cookie` package, which jest's CommonJS require cannot load).
let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = Fastify();
  await app.register(basemapRoutes);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  // The tile index is built on the first tile request (about a second, more on a busy machine).
  await fetch(`${base}/basemap/tiles/0/0/0.pbf`);
}, 60_000);
afterAll(async () => {
  await app.close();
});

interface Answer {
  statusCode: number;
  headers: Record<string, string>;
  rawPayload: Buffer;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function get(url: string): Promise<Answer> {
  const res = await fetch(base + url);
  const rawPayload = Buffer.from(await res.arrayBuffer());
  return { statusCode: res.status, headers: Object.fromEntries(res.headers), rawPayload, json: () => JSON.parse(rawPayload.toString('utf8')) };
}

function decode(body: Buffer) {
  return new VectorTile(new Pbf(new Uint8Array(body)));
}

describe('own base map', () => {
  it('serves a MapLibre style with a relative vector tile source and no glyph dependency', async () => {
    const res = await get('/basemap/style.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('max-age');
    const style = res.json();
    expect(style.version).toBe(8);
    expect(style.sources.basemap).toMatchObject({ type: 'vector', tiles: [OWN_BASEMAP_TILES_PATH], maxzoom: OWN_BASEMAP_MAX_ZOOM });
    expect(style.glyphs).toBeUndefined();
    expect(style.layers.some((l: { type: string }) => l.type === 'symbol')).toBe(false);
  });

  it('cuts a tile over Goričko with Slovenia, borders and the grid from the shipped data', async () => {
    // z8 tile containing 16.2E 46.8N: x = 139, y = 90.
    const res = await get('/basemap/tiles/8/139/90.pbf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    const tile = decode(res.rawPayload);
    expect(Object.keys(tile.layers).sort()).toEqual(['borders', 'grid', 'land']);
    const names = Array.from({ length: tile.layers.land!.length }, (_, i) => tile.layers.land!.feature(i).properties.name);
    expect(names).toContain('Slovenia');
    expect(names).toContain('Hungary');
  });

  it('answers an empty body for open sea and a world tile at z0', async () => {
    // z6 tile in the middle of the South Pacific.
    const sea = await get('/basemap/tiles/6/2/40.pbf');
    expect(sea.statusCode).toBe(200);
    expect(sea.rawPayload.length).toBe(0);
    const world = await get('/basemap/tiles/0/0/0.pbf');
    // Every country: 1:10m around Slovenia, 1:110m elsewhere.
    expect(decode(world.rawPayload).layers.land!.length).toBeGreaterThan(150);
  });

  it('rejects impossible tile coordinates with a clear 4xx', async () => {
    const outside = await get('/basemap/tiles/2/4/0.pbf');
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ status: 400, message: 'Bad Request' });
    expect(outside.json().detail).toContain('2/4/0');
    const notNumber = await get('/basemap/tiles/a/1/1.pbf');
    expect(notNumber.statusCode).toBe(400);
    const tooDeep = await get(`/basemap/tiles/${OWN_BASEMAP_MAX_ZOOM + 1}/0/0.pbf`);
    expect(tooDeep.statusCode).toBe(404);
    expect(tooDeep.json().message).toBe('Not Found');
  });
});
