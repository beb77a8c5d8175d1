/**
 * A fast, stable hash of the Redux state as the action log sees it.
 *
 * - Stable: object keys are taken in sorted order and values follow JSON's rules (undefined and
 *   functions dropped, non-finite numbers as null, Dates as ISO strings), so a state rebuilt from
 *   a JSON log hashes like the live one.
 * - Redaction-aware: secrets and binary content are hashed as the log keeps them (redact.ts), so
 *   a replay of a redacted log reaches the same hashes as the app did.
 * - Volatile parts excluded: redux-persist's `_persist` bookkeeping (present only when the store
 *   persists) and RTK Query's `api.config` (tab focus/online flags and a per-process middleware
 *   id) describe the environment, not what the app did.
 * - Fast: Redux state is immutable with structural sharing, so each object's hash is cached by
 *   identity (WeakMap); after an action only the changed path is hashed again.
 *
 * The hash is cyrb53 (53 bits, 14 hex digits): not cryptographic, which a QA comparison does not
 * need; collisions between two states of one session are out of practical reach.
 */
import { binarySize, isBinaryDescriptor, isBlob, isDataUrl, isSecretKey, redactSecretValue, redactText } from './redact';

/** Top-level paths left out of the hash (see the header). */
const VOLATILE_PATHS: ReadonlyArray<readonly string[]> = [['_persist'], ['api', 'config']];

function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Token for a value that JSON would drop (undefined, functions): the key is skipped. */
const SKIP = -1;

export class StateHasher {
  private cache = new WeakMap<object, number>();

  /** Hex hash of the state with the volatile paths removed. */
  hashState(state: unknown): string {
    return this.toHex(this.hashValue(withoutVolatile(state, this.stripped)));
  }

  /** Slices with a volatile part removed, per slice object: unchanged slices keep their hash. */
  private stripped = new WeakMap<object, object>();

  /** Hex hash of any value under the same rules (no volatile paths removed). */
  hash(value: unknown): string {
    return this.toHex(this.hashValue(value));
  }

  private toHex(n: number): string {
    return n.toString(16).padStart(14, '0');
  }

  private hashValue(value: unknown): number {
    switch (typeof value) {
      case 'string':
        if (value.startsWith('data:') && isDataUrl(value)) return cyrb53(`b:${binarySize(value)}`);
        return cyrb53(`s:${redactText(value)}`);
      case 'number':
        return cyrb53(Number.isFinite(value) ? `n:${value}` : 'z');
      case 'boolean':
        return cyrb53(value ? 't' : 'f');
      case 'bigint':
        return cyrb53(`s:${String(value)}`);
      case 'object':
        if (value === null) return cyrb53('z');
        return this.hashObject(value);
      default:
        return SKIP;
    }
  }

  private hashObject(value: object): number {
    const cached = this.cache.get(value);
    if (cached !== undefined) return cached;
    let result: number;
    if (isBlob(value) || value instanceof ArrayBuffer || ArrayBuffer.isView(value) || isBinaryDescriptor(value)) {
      result = cyrb53(`b:${binarySize(value)}`);
    } else if (value instanceof Date) {
      result = Number.isNaN(value.getTime()) ? cyrb53('z') : cyrb53(`s:${value.toISOString()}`);
    } else if (Array.isArray(value)) {
      const parts = value.map((item) => {
        const h = this.hashValue(item);
        return h === SKIP ? cyrb53('z') : h;
      });
      result = cyrb53(`a:${parts.join(',')}`);
    } else {
      const keys = Object.keys(value).sort();
      const parts: string[] = [];
      for (const key of keys) {
        const child = (value as Record<string, unknown>)[key];
        const h = isSecretKey(key) ? this.hashValue(redactSecretValue(child)) : this.hashValue(child);
        if (h !== SKIP) parts.push(`${key.length}:${key}=${h}`);
      }
      result = cyrb53(`o:${parts.join(',')}`);
    }
    // Frozen or not, Redux state objects are never changed in place; caching by identity is sound.
    this.cache.set(value, result);
    return result;
  }
}

function withoutVolatile(state: unknown, stripped: WeakMap<object, object>): unknown {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return state;
  const top: Record<string, unknown> = { ...(state as Record<string, unknown>) };
  for (const path of VOLATILE_PATHS) {
    if (path.length === 1) {
      delete top[path[0]!];
    } else if (path.length === 2) {
      const inner = top[path[0]!];
      if (typeof inner === 'object' && inner !== null && path[1]! in inner) {
        let copy = stripped.get(inner);
        if (!copy) {
          const made: Record<string, unknown> = { ...(inner as Record<string, unknown>) };
          delete made[path[1]!];
          copy = made;
          stripped.set(inner, copy);
        }
        top[path[0]!] = copy;
      }
    }
  }
  return top;
}
