/**
 * Home (seed §2 '/'). Placeholder until issue 7: the current season per area with its paths,
 * for editors and readers all farmers with search. The shell gives it the frame and quick links.
 */
import { sl } from '../../../common/i18n/sl';
import { EmptyState } from '../../components/empty-state/empty-state';
import { DownloadIcon, FlowerIcon, FormIcon, PathIcon, ResultsIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

const links = [
  { href: '#/paths', icon: PathIcon, label: sl.nav.paths, text: sl.screens.paths.lead },
  { href: '#/forms', icon: FormIcon, label: sl.nav.forms, text: sl.screens.forms.lead },
  { href: '#/results', icon: ResultsIcon, label: sl.nav.results, text: sl.screens.results.lead },
  { href: '#/download', icon: DownloadIcon, label: sl.header.download, text: sl.screens.download.lead },
];

export default function HomeScreen(_props: ScreenProps) {
  return (
    <Page title={sl.screens.home.title} lead={sl.screens.home.lead}>
      <EmptyState icon={FlowerIcon}>
        <p>{sl.screens.home.empty}</p>
      </EmptyState>
      <nav aria-label={sl.screens.home.quickLinks}>
        <ul className="tile-grid">
          {links.map(({ href, icon: Icon, label, text }) => (
            <li key={href}>
              <a className="tile" href={href}>
                <span className="tile__icon">
                  <Icon size={28} />
                </span>
                <span className="tile__label">{label}</span>
                <span className="tile__text">{text}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </Page>
  );
}
