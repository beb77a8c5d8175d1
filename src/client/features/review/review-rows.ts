/**
 * The review columns of stored rows as the rule of src/common/review.ts takes them: a form's
 * state, reason and deadlines, the season's deadlines, and a form's thread in order. Pure.
 */
import { reviewStateOf, type ReviewedForm, type SeasonDeadlines } from '../../../common/review';
import type { AppConfig, FormKind } from '../../../common/schemas/config';
import { valuesFromIndicators, type FormValues } from '../../../common/scheme/scoring';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, type Comment } from '../../lib/db/model';

/** A form row's review columns (an empty or unknown state is a draft). */
export function reviewedForm(config: AppConfig, form: StoredRecord): ReviewedForm & { review_reason: string | null; review_indicator: string | null } {
  const row = readRow(config, 'forms', form);
  return {
    review_state: reviewStateOf(row.review_state),
    reviewed_at: row.reviewed_at,
    return_until: row.return_until,
    review_reason: row.review_reason?.trim() ? row.review_reason : null,
    review_indicator: row.review_indicator?.trim() ? row.review_indicator : null,
  };
}

/** The season's deadlines from its durations row (none without a season). */
export function seasonDeadlines(config: AppConfig, duration: StoredRecord | null): SeasonDeadlines | null {
  if (!duration) return null;
  const row = readRow(config, 'durations', duration);
  return { submit_until: row.submit_until, review_until: row.review_until, appeal_days: row.appeal_days };
}

/** A form's live comments, oldest first (the author's time is the record's createdAt). */
export function threadOf(config: AppConfig, comments: readonly StoredRecord[], formId: number): Comment[] {
  return comments
    .filter((c) => !c.deleted && !c.archived)
    .map((c) => readRow(config, 'comments', c))
    .filter((c) => c.parent === formId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/** The stored answers of a form (its indicator rows, oldest first), as the score and validation read them. */
export function storedValues(config: AppConfig, kind: FormKind, formId: number, indicators: readonly StoredRecord[]): FormValues {
  const rows = indicators
    .map((i) => readRow(config, 'indicators', i))
    .filter((i) => i.parent === formId)
    .sort((a, b) => a.id - b.id)
    .map((i) => ({ key: i.key ?? '', value: i.value, deleted: i.deleted, archived: i.archived }));
  return valuesFromIndicators(kind, rows);
}
