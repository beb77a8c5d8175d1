/**
 * The product version (package.json), shown in config.json and the OpenAPI document. Read once
 * from the repository root, which is where `npm start` and the tests run the sources from.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached) return cached;
  try {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
    cached = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    cached = '0.0.0';
  }
  return cached;
}
