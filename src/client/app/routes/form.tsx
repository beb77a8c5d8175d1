/**
 * One form (seed §2 '/forms/{formId}'). Placeholder until issue 7: the checklist of indicators
 * with pictures, photos, location, live score and the unsaved-changes guard.
 */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { BackIcon, FormIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function FormScreen({ params }: ScreenProps) {
  return (
    <Page
      title={`${sl.screens.form.title} ${params.formId ?? ''}`.trim()}
      lead={sl.screens.form.lead}
      back={<Button href="#/forms" kind="ghost" icon={BackIcon} text={sl.nav.forms} />}
    >
      <dl className="facts">
        <dt>{sl.screens.form.idLabel}</dt>
        <dd data-testid="form-id">{params.formId}</dd>
      </dl>
      <EmptyState icon={FormIcon}>
        <p>{sl.screens.form.empty}</p>
      </EmptyState>
    </Page>
  );
}
