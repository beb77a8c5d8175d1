/**
 * An edit reported saved survives the page being closed at once (docs/architecture.md, Sync rules): lib/db's saveEdit
 * on Chromium's real IndexedDB (strict durability), the page closed the moment the promise
 * resolved, then reopened. No server is involved: this is about the browser's storage.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import webpack from 'webpack';
import type { Browser } from 'playwright-core';
import { describeE2E, launchBrowser, ROOT } from './harness';

let dir: string;
let server: http.Server;
let origin: string;
let browser: Browser;

async function bundle(outDir: string): Promise<void> {
  const compiler = webpack({
    mode: 'development',
    devtool: false,
    target: 'web',
    entry: path.join(ROOT, 'test/e2e/outbox-entry.ts'),
    output: { path: outDir, filename: 'outbox.js' },
    resolve: { extensions: ['.ts', '.tsx', '.js'] },
    module: { rules: [{ test: /\.[jt]sx?$/, exclude: /node_modules/, use: { loader: 'babel-loader', options: { envName: 'browser' } } }] },
  });
  await new Promise<void>((resolve, reject) =>
    compiler.run((error, stats) => {
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats!.toString('errors-only')));
      else compiler.close(() => resolve());
    }),
  );
}

describeE2E('outbox durability (Chromium)', () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'travnik-outbox-e2e-'));
    await bundle(dir);
    server = http.createServer((request, response) => {
      if (request.url === '/outbox.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        response.end(readFileSync(path.join(dir, 'outbox.js')));
      } else {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><meta charset="utf-8"><title>outbox</title><script src="/outbox.js"></script>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps an edit queued when the page closes right after it was saved', async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await first.goto(origin);
    await first.waitForFunction(() => 'outbox' in window);
    const opId = await first.evaluate(() => (window as unknown as { outbox: { save(n: string): Promise<string> } }).outbox.save('zapisano tik pred zaprtjem'));
    await first.close({ runBeforeUnload: false });

    const second = await context.newPage();
    await second.goto(origin);
    await second.waitForFunction(() => 'outbox' in window);
    const items = await second.evaluate(() => (window as unknown as { outbox: { items(): Promise<unknown[]> } }).outbox.items());
    expect(items).toEqual([{ opId, note: 'zapisano tik pred zaprtjem', status: 'pending' }]);
    const rows = await second.evaluate(() => (window as unknown as { outbox: { rows(): Promise<unknown[]> } }).outbox.rows());
    expect(rows).toEqual([{ isInsert: 1, note: 'zapisano tik pred zaprtjem' }]);
    await context.close();
  }, 60_000);
});
