/**
 * The one query-string encoder (docs/architecture.md, Wire contract): arrays expand into repeated keys
 * (`tableIds=1&tableIds=2`), nested objects into bracketed keys (`extent[minX]=13.1`).
 * Undefined and null values are left out.
 */
export type QueryValue = string | number | boolean | null | undefined | QueryValue[] | { [key: string]: QueryValue };

export function encodeQuery(params: Record<string, QueryValue>): string {
  const parts: string[] = [];
  const add = (key: string, value: QueryValue): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) add(key, item);
    } else if (typeof value === 'object') {
      for (const [child, childValue] of Object.entries(value)) add(`${key}[${child}]`, childValue);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return parts.join('&');
}

/** `?a=1&b=2`, or '' when there is nothing to encode. */
export function withQuery(path: string, params: Record<string, QueryValue>): string {
  const query = encodeQuery(params);
  return query ? `${path}?${query}` : path;
}
