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
  // Pages are composited in software; WebGL (the map) still draws on SwiftShader. Composited
  // through SwiftShader, every frame of an animation (a spinner) cost the GPU process's CPU: about
  // 8 s of it in a 10 s trace of a first visit, on the two cores the page and the server share.
  '--disable-gpu-compositing',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
