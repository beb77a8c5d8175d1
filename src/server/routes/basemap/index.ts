/**
 * The own base map (docs/maps.md): GET /basemap/style.json and GET /basemap/tiles/{z}/{x}/{y}.pbf.
 * Public like the static client (no token needed: it is open geographic data), cacheable for a
 * day, and served from the process: no tile server, no internet. The tile index is built on the
 * first request (about a second) rather than at startup, so tests and a server that never shows a
 * map do not pay for it.
 */
import type { FastifyInstance } from 'fastify';
import { OWN_BASEMAP_MAX_ZOOM, OWN_BASEMAP_STYLE_PATH, OWN_BASEMAP_TILES_PATH, ownBaseMapStyle } from '../../../common/basemap';
import { errorBody } from '../../http/errors';
import { loadBaseMapTiles, type BaseMapTiles } from './basemap-data';

const BASEMAP_CACHE_CONTROL = 'public, max-age=86400';

const tileParams = {
  type: 'object',
  required: ['z', 'x', 'y'],
  properties: {
    z: { type: 'integer', minimum: 0, maximum: 22 },
    x: { type: 'integer', minimum: 0 },
    y: { type: 'integer', minimum: 0 },
  },
} as const;

export async function basemapRoutes(app: FastifyInstance): Promise<void> {
  let tiles: Promise<BaseMapTiles> | null = null;
  const getTiles = () => {
    tiles ??= loadBaseMapTiles().catch((error: unknown) => {
      tiles = null; // a failed build is retried by the next request
      throw error;
    });
    return tiles;
  };

  app.get(OWN_BASEMAP_STYLE_PATH, { schema: { hide: true } }, async (_request, reply) => {
    // The tile URL stays relative: the client resolves it against its own origin, which is right
    // behind any reverse proxy (the server cannot know the public host reliably).
    reply.header('cache-control', BASEMAP_CACHE_CONTROL);
    return ownBaseMapStyle(OWN_BASEMAP_TILES_PATH);
  });

  app.get<{ Params: { z: number; x: number; y: number } }>(
    '/basemap/tiles/:z/:x/:y.pbf',
    { schema: { hide: true, params: tileParams } },
    async (request, reply) => {
      const { z, x, y } = request.params;
      const n = 2 ** z;
      if (x >= n || y >= n) {
        return reply.code(400).send(errorBody(400, `tile ${z}/${x}/${y} does not exist: x and y must be below ${n} at zoom ${z}`));
      }
      if (z > OWN_BASEMAP_MAX_ZOOM) {
        // MapLibre over-zooms beyond maxzoom and never asks; a direct request gets a clear 404.
        return reply.code(404).send(errorBody(404, `the base map has tiles up to zoom ${OWN_BASEMAP_MAX_ZOOM}`));
      }
      const body = (await getTiles()).tile(z, x, y);
      reply.header('cache-control', BASEMAP_CACHE_CONTROL).type('application/x-protobuf');
      return reply.send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    },
  );
}
