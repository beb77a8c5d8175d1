/** Forms (seed §2 '/forms'). Placeholder until issue 7: the forms of this season's paths. */
import { sl } from '../../../common/i18n/sl';
import { EmptyState } from '../../components/empty-state/empty-state';
import { FormIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function FormsScreen(_props: ScreenProps) {
  return (
    <Page title={sl.screens.forms.title} lead={sl.screens.forms.lead}>
      <EmptyState icon={FormIcon}>
        <p>{sl.screens.forms.empty}</p>
      </EmptyState>
    </Page>
  );
}
