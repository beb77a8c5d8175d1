/**
 * The server side of src/common/query-string.ts: repeated keys become arrays
 * (`tableIds=1&tableIds=2`) and bracketed keys nested objects (`extent[minX]=13.1`). Route schemas
 * then coerce the strings to numbers and single values to arrays. Keys that could reach an
 * object's prototype are dropped.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_PAIRS = 1000;

type QueryObject = Record<string, unknown>;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // A malformed escape stays as sent; the schema then rejects the value if it matters.
    return text;
  }
}

function assign(target: QueryObject, key: string, value: string): void {
  const existing = target[key];
  if (existing === undefined) target[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else if (typeof existing === 'string') target[key] = [existing, value];
  // An object (bracketed keys) meeting a plain value of the same name: keep the object.
}

export function parseQueryString(query: string): QueryObject {
  const result: QueryObject = {};
  if (!query) return result;
  const pairs = query.split('&').slice(0, MAX_PAIRS);
  for (const pair of pairs) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    if (FORBIDDEN_KEYS.has(rawKey.split('[')[0] ?? '')) continue;
    // One level of brackets is all the encoder produces; deeper keys stay literal strings.
    const match = /^([^[\]]+)\[([^[\]]*)\]$/.exec(rawKey);
    if (match) {
      const [, outer, inner] = match as unknown as [string, string, string];
      if (FORBIDDEN_KEYS.has(outer) || FORBIDDEN_KEYS.has(inner)) continue;
      if (inner === '') {
        // `ids[]=1&ids[]=2`: the array form some encoders use.
        assign(result, outer, value);
        continue;
      }
      let nested = result[outer];
      if (typeof nested !== 'object' || nested === null || Array.isArray(nested)) {
        nested = {};
        result[outer] = nested;
      }
      assign(nested as QueryObject, inner, value);
    } else {
      if (FORBIDDEN_KEYS.has(rawKey)) continue;
      assign(result, rawKey, value);
    }
  }
  return result;
}
