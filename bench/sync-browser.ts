/**
 * Offline database figures in Chromium, on its real IndexedDB with the real lib/db code:
 * - sync.dexie_bulk_10k_ms      10,000 outbox rows (+ their local rows) in one transaction
 * - sync.dexie_per_row_10k_ms   the same through saveEdit, one strict transaction per edit
 * - sync.offline_paths_10k_ms   reading 10,000 paths from Dexie, as the paths list opens offline
 * The entry (bench/browser/sync-bench-entry.ts) is bundled with webpack and served on loopback;
 * skipped with a message when /usr/bin/chromium is missing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH, launchChromium } from '../scripts/chromium';
import webpack from 'webpack';
import type { BenchIo } from './sync';

const COUNT = Number(process.env.SYNC_BENCH_EDITS ?? 10_000);

/** Builds bench pages' scripts in production mode, as the app is built: name → entry file, into outDir/<name>.js. */
export function bundle(outDir: string, entries: Record<string, string>): Promise<void> {
  const compiler = webpack({
    mode: 'production',
    target: 'web',
    entry: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, path.resolve(file)])),
    output: { path: outDir, filename: '[name].js' },
    resolve: { extensions: ['.ts', '.tsx', '.js'] },
    module: { rules: [{ test: /\.[jt]sx?$/, exclude: /node_modules/, use: { loader: 'babel-loader', options: { envName: 'browser' } } }] },
    performance: { hints: false },
  });
  return new Promise((resolve, reject) =>
    compiler.run((error, stats) => {
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats!.toString('errors-only')));
      else compiler.close(() => resolve());
    }),
  );
}

export async function syncBrowserFigures({ want, emit, log }: BenchIo): Promise<void> {
  const names = ['sync.dexie_bulk_10k_ms', 'sync.dexie_per_row_10k_ms', 'sync.offline_paths_10k_ms'];
  if (!names.some(want)) return;
  if (!existsSync(CHROMIUM_PATH)) {
    log(`Chromium not found at ${CHROMIUM_PATH}: sync.dexie_* figures skipped`);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'moj-travnik-bench-dexie-'));
  const server = http.createServer((request, response) => {
    if (request.url === '/bench.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(readFileSync(path.join(dir, 'bench.js')));
    } else {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><meta charset="utf-8"><script src="/bench.js"></script>');
    }
  });
  const browser = await (async () => {
    await bundle(dir, { bench: 'bench/browser/sync-bench-entry.ts' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return launchChromium();
  })();
  try {
    const address = server.address() as { port: number };
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${address.port}/`);
    await page.waitForFunction(() => 'syncBench' in window);
    const run = (fn: 'dexieBulk' | 'dexiePerRow' | 'offlinePaths') =>
      page.evaluate(([name, count]) => (window as unknown as { syncBench: Record<string, (n: number) => Promise<number>> }).syncBench[name]!(count), [
        fn,
        COUNT,
      ] as const);
    if (want(names[0]!)) emit(names[0]!, await run('dexieBulk'));
    if (want(names[1]!)) emit(names[1]!, await run('dexiePerRow'));
    if (want(names[2]!)) emit(names[2]!, await run('offlinePaths'));
    log(`dexie figures measured in Chromium with ${COUNT} rows`);
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
