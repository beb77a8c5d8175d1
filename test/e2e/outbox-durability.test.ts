/**
 * An edit reported saved survives the page being closed at once (docs/architecture.md, Sync rules): lib/db's saveEdit
 * on Chromium's real IndexedDB (strict durability), the page closed the moment the promise
 * resolved, then reopened. No server is involved: this is about the browser's storage.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import http from 'node:http';
import path from 'node:path';
import { describeApp } from './fixture';
import { ROOT } from './harness';

let server: http.Server;
let origin: string;

/** lib/db for the page, bundled in memory by esbuild (as the chaos run bundles its page script). */
async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(ROOT, 'test/e2e/outbox-entry.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describeApp('outbox durability (Chromium)', { builtApp: false, server: false }, (e2e) => {
  beforeAll(async () => {
    const script = await bundle();
    server = http.createServer((request, response) => {
      if (request.url === '/outbox.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        response.end(script);
      } else {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<!doctype html><meta charset="utf-8"><title>outbox</title><script src="/outbox.js"></script>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }, 120_000);

  afterAll(() => {
    server?.close();
  });

  it('keeps an edit queued when the page closes right after it was saved', async () => {
    const context = await e2e.browser.newContext();
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
