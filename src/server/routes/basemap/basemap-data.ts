/**
 * Builds the own base map's vector tile index from data shipped in npm packages (no download at
 * build or run time): Natural Earth countries from `world-atlas` (TopoJSON → GeoJSON with
 * topojson-client) as layer `land` — at 1:10m for the countries around Slovenia (DETAIL_EXTENT),
 * at 1:110m for the rest of the world, which only a zoomed-out view shows (this keeps the index
 * at a fraction of the memory and build time of the whole world at 1:10m) — the shared borders
 * as layer `borders`, and a generated grid
 * over Slovenia (0.1° major, 0.01° minor lines) as layer `grid`, so a meadow-scale view still
 * shows where north is and how far things are. geojson-vt cuts tiles on demand and caches them.
 */
import { GeoJSONVT, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { Feature, FeatureCollection, LineString, MultiLineString } from 'geojson';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { OWN_BASEMAP_MAX_ZOOM } from '../../../common/basemap';

/** Grid extent: Slovenia with a margin (13.3–16.7 E, 45.4–46.9 N). */
const GRID_EXTENT = { minX: 13.3, minY: 45.4, maxX: 16.7, maxY: 46.9 } as const;

export interface BaseMapTiles {
  /** The tile as an MVT protobuf; an empty buffer where there is nothing (e.g. open sea). */
  tile(z: number, x: number, y: number): Uint8Array;
}

function gridLines(): Feature<LineString, { major: boolean }>[] {
  const lines: Feature<LineString, { major: boolean }>[] = [];
  const { minX, minY, maxX, maxY } = GRID_EXTENT;
  // Integer hundredths avoid floating-point drift in the loop.
  for (let i = Math.ceil(minX * 100); i <= Math.floor(maxX * 100); i += 1) {
    lines.push({
      type: 'Feature',
      properties: { major: i % 10 === 0 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [i / 100, minY],
          [i / 100, maxY],
        ],
      },
    });
  }
  for (let j = Math.ceil(minY * 100); j <= Math.floor(maxY * 100); j += 1) {
    lines.push({
      type: 'Feature',
      properties: { major: j % 10 === 0 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [minX, j / 100],
          [maxX, j / 100],
        ],
      },
    });
  }
  return lines;
}

/** Countries with any part in this box get 1:10m detail (Central Europe and the Balkans). */
const DETAIL_EXTENT = { minX: 5, minY: 40, maxX: 28, maxY: 52 } as const;

function touchesDetail(f: Feature): boolean {
  let hit = false;
  const visit = (c: unknown): void => {
    if (hit || !Array.isArray(c)) return;
    if (typeof c[0] === 'number') {
      const [x, y] = c as [number, number];
      hit = x >= DETAIL_EXTENT.minX && x <= DETAIL_EXTENT.maxX && y >= DETAIL_EXTENT.minY && y <= DETAIL_EXTENT.maxY;
      return;
    }
    c.forEach(visit);
  };
  visit((f.geometry as { coordinates?: unknown } | null)?.coordinates);
  return hit;
}

async function readTopology(file: string): Promise<Topology> {
  const require = createRequire(import.meta.url);
  return JSON.parse(await readFile(require.resolve(`world-atlas/${file}`), 'utf8')) as Topology;
}

export async function loadBaseMapTiles(): Promise<BaseMapTiles> {
  const fine = await readTopology('countries-10m.json');
  const coarse = await readTopology('countries-110m.json');
  const fineCountries = fine.objects.countries as GeometryCollection<{ name: string }>;
  const detailed = (feature(fine, fineCountries) as FeatureCollection).features.filter(touchesDetail);
  const detailedNames = new Set(detailed.map((f) => (f.properties as { name: string }).name));
  const rest = (feature(coarse, coarse.objects.countries as GeometryCollection<{ name: string }>) as FeatureCollection).features.filter(
    (f) => !detailedNames.has((f.properties as { name: string }).name),
  );
  const land: FeatureCollection = { type: 'FeatureCollection', features: [...detailed, ...rest] };
  const detailedGeometries = fineCountries.geometries.filter((g) => detailedNames.has((g.properties as { name?: string } | undefined)?.name ?? ''));
  const borders: MultiLineString = mesh(fine, { type: 'GeometryCollection', geometries: detailedGeometries }, (a, b) => a !== b);
  const options = { maxZoom: OWN_BASEMAP_MAX_ZOOM, indexMaxZoom: 4, tolerance: 3, extent: 4096, buffer: 64 };
  const indexes: Record<string, GeoJSONVT> = {
    land: new GeoJSONVT(land, options),
    borders: new GeoJSONVT({ type: 'Feature', properties: {}, geometry: borders }, options),
    grid: new GeoJSONVT({ type: 'FeatureCollection', features: gridLines() }, options),
  };
  return {
    tile(z, x, y) {
      const layers: Record<string, GeoJSONVTTile> = {};
      for (const [name, index] of Object.entries(indexes)) {
        const t = index.getTile(z, x, y);
        if (t && t.features.length > 0) layers[name] = t;
      }
      if (Object.keys(layers).length === 0) return new Uint8Array(0);
      return fromGeojsonVt(layers, { version: 2, extent: 4096 });
    },
  };
}
