/** URL helpers shared by the map and the Download screen (no maplibre import: usable in tests). */
import type { StyleSpecification } from 'maplibre-gl';

/** Tile URLs of base map styles are rewritten to this custom protocol (offline-tiles.ts). */
export const OFFLINE_PROTOCOL = 'mtoffline';
const PREFIX = `${OFFLINE_PROTOCOL}://`;

/** Absolute form of a possibly relative URL (MapLibre's workers cannot resolve relative ones). */
export function absoluteUrl(url: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  // URL() percent-encodes the braces of {z}/{x}/{y}; MapLibre needs them literal.
  return new URL(url, base).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
}

/** Rewrites every tile template of a style to go through the offline protocol. */
export function withOfflineTiles(style: StyleSpecification, base?: string): StyleSpecification {
  const sources: StyleSpecification['sources'] = {};
  for (const [id, source] of Object.entries(style.sources)) {
    if ('tiles' in source && Array.isArray(source.tiles)) {
      sources[id] = { ...source, tiles: source.tiles.map((t) => PREFIX + absoluteUrl(t, base)) } as typeof source;
    } else {
      sources[id] = source;
    }
  }
  return { ...style, sources };
}
