/**
 * What the action log may keep: a JSON-safe copy of any value with
 * - secrets removed: every value under a key like /token|password|secret|authorization/i (the
 *   auth slice's token, refresh/ID tokens, Authorization headers, basic credentials) becomes
 *   REDACTED, and bearer/basic header values or JWT-shaped strings inside any other string are
 *   cut out as well (an error detail quoting a header must not leak it);
 * - binary content replaced by a descriptor with its size and SHA-256 (photos as Blob/File,
 *   ArrayBuffer/typed arrays of attachment uploads, data: URLs), so a log never carries a
 *   farmer's photos yet a QA engineer can still tell two photos apart;
 * - everything else as JSON would keep it (functions and undefined dropped, Date → ISO string).
 *
 * The state hash (state-hash.ts) applies the same rules, so the state rebuilt from a redacted
 * log hashes like the state the app had.
 */
import { sha256Hex } from './sha256';
import { readBlobBytes } from '../../lib/file/read-blob';

export const REDACTED = '[redacted]';
const SECRET_KEY = /token|password|secret|authorization/i;
/** Bearer/Basic credentials and JWTs inside free text. */
const SECRET_IN_TEXT = /\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}|eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/** OAuth values in URLs (an OIDC callback's code, implicit-flow tokens, passwords in a query). */
const SECRET_IN_URL = /([?&#](?:code|access_token|id_token|refresh_token|token|password|session_state)=)[^&#\s"]+/gi;
const DATA_URL = /^data:([^;,]*)(;base64)?,/;
const MAX_DEPTH = 64;

type BinaryKind = 'blob' | 'arrayBuffer' | 'bytes' | 'dataUrl';

/** Stands in the log for binary content. */
export interface BinaryDescriptor {
  $binary: BinaryKind;
  size: number;
  mimeType?: string;
  /** Hex SHA-256 of the bytes; filled in asynchronously for Blobs. */
  sha256?: string;
}

export function isBinaryDescriptor(value: unknown): value is BinaryDescriptor {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BinaryDescriptor).$binary === 'string' &&
    typeof (value as BinaryDescriptor).size === 'number'
  );
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** The value kept for a secret: absent stays absent (so "signed in or not" is still visible). */
export function redactSecretValue(value: unknown): unknown {
  return value === null || value === undefined || value === '' ? value : REDACTED;
}

export function redactText(text: string): string {
  let out = text;
  // test() then replace(): most strings have neither, and test() allocates nothing.
  SECRET_IN_TEXT.lastIndex = 0;
  if (SECRET_IN_TEXT.test(out)) out = out.replace(SECRET_IN_TEXT, REDACTED);
  SECRET_IN_URL.lastIndex = 0;
  if (SECRET_IN_URL.test(out)) out = out.replace(SECRET_IN_URL, `$1${REDACTED}`);
  return out;
}

export function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

function isFormData(value: unknown): value is FormData {
  return typeof FormData !== 'undefined' && value instanceof FormData;
}

/** Size in bytes of a data: URL's content, without decoding it. */
function dataUrlInfo(text: string): { mimeType: string; size: number; header: number; base64: boolean } | null {
  const match = DATA_URL.exec(text);
  if (!match) return null;
  const header = match[0].length;
  const base64 = match[2] !== undefined;
  const payload = text.length - header;
  const padding = base64 ? (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0) : 0;
  return { mimeType: match[1] || 'text/plain', size: base64 ? Math.floor((payload * 3) / 4) - padding : payload, header, base64 };
}

export function isDataUrl(text: string): boolean {
  return text.startsWith('data:') && DATA_URL.test(text);
}

/** Size of any binary value (or descriptor), for the state hash. */
export function binarySize(value: unknown): number | null {
  if (isBinaryDescriptor(value)) return value.size;
  if (isBlob(value)) return value.size;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value === 'string' && value.startsWith('data:')) return dataUrlInfo(value)?.size ?? null;
  return null;
}

