/**
 * The built client served by the real app: cache headers that keep the PWA correct (hashed assets
 * immutable; index.html, sw.js and other unhashed files revalidated), Service-Worker-Allowed on
 * sw.js, the SPA fallback for deep links but never for /api or missing code files, no way out of
 * dist/, a clear page when the client has not been built, and the build's compressed copies sent
 * to browsers that accept them (never a copy older than its file).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildTestApp, TEST_USER_HEADER, USERS, type TestApp } from './helpers/build-test-app';
import { sl } from '../../src/common/i18n/sl';
import { rawGet } from './helpers/raw-get';

const INDEX = '<!doctype html><html lang="sl"><body><div id="root">Nalagam...</div></body></html>';
const HASHED = 'static/js/main.0123456789.js';
/** A chunk with the build's compressed copies beside it (webpack.config.ts, PrecompressPlugin). */
const BIG = 'static/js/route-home.0123456789.chunk.js';
const BIG_TEXT = `${'export const rows = [];\n'.repeat(400)}console.log("home");`;
/** A file changed after the build: its copies are older than it. */
const STALE = 'static/js/route-form.0123456789.chunk.js';

let root: string;
let t: TestApp;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mt-static-'));
  const dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'static/js'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
  writeFileSync(path.join(dist, HASHED), 'console.log("main");');
  writeFileSync(path.join(dist, 'manifest.webmanifest'), '{"name":"Moj travnik"}');
  writeFileSync(path.join(dist, '.env'), 'SECRET=1');
  for (const file of [BIG, STALE]) {
    writeFileSync(path.join(dist, file), BIG_TEXT);
    writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(BIG_TEXT));
    writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(BIG_TEXT));
  }
  writeFileSync(path.join(dist, STALE), `${BIG_TEXT}\nconsole.log("changed");`);
  const past = new Date(Date.now() - 60_000);
  for (const copy of [`${STALE}.br`, `${STALE}.gz`]) utimesSync(path.join(dist, copy), past, past);
  writeFileSync(path.join(root, 'outside.txt'), 'outside dist');
  t = await buildTestApp({ clientDir: dist, dataDir: root });
});

afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(`${t.origin}${url}`, { headers });

describe('static client', () => {
  it('serves index.html at / and /index.html, never cached without revalidation', async () => {
    for (const url of ['/', '/index.html']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('revalidates index.html with its ETag (304)', async () => {
    const first = await get('/index.html');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // fetch adds "cache-control: no-cache" to conditional requests unless told otherwise.
    const second = await get('/index.html', { 'if-none-match': etag!, 'cache-control': 'max-age=0' });
    expect(second.status).toBe(304);
  });

  it('serves sw.js uncached, as JavaScript, allowed to control the whole origin', async () => {
    const response = await get('/sw.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('service-worker-allowed')).toBe('/');
  });

  it('caches content-hashed assets for a year, immutable; unhashed files are revalidated', async () => {
    const hashed = await get(`/${HASHED}`);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Never revalidated under its name: no validators to send with each of a visit's scripts.
    expect(hashed.headers.get('etag')).toBeNull();
    expect(hashed.headers.get('last-modified')).toBeNull();
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(manifest.headers.get('service-worker-allowed')).toBeNull();
  });

  it('answers deep links with index.html (SPA fallback)', async () => {
    for (const url of ['/paths/10000005', '/download/new?x=1']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('answers 404 JSON, not the page, for /api paths and missing code or files', async () => {
    for (const url of ['/api/nope', '/api/Records/1/nope/nope/nope', '/static/js/main.ffffffffff.js', '/favicon.ico', '/static/unknown']) {
      // A signed-in caller: without credentials /api paths answer 401 before routing.
      const response = await get(url, { [TEST_USER_HEADER]: USERS.editor });
      expect({ url, status: response.status }).toEqual({ url, status: 404 });
      expect(await response.json()).toMatchObject({ status: 404, message: 'Not Found' });
    }
  });

  it('never serves files outside dist/ or dotfiles', async () => {
    for (const url of ['/../outside.txt', '/%2e%2e/outside.txt', '/static/..%2f..%2foutside.txt', '/.env', '/%2eenv']) {
      const response = await get(url);
      const text = await response.text();
      expect(text).not.toContain('outside dist');
      expect(text).not.toContain('SECRET');
    }
  });
});

describe('compressed static files', () => {
  it('sends the brotli copy to a browser that accepts br, with the type of the file and Vary', async () => {
    const response = await rawGet(`${t.origin}/${BIG}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body.length).toBeLessThan(BIG_TEXT.length / 4);
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(BIG_TEXT);
  });

  it('sends the gzip copy when only gzip is accepted, the file itself when nothing is', async () => {
    const gz = await rawGet(`${t.origin}/${BIG}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(BIG_TEXT);
    const plain = await rawGet(`${t.origin}/${BIG}`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(BIG_TEXT);
  });

  it('never sends a copy older than its file (the file changed after the build)', async () => {
    const response = await rawGet(`${t.origin}/${STALE}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toContain('changed');
  });
});

describe('client not built', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await buildTestApp({ clientDir: path.join(root, 'missing-dist'), dataDir: root });
  });
  afterAll(async () => bare.close());

  it('answers pages with 503 and a Slovenian page naming npm run build; the API still works', async () => {
    const response = await fetch(`${bare.origin}/`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain(sl.server.buildMissing.title);
    expect(html).toContain('npm run build');
    expect((await fetch(`${bare.origin}/paths/1`)).status).toBe(503);
    expect((await fetch(`${bare.origin}/api/Test`)).status).toBe(200);
    expect((await fetch(`${bare.origin}/config.json`)).status).toBe(200);
  });
});

describe('own base map', () => {
  it('is served with the site, without a token, at the style URL config.json names', async () => {
    const config = (await (await fetch(`${t.origin}/config.json`)).json()) as { basemaps: Array<{ style?: string }> };
    const style = await fetch(`${t.origin}${config.basemaps[0]!.style}`);
    expect(style.status).toBe(200);
    expect(((await style.json()) as { version: number }).version).toBe(8);
  });
});
