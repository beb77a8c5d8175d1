/**
 * The one way this project starts a browser: Debian's Chromium (`/usr/bin/chromium`, or
 * CHROMIUM_PATH) through playwright-core, headless, with WebGL on SwiftShader so MapLibre draws
 * without a GPU. Used by the browser tests (test/e2e/harness.ts), the map harness and the
 * benchmarks; no browser is ever downloaded.
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The features a Playwright launch turns off (playwright-core's own `--disable-features`), named
 * again here: Chromium keeps only the last `--disable-features` of its command line, so ours
 * carries Playwright's too. test/e2e/browser-flags.test.ts checks that a launch keeps every
 * feature a plain Playwright launch turns off (chrome://version, "Command-line Variations").
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AimEnabled',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsFirstBalancedModeAutoEnable',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'NetworkTimeServiceQuerying',
  'OptimizationHints',
  'PaintHolding',
  'PreconnectToSearch',
  'TcpPortRandomizationWin',
  'ThirdPartyStoragePartitioning',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'msForceBrowserSignIn',
];

/**
 * Chromium 156 opens the address bar's drop-down (a WebUI page with ≈ 200 scripts of its own) in a
 * renderer of its own for every new window, headless too: about 2 s of CPU per browser context,
 * traced during a first visit, beside the page on the same two cores.
 */
export const OWN_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

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
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OWN_DISABLED_FEATURES].join(',')}`,
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
