/**
 * Screenshot of the map with the own offline base map: `npx tsx scripts/basemap/preview.ts
 * [out.png] [paths]`. Lets a person look at what the map shows: a screenshot is looked at, not only measured.
 */
import { renderPaths, startMapHarness } from './map-harness';

const out = process.argv[2] ?? 'map-preview.png';
const paths = Number(process.argv[3] ?? 6);
const harness = await startMapHarness();
try {
  const ms = await renderPaths(harness, paths);
  await harness.page.waitForTimeout(300);
  await harness.page.screenshot({ path: out });
  console.log(JSON.stringify({ screenshot: out, paths, idleMs: Math.round(ms) }));
} finally {
  await harness.close();
}