function bytesOf(value: ArrayBuffer | ArrayBufferView): Uint8Array {
  return value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

function describeDataUrl(text: string): BinaryDescriptor {
  const info = dataUrlInfo(text)!;
  const payload = text.slice(info.header);
  let bytes: Uint8Array;
  try {
    bytes = info.base64 ? Uint8Array.from(atob(payload), (c) => c.charCodeAt(0)) : new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    bytes = new TextEncoder().encode(payload);
  }
  // The size is the one binarySize() gives, so a descriptor and its data: URL hash alike.
  return { $binary: 'dataUrl', size: info.size, mimeType: info.mimeType, sha256: sha256Hex(bytes) };
}

export interface PendingBlob {
  descriptor: BinaryDescriptor;
  blob: Blob;
}

/** SHA-256 of Blobs already read (a Blob's bytes never change). */
const knownBlobHashes = new WeakMap<Blob, string>();

/**
 * Starts reading a Blob's hash now, so a descriptor made later (even synchronously, as the
 * unload stash does) has it. The recorder calls this for Blobs near the top of an action.
 */
export function hashBlobSoon(blob: Blob): void {
  if (knownBlobHashes.has(blob)) return;
  void readBlobBytes(blob).then(
    (bytes) => knownBlobHashes.set(blob, sha256Hex(new Uint8Array(bytes))),
    () => undefined,
  );
}

/**
 * Lists looked into for Blobs: up to a form's save (its indicators' edits and their photos), not a
 * server answer's thousands of rows.
 */
const BLOB_LIST_MAX = 100;

/**
 * Blobs within the first levels of a value (an action's payload or meta.arg: a form's save carries
 * its photos at `meta.arg.edits[i].data`), small lists only.
 */
export function shallowBlobs(value: unknown, depth = 5, out: Blob[] = []): Blob[] {
  if (typeof value !== 'object' || value === null || depth < 0) return out;
  if (isBlob(value)) {
    out.push(value);
    return out;
  }
  const children = Array.isArray(value) ? (value.length <= BLOB_LIST_MAX ? value : []) : Object.values(value as Record<string, unknown>).slice(0, 50);
  for (const child of children) shallowBlobs(child, depth - 1, out);
  return out;
}

/**
 * Synchronous redaction. Blobs cannot be read synchronously: their descriptors are listed in
 * `pending` (when given) for `fillBlobHashes`; without it they keep size and type only.
 */
export function redact(value: unknown, pending?: PendingBlob[]): unknown {
  const seen = new Set<object>();
  const visit = (v: unknown, depth: number): unknown => {
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'string') return isDataUrl(v) ? describeDataUrl(v) : redactText(v);
    if (typeof v === 'bigint') return String(v);
    if (typeof v !== 'object') return undefined; // functions, symbols, undefined
    if (depth > MAX_DEPTH) return '[depth]';
    if (seen.has(v)) return '[cycle]';
    if (isBlob(v)) {
      const descriptor: BinaryDescriptor = { $binary: 'blob', size: v.size, mimeType: v.type || 'application/octet-stream' };
      const known = knownBlobHashes.get(v);
      if (known) descriptor.sha256 = known;
      else pending?.push({ descriptor, blob: v });
      return descriptor;
    }
    if (v instanceof ArrayBuffer) return { $binary: 'arrayBuffer', size: v.byteLength, sha256: sha256Hex(bytesOf(v)) };
    if (ArrayBuffer.isView(v)) return { $binary: 'bytes', size: v.byteLength, sha256: sha256Hex(bytesOf(v)) };
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
    if (isBinaryDescriptor(v)) return { ...v };
    seen.add(v);
    try {
      if (isFormData(v)) {
        const entries: Array<[string, unknown]> = [];
        v.forEach((entry, key) => entries.push([key, isSecretKey(key) ? redactSecretValue(entry) : visit(entry, depth + 1)]));
        return { $formData: entries };
      }
      if (Array.isArray(v)) return v.map((item) => visit(item, depth + 1) ?? null);
      if (v instanceof Map) return visit(Object.fromEntries(v), depth + 1);
      if (v instanceof Set) return visit(Array.from(v), depth + 1);
      if (v instanceof Error) return { name: v.name, message: redactText(v.message) };
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v)) {
        const child = (v as Record<string, unknown>)[key];
        const kept = isSecretKey(key) ? redactSecretValue(child) : visit(child, depth + 1);
        if (kept !== undefined) out[key] = kept;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return visit(value, 0);
}

/** Reads each pending Blob and writes its SHA-256 into its descriptor. */
export async function fillBlobHashes(pending: PendingBlob[]): Promise<void> {
  for (const { descriptor, blob } of pending) {
    try {
      descriptor.sha256 = knownBlobHashes.get(blob) ?? sha256Hex(new Uint8Array(await readBlobBytes(blob)));
      knownBlobHashes.set(blob, descriptor.sha256);
    } catch {
      // An unreadable Blob (revoked, or a jsdom Blob without arrayBuffer): size and type remain.
    }
  }
}

/** Redaction including Blob hashes. */
export async function redactAsync(value: unknown): Promise<unknown> {
  const pending: PendingBlob[] = [];
  const out = redact(value, pending);
  await fillBlobHashes(pending);
  return out;
}
