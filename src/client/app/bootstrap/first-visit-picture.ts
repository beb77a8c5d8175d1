/**
 * A first visit's home painted before the app's code has arrived: the picture the early reads
 * made from their answers (first-visit-home.ts) has no markup of the app's, so it is built here,
 * as home shows a picture (features/home/home-screen.tsx; test/client/screens/home-paths.test.tsx
 * holds the two to the same markup): the page's title, the season card, the meadows with their
 * paths, the status, score and progress in place but hidden, and the header's bar. Its links are
 * the app's: a path tapped before the app has started changes the address, and the app starts on
 * that path. React's first render replaces it with the screen built from the same picture.
 *
 * Only where the picture of the app's own markup is painted (home-picture.ts: the home address,
 * the signed-in user's picture, index.html's placeholder still there), and only for a picture
 * without that markup.
 */
import { formatDay } from '../../../common/format';
import { slHome } from '../../../common/i18n/sl-home';
import { PICTURE_BUSY_ATTRIBUTE, type HomeSnapshot } from '../../lib/home-snapshot';
import { routeHref } from '../../lib/links';
import { paintableHome } from './home-picture';
// The pure piece alone: the feature's index would bring the UI library into the first entry.
// eslint-disable-next-line no-restricted-imports
import { homeSeasonTitle } from '../../features/home/home-season';

type Child = Node | string | null;

function element(doc: Document, tag: string, attributes: Record<string, string>, ...children: Child[]): HTMLElement {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

/** An icon's place (its drawing comes with the app's render). */
function iconPlace(doc: Document, size: number): Element {
  const svg = doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
  for (const [name, value] of Object.entries({ width: String(size), height: String(size), class: 'icon', 'aria-hidden': 'true', focusable: 'false' }))
    svg.setAttribute(name, value);
  return svg;
}

/** Kept in place, not shown: what the picture does not know yet. */
const HIDDEN = { class: 'picture-stale', 'aria-hidden': 'true' };

function seasonCard(doc: Document, snapshot: HomeSnapshot): HTMLElement {
  const { season } = snapshot;
  const paths = snapshot.areas.reduce((count, area) => count + area.paths.length, 0);
  const progress = slHome.progress(0, paths);
  return element(
    doc,
    'div',
    { class: 'card season-card', 'data-testid': 'home-season' },
    element(doc, 'h2', {}, homeSeasonTitle(season)),
    season ? element(doc, 'p', {}, slHome.window(formatDay(season.from), formatDay(season.to))) : element(doc, 'p', {}, slHome.noSeason),
    season && paths ? element(doc, 'progress', { max: String(paths), value: '0', 'aria-label': progress, class: 'picture-stale' }) : null,
    season && paths ? element(doc, 'p', { class: 'muted picture-stale' }, progress) : null,
  );
}

function areaCard(doc: Document, area: HomeSnapshot['areas'][number]): HTMLElement {
  const rows = area.paths.map((path) =>
    element(
      doc,
      'li',
      {},
      element(
        doc,
        'a',
        { class: 'row-link', href: routeHref('path', { pathId: path.id }), 'data-testid': `home-path-${path.id}` },
        element(
          doc,
          'span',
          { class: 'row-link__main' },
          element(doc, 'span', { class: 'row-link__title' }, path.name),
          element(doc, 'span', { class: 'status-chip picture-stale', 'aria-hidden': 'true' }, slHome.notWalked),
        ),
        element(
          doc,
          'span',
          HIDDEN,
          element(doc, 'span', { class: 'score-badge score-badge--none score-badge--small', 'data-score-class': 'none' }, slHome.noScore),
        ),
        iconPlace(doc, 20),
      ),
    ),
  );
  return element(
    doc,
    'section',
    { class: 'card area-card', 'aria-labelledby': `area-${area.id}`, 'data-testid': `area-${area.id}` },
    element(doc, 'div', { class: 'area-card__head' }, element(doc, 'h3', { id: `area-${area.id}` }, area.name)),
    rows.length ? element(doc, 'ul', { class: 'row-list' }, ...rows) : element(doc, 'p', { class: 'muted' }, slHome.noPaths),
    area.newPathHref
      ? element(
          doc,
          'a',
          { class: 'btn btn--secondary btn--small btn--radius-medium', href: area.newPathHref },
          iconPlace(doc, 18),
          element(doc, 'span', { class: 'btn__text' }, slHome.newPath),
        )
      : null,
  );
}

/** Home's page as a picture without status shows it: the title, the season, the meadows. */
function firstVisitPage(doc: Document, snapshot: HomeSnapshot): HTMLElement {
  return element(
    doc,
    'section',
    { class: 'page' },
    element(
      doc,
      'div',
      { class: 'page__head' },
      element(doc, 'div', { class: 'page__titles' }, element(doc, 'h1', { class: 'page__title', tabindex: '-1', 'data-page-title': '' }, slHome.title)),
    ),
    element(
      doc,
      'div',
      {},
      element(
        doc,
        'div',
        { class: 'desk-layout__main', [PICTURE_BUSY_ATTRIBUTE]: '', 'aria-busy': 'true' },
        seasonCard(doc, snapshot),
        element(doc, 'h2', { class: 'section-title', tabindex: '-1' }, slHome.areas),
        ...snapshot.areas.map((area) => areaCard(doc, area)),
      ),
    ),
  );
}

/** Paints a first visit's home from its picture (see above); true when it did. */
export function paintFirstVisitHome(doc: Document, storage: Storage | null): boolean {
  const home = paintableHome(doc, storage);
  if (!home || home.snapshot.html || home.snapshot.areas.length === 0) return false;
  const shell = element(
    doc,
    'div',
    { class: 'app-shell' },
    // The header's bar keeps its place; its contents come with the app.
    element(doc, 'header', { class: 'app-header' }),
    element(doc, 'main', { id: 'main', class: 'app-main', tabindex: '-1' }, firstVisitPage(doc, home.snapshot)),
  );
  home.root.replaceChildren(shell);
  return true;
}
