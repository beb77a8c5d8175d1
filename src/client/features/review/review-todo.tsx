/**
 * Home's to-do block for a farmer ("Kaj vas čaka"): the lines of farmerTodo and a link to each
 * form that waits for them (returned first, then not yet submitted).
 */
import { slReviewFarmer } from '../../../common/i18n/sl';
import type { ReviewState } from '../../../common/review';
import { ChevronRightIcon } from '../../components/icons/icons';
import { todoLines, type FarmerTodo } from './farmer-todo';
import { ReviewBadge } from './review-badge';
import { routeHref } from '../../lib/links';

export interface ReviewTodoProps {
  todo: FarmerTodo;
  /** How a form is named in the list (its kind and path). */
  formLabel: (formId: number) => string;
}

export function ReviewTodo({ todo, formLabel }: ReviewTodoProps) {
  const t = slReviewFarmer;
  const lines = todoLines(todo);
  const forms: Array<{ id: number; state: ReviewState }> = [
    ...todo.returned.map((id) => ({ id, state: 'returned' as const })),
    ...todo.drafts.map((id) => ({ id, state: 'draft' as const })),
    ...todo.appealable.map((id) => ({ id, state: 'rejected' as const })),
  ];
  return (
    <section className="card review-todo" aria-labelledby="review-todo-title" data-testid="review-todo">
      <h2 id="review-todo-title">{t.todoTitle}</h2>
      {lines.length === 0 ? (
        <p className="muted">{t.todoNothing}</p>
      ) : (
        <>
          <ul className="review-todo__lines">
            {lines.map((line) => (
              <li key={line}>
                <strong>{line}</strong>
              </li>
            ))}
          </ul>
          <ul className="row-list">
            {forms.map((f) => (
              <li key={f.id}>
                <a className="row-link" href={routeHref('form', { formId: f.id })} data-testid={`todo-form-${f.id}`}>
                  <span className="row-link__main">
                    <span className="row-link__title">{formLabel(f.id)}</span>
                    <ReviewBadge state={f.state} size="small" />
                  </span>
                  <ChevronRightIcon size={20} aria-hidden="true" />
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
