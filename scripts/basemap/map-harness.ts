/**
 * Serves the map preview page (preview-page.tsx, bundled with esbuild) and the own base map
 * routes on 127.0.0.1:<ephemeral>, and opens it in Debian's Chromium through playwright-core with
 * WebGL on SwiftShader (`--use-angle=swiftshader --enable-unsafe-swiftshader`). Used by `npm run map:preview` (screenshot)
 * and bench/map.ts (render time); the browser tests pass the fixture's Chromium instead
 * (`browser`), which the harness then neither launches nor closes. Loopback only; closes everything it opened.
 */
import { build } from 'esbuild';
import Fastify from 'fastify';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../chromium';
import { basemapRoutes } from '../../src/server/routes/basemap/index';
import { registerSecurityHeaders } from '../../src/server/plugins/security-headers';

export interface MapHarness {
  url: string;
  page: Page;
  browser: Browser;
  close(): Promise<void>;
}

export async function startMapHarness(viewport = { width: 900, height: 700 }, options: { browser?: Browser } = {}): Promise<MapHarness> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const outDir = await mkdtemp(path.join(tmpdir(), 'mt-map-'));
  await build({
    entryPoints: [path.join(here, 'preview-page.tsx')],
    bundle: true,
    outdir: outDir,
    format: 'esm',
    jsx: 'automatic',
    loader: { '.css': 'css' },
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    logLevel: 'error',
  });
  await writeFile(
    path.join(outDir, 'index.html'),
    '<!doctype html><html lang="sl"><head><meta charset="utf-8"><link rel="stylesheet" href="/preview-page.css"><link rel="stylesheet" href="/preview-shell.css"></head>' +
      '<body><div id="root"></div><script type="module" src="/preview-page.js"></script></body></html>',
  );
  await writeFile(path.join(outDir, 'preview-shell.css'), 'body{margin:0}');
  const app = Fastify();
  // The app's security headers, so the map runs under the policy the app has (no inline style or script).
  registerSecurityHeaders(app, {});
  await app.register(basemapRoutes);
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  app.get('/:file', async (request, reply) => {
    const file = path.basename((request.params as { file: string }).file || 'index.html');
    try {
      const body = await readFile(path.join(outDir, file));
      return reply.type(types[path.extname(file)] ?? 'application/octet-stream').send(body);
    } catch {
      return reply.code(404).send('not found');
    }
  });
  app.get('/', async (_request, reply) => reply.type('text/html').send(await readFile(path.join(outDir, 'index.html'))));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = options.browser ?? (await launchChromium());
  const page = await browser.newPage({ viewport });
  return {
    url,
    page,
    browser,
    async close() {
      if (options.browser) await page.context().close();
      else await browser.close();
      await app.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** Opens the preview with N paths and waits until the map is idle; returns the idle time (ms). */
export async function renderPaths(harness: MapHarness, paths: number, timeoutMs = 120_000): Promise<number> {
  const errors: string[] = [];
  harness.page.on('pageerror', (e) => errors.push(String(e)));
  await harness.page.goto(`${harness.url}/?paths=${paths}`);
  try {
    await harness.page.waitForFunction(() => window.__map?.idleMs != null, undefined, { timeout: timeoutMs, polling: 100 });
  } catch (error) {
    throw new Error(`map did not become idle: ${errors.join('; ') || String(error)}`);
  }
  return harness.page.evaluate(() => window.__map.idleMs!);
}
