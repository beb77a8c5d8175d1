/**
 * A review move as one outbox edit of the form row (docs/architecture.md, The review loop): the
 * review columns only. A farmer's submit or appeal and an adviser's decision are built here alike;
 * the server checks the rule, stamps reviewed_by/reviewed_at and adds the reason to the form's
 * thread itself, so the client never writes those.
 */
import type { ReviewState } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { toProperties } from './model';
import type { LocalEdit } from './outbox';
import { refKeysFor } from './refs';

/** What was decided: the state the form moves to, why, and for a return what and until when. */
export interface ReviewMove {
  to: ReviewState;
  reason?: string | null;
  /** A return: the key of the indicator to correct (the form kind's), or null for the whole form. */
  indicator?: string | null;
  /** A return: the last day ('YYYY-MM-DD') to resubmit, or null for the season's deadline. */
  returnUntil?: string | null;
}

/**
 * The outbox edit of a move: the review columns only (the outbox merges them into the device row
 * and sends it on that row's version). What a move does not name is cleared, so an approved form
 * does not keep the indicator and deadline of an earlier return.
 */
export function moveEdit(config: AppConfig, formId: number, move: ReviewMove): LocalEdit {
  const reason = move.reason?.trim() ? move.reason.trim() : null;
  const returned = move.to === 'returned';
  return {
    kind: 'update',
    projectId: config.projectId,
    tableId: config.tables.forms.id,
    id: formId,
    properties: toProperties(config, 'forms', {
      review_state: move.to,
      review_reason: reason,
      review_indicator: returned && move.indicator ? move.indicator : null,
      return_until: returned && move.returnUntil ? move.returnUntil.slice(0, 10) : null,
    }),
    refs: refKeysFor(config, 'forms'),
  };
}
