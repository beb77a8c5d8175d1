/** Results (seed §2 '/results'). Placeholder until issue 7: scores per path, area and season. */
import { sl } from '../../../common/i18n/sl';
import { EmptyState } from '../../components/empty-state/empty-state';
import { ResultsIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function ResultsScreen(_props: ScreenProps) {
  return (
    <Page title={sl.screens.results.title} lead={sl.screens.results.lead}>
      <EmptyState icon={ResultsIcon}>
        <p>{sl.screens.results.empty}</p>
      </EmptyState>
    </Page>
  );
}
