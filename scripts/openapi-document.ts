/**
 * Writes the API's OpenAPI document, as GET /api/openapi.json serves it, to the file named by
 * the first argument: `npm run lint` checks it with Redocly's recommended rules (redocly.yaml).
 * The app is built on an in-memory database with no data; nothing listens.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: tsx scripts/openapi-document.ts <output.json>');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'moj-travnik-openapi-'));
  try {
    const app = await buildApp({ database: ':memory:', dataDir, demo: false });
    await app.ready();
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(app.swagger(), null, 2));
    await app.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
