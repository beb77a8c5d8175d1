/**
 * Content sniffing for uploads: the declared MIME type of a multipart part is only a claim, so the
 * first bytes of the file decide what it is. Only the types the app needs are allowed (photos of
 * indicators, PDFs, notes, GeoJSON and GPX tracks); anything else, or a file whose content does not
 * match its declared type, is refused with 415 by the caller.
 *
 * Hand-written rather than a dependency: the allow list is short and each signature is a fixed
 * prefix, so a table is easier to review than a general-purpose detector.
 */

/** Canonical MIME types the server stores. */
const ALLOWED_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'application/pdf',
  'text/plain',
  'application/json',
  'application/geo+json',
  'application/gpx+xml',
  'application/xml',
] as const;
export type AllowedMimeType = (typeof ALLOWED_MIME_TYPES)[number];

const IMAGE_MIME_TYPES: readonly AllowedMimeType[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** Names clients (phones, browsers, old tools) use for the same types. */
const ALIASES: Record<string, AllowedMimeType> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'text/json': 'application/json',
  'application/vnd.geo+json': 'application/geo+json',
  'application/gpx': 'application/gpx+xml',
  'text/xml': 'application/xml',
  'application/x-pdf': 'application/pdf',
};

/** Browsers send these when they do not know a type (often for .gpx/.geojson); the extension then names the claim. */
const UNKNOWN_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

const BY_EXTENSION: Record<string, AllowedMimeType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  json: 'application/json',
  geojson: 'application/geo+json',
  gpx: 'application/gpx+xml',
  xml: 'application/xml',
};

/** How many leading bytes `sniff` needs to see for the binary signatures. */
export const SNIFF_BYTES = 64;

/**
 * The canonical type a client claims for a part, or null when the claim is not on the allow list.
 * A missing/generic claim falls back to the file name's extension.
 */
export function declaredType(mimeType: string | undefined, fileName: string): AllowedMimeType | null {
  const bare = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (UNKNOWN_TYPES.has(bare)) {
    const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
    return (ext && BY_EXTENSION[ext]) || null;
  }
  if ((ALLOWED_MIME_TYPES as readonly string[]).includes(bare)) return bare as AllowedMimeType;
  return ALIASES[bare] ?? null;
}

function startsWith(bytes: Uint8Array, signature: number[] | string, offset = 0): boolean {
  const sig = typeof signature === 'string' ? Array.from(signature, (c) => c.charCodeAt(0)) : signature;
  if (bytes.length < offset + sig.length) return false;
  return sig.every((b, i) => bytes[offset + i] === b);
}

/** Binary formats recognised by their fixed signatures. */
export function sniffBinary(head: Uint8Array): AllowedMimeType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) return 'image/gif';
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return 'image/webp';
  if (startsWith(head, '%PDF-')) return 'application/pdf';
  return null;
}

/** Text is UTF-8 without NUL or other control bytes (tab, newline, carriage return, form feed excepted). */
function isText(content: Uint8Array): boolean {
  for (const byte of content) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) return false;
    if (byte === 0x7f) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

function textOf(content: Uint8Array): string {
  const text = new TextDecoder('utf-8').decode(content);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Checks that `content` really is `declared`. Binary types compare signatures; text types check
 * that the bytes are text and, for JSON/XML kinds, that they parse as such (a GeoJSON file must be
 * a JSON object with a `type`, a GPX file must have a <gpx> root).
 * Returns null when it matches, else a short reason naming what the content looks like.
 */
export function contentMismatch(declared: AllowedMimeType, content: Uint8Array): string | null {
  const binary = sniffBinary(content.subarray(0, SNIFF_BYTES));
  if (binary) return binary === declared ? null : `content is ${binary}, declared ${declared}`;
  if (declared.startsWith('image/') || declared === 'application/pdf') return `content is not ${declared}`;
  if (!isText(content)) return `content is binary, declared ${declared}`;
  const text = textOf(content).trim();
  switch (declared) {
    case 'text/plain':
      return null;
    case 'application/json':
    case 'application/geo+json': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return `content is not valid JSON, declared ${declared}`;
      }
      if (declared === 'application/geo+json') {
        const type = (parsed as { type?: unknown } | null)?.type;
        if (typeof parsed !== 'object' || parsed === null || typeof type !== 'string') return 'content is not a GeoJSON object';
      }
      return null;
    }
    case 'application/xml':
    case 'application/gpx+xml': {
      if (!text.startsWith('<')) return `content is not XML, declared ${declared}`;
      if (declared === 'application/gpx+xml' && !/<gpx[\s>]/.test(text)) return 'content has no <gpx> root';
      return null;
    }
    default:
      return `content is not ${declared}`;
  }
}

export function isImage(mimeType: string): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(mimeType);
}
