/**
 * One form in a list (the forms screen, a path's screen): its kind, whether it is completed and
 * when it changed, its score; the whole row links to the form.
 */
import { formatDate } from '../../../common/format';
import { slScreens } from '../../../common/i18n/sl';
import { ChevronRightIcon } from '../icons/icons';
import { ScoreBadge } from '../score-badge/score-badge';
import { routeHref } from '../../lib/links';

export interface FormRowItem {
  id: number;
  kindTitle: string;
  completed: boolean;
  updatedAt: string;
  score: number | null | undefined;
}

export function FormRow({ form, testId }: { form: FormRowItem; testId: string }) {
  return (
    <li>
      <a className="row-link" href={routeHref('form', { formId: form.id })} data-testid={testId}>
        <span className="row-link__main">
          <span className="row-link__title">{form.kindTitle}</span>
          <span className="muted small">
            {form.completed ? slScreens.forms.completed : slScreens.forms.draft} · {formatDate(form.updatedAt)}
          </span>
        </span>
        <ScoreBadge score={form.score} size="small" />
        <ChevronRightIcon size={20} aria-hidden="true" />
      </a>
    </li>
  );
}
