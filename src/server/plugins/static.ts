/**
 * Serves the built client (webpack output, dist/) with cache headers that keep an offline PWA
 * correct:
 * - content-hashed files (`main.1a2b3c4d5e.js`, `static/media/logo.….png`) never change under
 *   their name: cached for a year, `immutable`, without an ETag or Last-Modified;
 * - `index.html`, `sw.js` and every other unhashed file: `no-cache` (the browser revalidates with
 *   the ETag each time), so a new release is picked up on the next visit and the service worker's
 *   update check always sees the newest `sw.js` (config.json is a route and sets its own header);
 * - `sw.js` carries `Service-Worker-Allowed: /` so it may control the whole origin (its scope is /);
 * - text files are sent compressed when the browser accepts it: the build writes a brotli `.br` and
 *   a gzip `.gz` copy beside each (webpack.config.ts, PrecompressPlugin), sent with
 *   `Content-Encoding` and `Vary: Accept-Encoding` and the original's type. A copy older than its
 *   file (the file was changed after the build) is never sent for it.
 *
 * Unknown GETs outside /api fall back to index.html (the router is hash-based, but a reload of a
 * deep link or a stale bookmark must still open the app). Unknown files with an extension and
 * anything under /static/ answer 404 instead: answering a missing script with HTML would let the
 * service worker cache a page as code. /api/* never falls back; it gets the API's JSON 404.
 *
 * When dist/ has no index.html (the client was not built) every page answers 503 with a short
 * Slovenian page naming the command to run, instead of a bare 404. The check runs per request, so
 * `npm run build` while the server runs is enough.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { sl } from '../../common/i18n/sl';

export interface StaticOptions {
  /** Absolute path of the built client (dist/). */
  clientDir: string;
}

const HASHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/** webpack names hashed outputs `[name].[contenthash:10](.chunk)?.ext` (webpack.config.ts). */
const HASHED_FILE = /\.[0-9a-f]{8,32}(?:\.chunk)?\.[a-z0-9]+(?:\.map)?$/i;

function isHashedAsset(urlPath: string): boolean {
  return HASHED_FILE.test(urlPath);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function buildMissingPage(): string {
  const t = sl.server.buildMissing;
  return `<!doctype html>
<html lang="sl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(sl.common.appName)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1b2a1d}
code{background:#eef3ea;padding:.15rem .4rem;border-radius:4px;font-size:1.05em}</style></head>
<body><h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.body)}</p><p><code>npm run build</code></p>
<p>${escapeHtml(t.hint)}</p></body></html>`;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Whether a compressed copy (`.br`, `.gz`) of `file` is older than the file itself. */
async function hasStaleCopy(file: string): Promise<boolean> {
  const [original, br, gz] = await Promise.all([file, `${file}.br`, `${file}.gz`].map((f) => stat(f).catch(() => null)));
  return Boolean(original) && [br, gz].some((copy) => copy && copy.mtimeMs < original!.mtimeMs);
}

/** A request's path, %-decoded (null for a malformed escape). */
function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
}

/** The file a decoded path names, relative to dist/: normalised and kept inside it ("/../x" or encoded dots must not escape). */
function fileOf(urlPath: string): string {
  return path.posix
    .normalize(urlPath)
    .replace(/^(\.\.(\/|$))+/, '')
    .replace(/^\/+/, '');
}

/**
 * The file under dist/ a GET of `url` is served from, as the handler below resolves it (null for a
 * malformed escape): the security headers judge an answer by the file it sends.
 */
export function servedFile(url: string): string | null {
  const urlPath = decodedPath(url);
  return urlPath === null ? null : fileOf(urlPath);
}

function isApiPath(urlPath: string): boolean {
  return urlPath === '/api' || urlPath.startsWith('/api/');
}

export async function registerStatic(app: FastifyInstance, options: StaticOptions): Promise<void> {
  const root = path.resolve(options.clientDir);
  const indexFile = path.join(root, 'index.html');

  // serve: false — only the reply.sendFile decorator (safe path resolution, ETag, ranges); the
  // routing below decides what is served and with which headers.
  // preCompressed: sendFile picks `<file>.br` / `<file>.gz` by Accept-Encoding, else the file.
  await app.register(fastifyStatic, { root, serve: false, dotfiles: 'ignore', preCompressed: true });

  async function send(request: FastifyRequest, reply: FastifyReply, relative: string): Promise<FastifyReply> {
    const name = path.posix.basename(relative);
    if (await hasStaleCopy(path.join(root, relative))) delete request.headers['accept-encoding'];
    if (name === 'sw.js') reply.header('service-worker-allowed', '/');
    const hashed = isHashedAsset(relative);
    reply.header('cache-control', hashed ? HASHED_CACHE_CONTROL : NO_CACHE);
    // A hashed file is never revalidated under its name: its ETag and date would only add bytes.
    return reply.sendFile(relative, root, { cacheControl: false, etag: !hashed, lastModified: !hashed });
  }

  async function handler(request: FastifyRequest, reply: FastifyReply) {
    const urlPath = decodedPath(request.url);
    if (urlPath === null) return reply.callNotFound(); // malformed %-escape: no such file
    if (isApiPath(urlPath)) return reply.callNotFound();

    if (!(await isFile(indexFile))) {
      return (
        reply
          .code(503)
          .header('cache-control', NO_CACHE)
          // A page for the operator with its own inline style and no script at all.
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
          .type('text/html; charset=utf-8')
          .send(buildMissingPage())
      );
    }

    const relative = fileOf(urlPath);
    const candidate = path.join(root, relative);
    if (relative !== '' && !relative.split('/').some((part) => part.startsWith('.')) && candidate.startsWith(root + path.sep) && (await isFile(candidate))) {
      return send(request, reply, relative);
    }

    const hasExtension = /\.[a-z0-9]+$/i.test(path.posix.basename(relative));
    if (relative.startsWith('static/') || (hasExtension && relative !== 'index.html')) return reply.callNotFound();
    return send(request, reply, 'index.html');
  }

  app.get('/*', { schema: { hide: true }, logLevel: 'warn' }, handler);
  app.get('/', { schema: { hide: true }, logLevel: 'warn' }, handler);
}
