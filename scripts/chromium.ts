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
  // Chromium 156 draws its reload button with WebUI and warms a renderer for it (and then for the
  // omnibox popup) with every new window: in a trace of a first visit that renderer's main thread
  // was busy for seconds, on a 2-core machine, beside the page measured. A headless window shows
  // no toolbar, so it is turned off.
  '--disable-features=WebUIReloadButton',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
