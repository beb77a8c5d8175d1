/**
 * A review move as an adviser makes it (docs/architecture.md, The review loop): checked against the
 * one rule (src/common/review.ts) before anything is stored, then saved as one outbox update of the
 * form row — review_state, review_reason, review_indicator and return_until, on the form's version
 * as the device holds it. The server checks the rule again, sets reviewed_by/reviewed_at and adds
 * the reason to the form's thread itself: the client never writes those. The decision panel and the
 * queue's bulk approval both save through `saveMoves`; the edit itself is lib/db/review-edit.ts's
 * `moveEdit`, which a farmer's submit and appeal use too.
 */
import { fillText, slReview, slReviewQueue } from '../../../common/i18n/sl';
import { withoutOperation } from '../../../common/errors';
import { refuseMove, reviewStateOf, type ReviewState, type SeasonDeadlines } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import type { OfflineDb, OutboxItem } from '../../lib/db/database';
import type { Form } from '../../lib/db/model';
import type { LocalEdit, SavedEdit } from '../../lib/db/outbox';
import { moveEdit, type ReviewMove } from '../../lib/db/review-edit';

/** The outbox save the route passes in (app/routes/screen-data.ts `useSaveEdits`). */
export type SaveEdits = (edits: LocalEdit[]) => Promise<SavedEdit[]>;

/** A move stored in the outbox: which form, and the queued item's opId (to follow its fate). */
export interface SavedMove {
  formId: number;
  opId: string;
}

/** The button text of a move: a move back to submitted by an adviser from a decision is a reopen. */
export function moveLabel(from: ReviewState, to: ReviewState): string {
  if (to === 'submitted') return from === 'approved' || from === 'rejected' ? slReview.move.reopen : slReview.move.submitted;
  // No move leads back to a draft.
  return to === 'draft' ? slReview.state.draft : slReview.move[to];
}

/**
 * Why the adviser's move is refused (Slovenian), or null: the rule of common/review.ts; a move
 * to the form's own state is none; a reason must differ from the stored one (docs/architecture.md,
 * The review loop: a value equal to the stored one is not carried); a return's own deadline may
 * not lie before today.
 */
export function checkMove(
  form: Pick<Form, 'review_state' | 'reviewed_at' | 'return_until' | 'review_reason'>,
  move: ReviewMove,
  today: string,
  season: SeasonDeadlines | null = null,
): string | null {
  const from = { review_state: reviewStateOf(form.review_state), reviewed_at: form.reviewed_at, return_until: form.return_until };
  // The rule lets a form "move" to its own state; the server would take it as no move at all.
  if (from.review_state === move.to) return fillText(slReview.refused.transition, { from: slReview.state[move.to], to: slReview.state[move.to] });
  const refused = refuseMove({ from, to: move.to, actor: 'editor', reason: move.reason, season, today });
  if (refused) return refused;
  // The server reads a reason equal to the stored one as the row sent back: no reason at all.
  const reason = move.reason?.trim();
  if (reason && reason === form.review_reason?.trim()) return slReviewQueue.decision.sameReason;
  if (move.to === 'returned' && move.returnUntil && move.returnUntil.slice(0, 10) < today) return slReviewQueue.decision.returnUntilPast;
  return null;
}

/** The result of saving moves: those the rule refused (nothing stored), those stored, and a storage failure. */
export interface MovesSaved {
  refused: Array<{ formId: number; reason: string }>;
  saved: SavedMove[];
  /** The device could not store the edits (none of the allowed moves was stored). */
  failed: string | null;
}

/**
 * Checks each move against the rule and saves the allowed ones, each as one outbox edit of its form,
 * in one call of the outbox save (one season reload after). The one way a move is made: the
 * decision panel saves one, the queue's "Potrdi izbrane" several.
 */
export async function saveMoves(
  saveEdits: SaveEdits,
  config: AppConfig,
  moves: ReadonlyArray<{ form: Form; move: ReviewMove }>,
  today: string,
  season: SeasonDeadlines | null = null,
): Promise<MovesSaved> {
  const refused: MovesSaved['refused'] = [];
  const allowed: Array<{ form: Form; move: ReviewMove }> = [];
  for (const item of moves) {
    const reason = checkMove(item.form, item.move, today, season);
    if (reason) refused.push({ formId: item.form.id, reason });
    else allowed.push(item);
  }
  if (!allowed.length) return { refused, saved: [], failed: null };
  try {
    const stored = await saveEdits(allowed.map(({ form, move }) => moveEdit(config, form.id, move)));
    return { refused, saved: stored.map((edit, i) => ({ formId: edit.id ?? allowed[i]!.form.id, opId: edit.opId })), failed: null };
  } catch (error) {
    // The outbox save rejects with the Slovenian message of the storage failure (screen-data.ts).
    return { refused, saved: [], failed: typeof error === 'string' && error ? error : slReviewQueue.decision.saveFailed };
  }
}

/** What became of a saved move: still queued, accepted by the server, or refused (with why). */
export type MoveOutcome = { kind: 'waiting' } | { kind: 'sent' } | { kind: 'refused'; reason: string } | { kind: 'conflict' };

function outcomeOf(item: OutboxItem | undefined): MoveOutcome {
  if (!item) return { kind: 'sent' };
  if (item.status === 'conflict') return { kind: 'conflict' };
  if (item.status === 'failed') return { kind: 'refused', reason: withoutOperation(item.error?.detail ?? item.error?.message ?? '') };
  return { kind: 'waiting' };
}

/** The outcome of each saved move, by opId, from the outbox as it is now (an item gone was acknowledged). */
export async function moveOutcomes(db: OfflineDb, formsTableId: number, moves: readonly SavedMove[]): Promise<Map<string, MoveOutcome>> {
  const items = moves.length
    ? await db.outbox
        .where('[tableId+id]')
        .anyOf(moves.map((m) => [formsTableId, m.formId]))
        .toArray()
    : [];
  const byOpId = new Map(items.map((item) => [item.opId, item]));
  return new Map(moves.map((m) => [m.opId, outcomeOf(byOpId.get(m.opId))]));
}
