/**
 * The one way this project starts a browser: Debian's Chromium (`/usr/bin/chromium`, or
 * CHROMIUM_PATH) through playwright-core, headless, with WebGL on SwiftShader so MapLibre draws
 * without a GPU. Used by the browser tests (test/e2e/harness.ts), the map harness and the
 * benchmarks; no browser is ever downloaded.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
