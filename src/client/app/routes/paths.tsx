/** Paths (seed §2 '/paths'). Placeholder until issue 7: the list of paths with area, length, last walk and score. */
import { sl } from '../../../common/i18n/sl';
import { EmptyState } from '../../components/empty-state/empty-state';
import { PathIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function PathsScreen(_props: ScreenProps) {
  return (
    <Page title={sl.screens.paths.title} lead={sl.screens.paths.lead}>
      <EmptyState icon={PathIcon}>
        <p>{sl.screens.paths.empty}</p>
      </EmptyState>
    </Page>
  );
}
