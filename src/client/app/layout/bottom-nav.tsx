/**
 * The main navigation: a bar at the thumb on phones, a row under the header on wider screens.
 * Four large targets; the current one is marked with aria-current and a bar, not by colour alone.
 */
import { sl } from '../../../common/i18n/sl';
import { FormIcon, HomeIcon, PathIcon, ResultsIcon } from '../../components/icons/icons';

const items = [
  { href: '#/', match: (p: string) => p === '/', label: sl.nav.home, icon: HomeIcon },
  { href: '#/paths', match: (p: string) => p.startsWith('/paths'), label: sl.nav.paths, icon: PathIcon },
  { href: '#/forms', match: (p: string) => p.startsWith('/forms'), label: sl.nav.forms, icon: FormIcon },
  { href: '#/results', match: (p: string) => p.startsWith('/results'), label: sl.nav.results, icon: ResultsIcon },
];

export function MainNav({ currentPath }: { currentPath: string }) {
  return (
    <nav className="main-nav" aria-label={sl.nav.label}>
      <ul className="main-nav__list">
        {items.map(({ href, match, label, icon: Icon }) => {
          const current = match(currentPath);
          return (
            <li key={href}>
              <a className={current ? 'main-nav__link main-nav__link--current' : 'main-nav__link'} href={href} aria-current={current ? 'page' : undefined}>
                <Icon size={24} />
                <span>{label}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
