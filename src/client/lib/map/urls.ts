/** URL helpers shared by the map and the Download screen (no maplibre import: usable in tests). */

/** Absolute form of a possibly relative URL (MapLibre's workers cannot resolve relative ones). */
export function absoluteUrl(url: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  // URL() percent-encodes the braces of {z}/{x}/{y}; MapLibre needs them literal.
  return new URL(url, base).href.replace(/%7B/gi, '{').replace(/%7D/gi, '}');
}
