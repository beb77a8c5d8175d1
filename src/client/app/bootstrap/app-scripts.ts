/**
 * The app's own scripts (the `early` and `main` entries' files), which index.html lists instead
 * of loading them: the `reads` entry loads them once the season's first requests are on their
 * way (early-fetch.ts). Over a phone's line the app's 120 kB, asked for with the page, took the
 * line from those requests and their answers, from which a first visit's home is painted
 * (first-visit-picture.ts); asked for a moment later they arrive about as soon, the line having
 * been busy with the page's own first files meanwhile.
 */

/** The `<meta>` whose content lists the scripts, in order, separated by spaces (webpack.config.ts writes it). */
export const APP_SCRIPTS_META = 'app-scripts';

/** Adds the listed scripts to the page; they run in their order as they arrive (`async = false`). */
export function loadAppScripts(doc: Document): void {
  const listed = doc.querySelector(`meta[name="${APP_SCRIPTS_META}"]`)?.getAttribute('content') ?? '';
  for (const src of listed.split(' ').filter(Boolean)) {
    const script = doc.createElement('script');
    script.src = src;
    script.async = false;
    doc.body.append(script);
  }
}
