/**
 * Uploaded file names are shown back to users and sent in Content-Disposition headers, never used
 * as paths on disk (storage keys are random). Still, a name must not carry path parts, control
 * characters or header-breaking quotes, and must stay a sane length. Slovenian letters (č, š, ž)
 * are kept: farmers name photos in their own language.
 */

const MAX_NAME_LENGTH = 200;
const FALLBACK_NAME = 'datoteka';

export function sanitizeFileName(raw: string | undefined, fallbackExtension?: string): string {
  let name = (raw ?? '').normalize('NFC');
  // Keep only the last path segment (both separators: Windows browsers send C:\fakepath\x.jpg).
  name = name.split(/[/\\]/).pop() ?? '';
  // Control characters, quotes and characters Windows forbids in file names.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  name = name.replace(/[\u0000-\u001f\u007f-\u009f"<>:|?*]/g, '_');
  // No leading dots (hidden files, "..") and no trailing dots/spaces (Windows strips them).
  name = name
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .replace(/\s+/g, ' ');
  if (name.length > MAX_NAME_LENGTH) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  if (name === '') name = fallbackExtension ? `${FALLBACK_NAME}.${fallbackExtension}` : FALLBACK_NAME;
  return name;
}

/** Content-Disposition value carrying a UTF-8 name (RFC 6266/5987) with an ASCII fallback. */
export function contentDisposition(name: string, disposition: 'inline' | 'attachment' = 'inline'): string {
  const ascii = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'application/json': 'json',
  'application/geo+json': 'geojson',
  'application/gpx+xml': 'gpx',
  'application/xml': 'xml',
};

export function extensionFor(mimeType: string): string | undefined {
  return EXTENSIONS[mimeType];
}
