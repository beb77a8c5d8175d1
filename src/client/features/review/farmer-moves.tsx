/**
 * The farmer's moves on a form (src/common/review.ts is the rule): "Oddaj v pregled" from a draft
 * or a returned form, "Vloži pritožbo" (with a reason) from an approved or rejected one. Each is
 * one outbox edit of the form (the caller's `onMove`: review_state and review_reason, based on the
 * stored version), so it works offline. A move that would be refused is not offered as if it
 * would work: the button is disabled and the reason is said beside it (the form not completed,
 * an invalid or missing answer, unsaved changes, a deadline passed).
 */
import { useState } from 'react';
import { fillText, slReview, slReviewFarmer } from '../../../common/i18n/sl';
import {
  appealDeadline,
  formatDay,
  movesFrom,
  refuseMove,
  submitDeadline,
  type ReviewState,
  type ReviewedForm,
  type SeasonDeadlines,
} from '../../../common/review';
import type { FormKind } from '../../../common/schemas/config';
import { validateForm, type FormValues } from '../../../common/scheme/scoring';
import { Button } from '../../components/button/button';

export interface FarmerMovesProps {
  form: ReviewedForm;
  kind: FormKind;
  /** The stored answers (storedValues): what the adviser will see. */
  values: FormValues;
  /** The stored form is marked completed. */
  completed: boolean;
  /** The screen holds unsaved changes: they would not be part of what is submitted. */
  dirty: boolean;
  season: SeasonDeadlines | null;
  /** 'YYYY-MM-DD' in Slovenia (dayInSlovenia). */
  today: string;
  online: boolean;
  /** Queues the move (one outbox edit of the form); rejects when it could not be stored. */
  onMove: (to: ReviewState, reason: string | null) => Promise<void>;
}

/** Why "Oddaj v pregled" is not possible now, or null. */
function submitBlocked(props: Pick<FarmerMovesProps, 'form' | 'kind' | 'values' | 'completed' | 'dirty' | 'season' | 'today'>): string | null {
  const refused = refuseMove({ from: props.form, to: 'submitted', actor: 'farmer', reason: null, season: props.season, today: props.today });
  if (refused) return refused;
  if (props.dirty) return slReviewFarmer.review.saveFirst;
  if (!props.completed) return slReview.refused.notCompleted;
  const { errors } = validateForm(props.kind, props.values);
  if (errors.length) return fillText(slReview.refused.incomplete, { errors: errors.map((e) => e.message).join(' ') });
  return null;
}

export function FarmerMoves(props: FarmerMovesProps) {
  const t = slReviewFarmer.review;
  const state = props.form.review_state;
  const moves = movesFrom(state, 'farmer');
  const [appealOpen, setAppealOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const move = async (to: ReviewState, why: string | null) => {
    setBusy(true);
    setMessage(null);
    try {
      await props.onMove(to, why);
      const done = to === 'appealed' ? (props.online ? t.appealed : t.appealedQueued) : props.online ? t.submitted : t.submittedQueued;
      setMessage({ kind: 'ok', text: done });
      setAppealOpen(false);
      setReason('');
    } catch {
      setMessage({ kind: 'error', text: t.failed });
    } finally {
      setBusy(false);
    }
  };

  const feedback = message ? (
    <p
      className={message.kind === 'ok' ? 'save-message save-message--ok' : 'save-message save-message--error'}
      role={message.kind === 'ok' ? 'status' : 'alert'}
    >
      {message.text}
    </p>
  ) : null;

  if (moves.includes('submitted')) {
    const blocked = submitBlocked(props);
    const until = submitDeadline(props.form, props.season);
    return (
      <div className="review-moves" data-testid="farmer-moves">
        {until ? <p>{state === 'returned' && props.form.return_until ? t.returnUntil(formatDay(until)) : t.submitUntil(formatDay(until))}</p> : null}
        <Button
          type="button"
          block
          size="large"
          text={slReview.move.submitted}
          disabled={busy || blocked !== null}
          aria-describedby="submit-why"
          onClick={() => void move('submitted', null)}
        />
        <p id="submit-why" className={blocked ? 'review-moves__why' : 'muted small'} data-testid="submit-why">
          {blocked ?? t.submitHint}
        </p>
        {feedback}
      </div>
    );
  }
  if (moves.includes('appealed')) {
    const until = appealDeadline(props.form, props.season);
    const late = until !== null && props.today > until ? fillText(slReview.refused.appealDeadline, { date: formatDay(until) }) : null;
    return (
      <div className="review-moves" data-testid="farmer-moves">
        {until && !late ? <p>{t.appealUntil(formatDay(until))}</p> : null}
        {late ? (
          <p className="review-moves__why">{late}</p>
        ) : appealOpen ? (
          <div className="review-moves__appeal">
            <label className="field">
              <span className="field__label">{t.appealReason}</span>
              <textarea rows={4} value={reason} onChange={(e) => setReason(e.target.value)} aria-required="true" />
            </label>
            <Button
              type="button"
              block
              size="large"
              text={t.appealSend}
              disabled={busy}
              onClick={() => {
                const refused = refuseMove({ from: props.form, to: 'appealed', actor: 'farmer', reason, season: props.season, today: props.today });
                if (refused) setMessage({ kind: 'error', text: refused });
                else void move('appealed', reason.trim());
              }}
            />
            <Button type="button" block kind="secondary" text={t.cancel} onClick={() => setAppealOpen(false)} />
          </div>
        ) : (
          <Button type="button" block size="large" kind="secondary" text={slReview.move.appealed} onClick={() => setAppealOpen(true)} />
        )}
        {feedback}
      </div>
    );
  }
  // Submitted or appealed: the adviser's turn.
  return state === 'submitted' || state === 'appealed' ? <p className="muted">{t.waiting}</p> : null;
}
