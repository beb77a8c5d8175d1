/**
 * The main navigation: a bar at the thumb on phones, a row under the header on wider screens.
 * Four large targets (six for editors and readers, who also get the review queue with the count
 * of forms waiting for it, and the season set-up); the current one is marked with aria-current
 * and a bar, not by colour alone.
 */
import { sl, slReviewQueue, slSetup } from '../../../common/i18n/sl';
import { CommentInfoIcon, FormIcon, HomeIcon, MapIcon, PathIcon, ResultsIcon } from '../../components/icons/icons';
import type { Role } from '../router/guards';
import { routeHref } from '../../lib/links';

const items = [
  { href: routeHref('home'), match: (p: string) => p === '/', label: sl.nav.home, icon: HomeIcon },
  { href: routeHref('paths'), match: (p: string) => p.startsWith('/paths'), label: sl.nav.paths, icon: PathIcon },
  { href: routeHref('forms'), match: (p: string) => p.startsWith('/forms'), label: sl.nav.forms, icon: FormIcon },
  { href: routeHref('results'), match: (p: string) => p.startsWith('/results'), label: sl.nav.results, icon: ResultsIcon },
];

/** Farmers never see the set-up screens (their route guard blocks them too). */
const setupItem = { href: routeHref('setup'), match: (p: string) => p.startsWith('/setup'), label: slSetup.nav, icon: MapIcon };
/** The advisers' review queue ("Pregled"), with how many forms wait for it. */
const reviewItem = { href: routeHref('review'), match: (p: string) => p.startsWith('/review'), label: slReviewQueue.nav, icon: CommentInfoIcon };

export function MainNav({ currentPath, role = null, reviewCount = null }: { currentPath: string; role?: Role | null; reviewCount?: number | null }) {
  const shown = role === 'editor' || role === 'reader' ? [...items, reviewItem, setupItem] : items;
  return (
    <nav className="main-nav" aria-label={sl.nav.label}>
      <ul className="main-nav__list">
        {shown.map(({ href, match, label, icon: Icon }) => {
          const current = match(currentPath);
          return (
            <li key={href}>
              <a className={current ? 'main-nav__link main-nav__link--current' : 'main-nav__link'} href={href} aria-current={current ? 'page' : undefined}>
                <Icon size={24} />
                <span>{label}</span>
                {href === reviewItem.href && reviewCount !== null ? (
                  <>
                    <span className="main-nav__count" aria-hidden="true" data-testid="review-count">
                      {reviewCount}
                    </span>
                    <span className="visually-hidden">{`, ${slReviewQueue.waiting(reviewCount)}`}</span>
                  </>
                ) : null}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
