/**
 * Home's to-do for a farmer, from the season view (its forms and the season's deadlines): the
 * forms returned for correction, the forms not yet submitted, the days left to submit them, and
 * rejections still open to an appeal. Pure: the caller passes today's day in Slovenia.
 */
import { slReviewFarmer } from '../../../common/i18n/sl';
import { appealDeadline, daysLeft, formatDay } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { reviewedForm, seasonDeadlines } from './review-rows';

export interface FarmerTodo {
  /** Ids of forms returned for correction. */
  returned: number[];
  /** Ids of forms not yet submitted (drafts). */
  drafts: number[];
  /** Ids of rejected forms that may still be appealed. */
  appealable: number[];
  /** The season's last day to submit ('YYYY-MM-DD'), when it sets one. */
  submitUntil: string | null;
  /** Days from today to submitUntil (0 on the day, negative after), null without one. */
  daysToSubmit: number | null;
}

export function farmerTodo(config: AppConfig, rows: { forms: readonly StoredRecord[]; duration: StoredRecord | null }, today: string): FarmerTodo {
  const season = seasonDeadlines(config, rows.duration);
  const todo: FarmerTodo = { returned: [], drafts: [], appealable: [], submitUntil: season?.submit_until?.slice(0, 10) ?? null, daysToSubmit: null };
  for (const form of rows.forms) {
    if (form.deleted || form.archived) continue;
    const review = reviewedForm(config, form);
    if (review.review_state === 'returned') todo.returned.push(form.id);
    else if (review.review_state === 'draft') todo.drafts.push(form.id);
    else if (review.review_state === 'rejected') {
      const until = appealDeadline(review, season);
      if (until === null || today <= until) todo.appealable.push(form.id);
    }
  }
  if (todo.submitUntil) todo.daysToSubmit = daysLeft(today, todo.submitUntil);
  return todo;
}

/** The to-do as Slovenian lines, most pressing first; none when nothing waits for the farmer. */
export function todoLines(todo: FarmerTodo): string[] {
  const t = slReviewFarmer;
  const lines: string[] = [];
  if (todo.returned.length) lines.push(t.returned(todo.returned.length));
  if (todo.drafts.length) lines.push(t.notSubmitted(todo.drafts.length));
  if ((todo.returned.length || todo.drafts.length) && todo.submitUntil && todo.daysToSubmit !== null) {
    lines.push(
      todo.daysToSubmit > 0
        ? t.daysToSubmit(todo.daysToSubmit)
        : todo.daysToSubmit === 0
          ? t.lastDayToSubmit
          : t.submitDeadlinePassed(formatDay(todo.submitUntil)),
    );
  }
  if (todo.appealable.length) lines.push(t.appealable(todo.appealable.length));
  return lines;
}
