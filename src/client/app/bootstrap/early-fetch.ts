/**
 * The first entry the HTML runs (only the webpack runtime comes before it): it starts the early
 * reads (early-reads.ts), then loads the app's own scripts (app-scripts.ts), and gives the app the
 * fetch that hands the early answers to its first identical requests. The entries share one webpack
 * runtime, so this module runs once and main.tsx gets this same `earlyFetch`.
 */
import { formatDateTime, formatNumber } from '../../../common/format';
import { withEarlyAnswers } from '../../lib/api/early-answers';
import { safeLocalStorage } from '../../lib/local-storage';
import { onHomeSnapshotWritten } from '../../lib/home-snapshot';
import { loadAppScripts } from './app-scripts';
import { startEarlyReads } from './early-reads';
import { paintFirstVisitHome } from './first-visit-picture';

const pageFetch = window.fetch.bind(window);

export const earlyFetch = withEarlyAnswers(pageFetch);

/** The service worker serves this page: a later visit of the installed app, not the first. */
export const installedVisit = Boolean(navigator.serviceWorker?.controller);

// Only on a first visit: later visits show the device copy at once, and requests going through
// the worker would slow its answers of the scripts. The picture of home the early reads make is
// painted as soon as it is there, while the app's code still downloads (first-visit-picture.ts).
if (!installedVisit) {
  const stopPainting = onHomeSnapshotWritten(() => {
    stopPainting();
    paintFirstVisitHome(document, safeLocalStorage());
  });
  void startEarlyReads(pageFetch, safeLocalStorage(), Date.now, () =>
    typeof Worker === 'function' ? new Worker(new URL('./early-reads-worker.ts', import.meta.url), { name: 'early-reads' }) : null,
  );
}

// The app's own scripts, now that the season's first requests have left (app-scripts.ts).
loadAppScripts(document);

// Locale data loaded while the app's scripts download: home sorts its meadows and paths by
// Slovenian collation and shows times and numbers in Slovenian, and the first use of each loads
// tables of the browser's (in a first visit's trace, the longest pieces of the work before the
// paths' first frame). The formatters made here are the app's own (format.ts keeps them); the
// time zone's tables serve every zone-aware format, today's Slovenian day included.
setTimeout(() => {
  'a'.localeCompare('b', 'sl');
  formatDateTime(0);
  formatNumber(0);
}, 0);
