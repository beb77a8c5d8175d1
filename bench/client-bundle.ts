/**
 * Client bundle figures, from the production build in dist/ (run `npm run build` first):
 * - client.initial_js_gz_kb        the JavaScript index.html loads before any lazy chunk, gzipped
 * - client.chunk_<name>_gz_kb      each lazy chunk (route screens, workbox-window, the map …), gzipped
 * - client.precache_kb             what the service worker precaches at install (uncompressed)
 * The map library must never be in the initial JavaScript: the run fails if it is.
 *
 * `npx tsx bench/client-bundle.ts [PREFIX]` prints one JSON line per figure; bench/run.ts can call
 * `clientBundleFigures()` and emit the same lines.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export interface Figure {
  name: string;
  value: number;
  unit: 'kB';
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

export function clientBundleFigures(distDir: string): Figure[] {
  const indexPath = path.join(distDir, 'index.html');
  if (!existsSync(indexPath)) throw new Error(`${indexPath} is missing: run npm run build first`);
  const html = readFileSync(indexPath, 'utf8');
  // The minified HTML drops attribute quotes.
  const initial = [...html.matchAll(/<script[^>]*\ssrc=["']?\/?([^"'\s>]+\.js)/g)].map((m) => m[1]!);
  if (initial.length === 0) throw new Error('index.html loads no script');

  let initialBytes = 0;
  for (const rel of initial) {
    const file = path.join(distDir, rel);
    const text = readFileSync(file, 'utf8');
    if (/maplibre-gl|mapbox-gl-draw/i.test(text)) {
      throw new Error(`the map library is in the initial JavaScript (${rel}); it must load lazily`);
    }
    initialBytes += gz(file);
  }
  const figures: Figure[] = [{ name: 'client.initial_js_gz_kb', value: kb(initialBytes), unit: 'kB' }];

  const jsDir = path.join(distDir, 'static', 'js');
  for (const file of readdirSync(jsDir).sort()) {
    const m = /^(.+?)\.[0-9a-f]{10}\.chunk\.js$/.exec(file);
    if (!m) continue;
    const name = m[1]!.replace(/[^A-Za-z0-9]+/g, '_');
    figures.push({ name: `client.chunk_${name}_gz_kb`, value: kb(gz(path.join(jsDir, file))), unit: 'kB' });
  }

  const sw = readFileSync(path.join(distDir, 'sw.js'), 'utf8');
  // Entries look like {'revision':…,'url':'/index.html'} (quote style varies with the minifier).
  const urls = [...sw.matchAll(/["']?url["']?:\s*["']\/?([^"']+)["']/g)].map((m) => m[1]!);
  const precacheBytes = urls.reduce((sum, rel) => {
    const file = path.join(distDir, rel);
    return existsSync(file) ? sum + readFileSync(file).length : sum;
  }, 0);
  figures.push({ name: 'client.precache_kb', value: kb(precacheBytes), unit: 'kB' });
  return figures;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const prefix = process.argv[2] ?? '';
  const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  for (const figure of clientBundleFigures(dist)) {
    if (figure.name.startsWith(prefix)) process.stdout.write(`${JSON.stringify(figure)}\n`);
  }
}
