/**
 * The upload checks on their own (the routes are covered in attachments.test.ts and
 * full.test.ts): content sniffing against the declared type, file-name sanitising, the pixel bound
 * and thumbnails, and the disk storage's key discipline.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { contentMismatch, declaredType } from '../../src/server/attachments/sniff';
import { contentDisposition, sanitizeFileName } from '../../src/server/attachments/file-name';
import { ImageError, inspectImage, makeThumbnail } from '../../src/server/attachments/images';
import { LocalDiskStorage, newStorageKey, thumbKey } from '../../src/server/attachments/storage';
import { checkFile } from '../../src/server/attachments/upload';
import { DEFAULT_LIMITS } from '../../src/server/env';
import { HttpError } from '../../src/server/http/errors';
import { jpegImage, pixelFloodPng, pngImage } from '../fixtures/uploads';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('declared type', () => {
  it('canonicalises aliases and falls back to the extension only for generic claims', () => {
    expect(declaredType('image/jpg', 'a.jpg')).toBe('image/jpeg');
    expect(declaredType('IMAGE/PNG; charset=binary', 'a')).toBe('image/png');
    expect(declaredType('application/octet-stream', 'pot.gpx')).toBe('application/gpx+xml');
    expect(declaredType('', 'meje.geojson')).toBe('application/geo+json');
    expect(declaredType('application/octet-stream', 'program.exe')).toBeNull();
    expect(declaredType('application/x-msdownload', 'slika.jpg')).toBeNull();
    expect(declaredType('text/html', 'a.txt')).toBeNull();
  });
});

describe('content sniffing', () => {
  it('accepts content that matches its declared type', async () => {
    expect(contentMismatch('image/jpeg', await jpegImage())).toBeNull();
    expect(contentMismatch('image/png', await pngImage())).toBeNull();
    expect(contentMismatch('application/pdf', bytes('%PDF-1.7\n…'))).toBeNull();
    expect(contentMismatch('text/plain', bytes('Opažena kukavičja lučca.\n'))).toBeNull();
    expect(contentMismatch('application/geo+json', bytes('{"type":"Point","coordinates":[16.2,46.8]}'))).toBeNull();
    expect(contentMismatch('application/gpx+xml', bytes('<?xml version="1.0"?>\n<gpx version="1.1"><trk/></gpx>'))).toBeNull();
  });

  it('refuses content that does not match', async () => {
    expect(contentMismatch('image/jpeg', await pngImage())).toMatch(/image\/png/);
    expect(contentMismatch('image/png', bytes('not an image'))).toMatch(/not image\/png/);
    expect(contentMismatch('text/plain', await jpegImage())).toMatch(/image\/jpeg/);
    expect(contentMismatch('text/plain', new Uint8Array([0x4d, 0x5a, 0x00, 0x01]))).toMatch(/binary/);
    expect(contentMismatch('application/json', bytes('{"a":'))).toMatch(/not valid JSON/);
    expect(contentMismatch('application/geo+json', bytes('[1,2]'))).toMatch(/GeoJSON/);
    expect(contentMismatch('application/gpx+xml', bytes('<kml></kml>'))).toMatch(/<gpx>/);
  });
});

describe('file names', () => {
  it('keeps the last path segment and Slovenian letters, drops dangerous characters', () => {
    expect(sanitizeFileName('C:\\fakepath\\Čebelji travnik.jpg')).toBe('Čebelji travnik.jpg');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('a"b<c>\u0000d.txt')).toBe('a_b_c__d.txt');
    expect(sanitizeFileName('...')).toBe('datoteka');
    expect(sanitizeFileName('', 'jpg')).toBe('datoteka.jpg');
    const long = sanitizeFileName(`${'ž'.repeat(400)}.jpeg`);
    expect(long.length).toBe(200);
    expect(long.endsWith('.jpeg')).toBe(true);
  });

  it('builds a Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('Košnja "1".jpg')).toBe(`inline; filename="Kosnja _1_.jpg"; filename*=UTF-8''Ko%C5%A1nja%20%221%22.jpg`);
  });
});

describe('images', () => {
  it('bounds the pixel count before decoding (pixel flood)', async () => {
    const flood = await pixelFloodPng();
    expect(flood.length).toBeLessThan(1024);
    await expect(inspectImage(flood, DEFAULT_LIMITS.maxImagePixels)).rejects.toMatchObject({ kind: 'too-large' });
    await expect(inspectImage(await jpegImage(100, 100), 100 * 100)).resolves.toEqual({ width: 100, height: 100 });
    await expect(inspectImage(await jpegImage(101, 100), 100 * 100)).rejects.toBeInstanceOf(ImageError);
  });

  it('makes a bounded JPEG thumbnail and never enlarges', async () => {
    const thumb = await makeThumbnail(await pngImage(1200, 600), 320, DEFAULT_LIMITS.maxImagePixels);
    const meta = await sharp(thumb).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([320, 160]);
    const small = await sharp(await makeThumbnail(await jpegImage(40, 30), 320, DEFAULT_LIMITS.maxImagePixels)).metadata();
    expect([small.width, small.height]).toEqual([40, 30]);
  });
});

describe('checkFile', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mt-check-'));
  const received = (name: string, declared: string, content: Buffer) => {
    const tempPath = path.join(dir, `${Math.random()}.upload`);
    writeFileSync(tempPath, content);
    return { fieldName: 'file', name, declaredMimeType: declared, size: content.length, tempPath, sha256: '' };
  };

  it('answers 415 for a mismatch, 413 for a pixel flood, and narrows to the slot types', async () => {
    await expect(checkFile(received('a.jpg', 'image/jpeg', Buffer.from('GIF89a....')), DEFAULT_LIMITS)).rejects.toMatchObject({ statusCode: 415 });
    await expect(checkFile(received('a.png', 'image/png', await pixelFloodPng()), DEFAULT_LIMITS)).rejects.toMatchObject({ statusCode: 413 });
    await expect(checkFile(received('a.txt', 'text/plain', Buffer.from('zapis')), DEFAULT_LIMITS, ['image/jpeg'])).rejects.toBeInstanceOf(HttpError);
    const ok = await checkFile(received('travnik', 'image/jpg', await jpegImage()), DEFAULT_LIMITS, ['image/jpeg']);
    expect(ok).toMatchObject({ name: 'travnik.jpg', mimeType: 'image/jpeg' });
    expect(ok.thumbnail?.length).toBeGreaterThan(0);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('local disk storage', () => {
  it('stores under random keys, refuses keys that are not its own, and removes idempotently', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mt-storage-'));
    const storage = new LocalDiskStorage(root);
    const key = newStorageKey();
    await storage.put(key, { bytes: bytes('vsebina') });
    await storage.put(thumbKey(key), { bytes: bytes('sličica') });
    const got = await storage.get(key);
    expect(got?.size).toBe(7);
    got?.stream.destroy();
    await expect(storage.put('../escape', { bytes: bytes('x') })).rejects.toThrow(/invalid storage key/);
    await storage.remove(key);
    await storage.remove(key);
    await storage.remove(thumbKey(key));
    expect(await storage.get(key)).toBeNull();
    // No temp (.part) files are left behind.
    expect(readdirSync(path.join(root, key.slice(0, 2)))).toEqual([]);
    rmSync(root, { recursive: true, force: true });
  });
});
