/**
 * The adviser's decision on one form (docs/architecture.md, The review loop): the form's review
 * state as a word, the last decision's reason, who made it and when, and — for editors — the moves
 * the rule offers from this state (`movesFrom(state, 'editor')`). A move is chosen first, then its
 * reason (required where the rule asks for one), for a return the indicator to correct and an
 * optional own deadline, then saved through the outbox (`saveMoves`, review-move.ts). A move the
 * rule refuses says why and stores nothing. After saving, the panel follows the edit: waiting on
 * the device, accepted by the server, or refused with the server's reason.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../common/format';
import { slReview, slReviewQueue } from '../../../common/i18n/sl';
import { dayInSlovenia, moveNeedsReason, movesFrom, reviewStateOf, type ReviewState, type SeasonDeadlines } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import { Button } from '../../components/button/button';
import type { Form } from '../../lib/db/model';
import type { ReviewMove } from '../../lib/db/review-edit';
import { moveLabel, saveMoves, type MoveOutcome, type SaveEdits, type SavedMove } from './review-move';
import { useMoveOutcomes, type OutboxView } from './use-move-outcomes';

export interface ReviewDecisionProps {
  config: AppConfig;
  /** The form as the screen reads it (`readRow(config, 'forms', record)`), from the device. */
  form: Form;
  /** Only editors decide; readers and farmers see the state and the last decision. */
  role: 'editor' | 'reader' | 'farmer' | null;
  /** The outbox save of the route (app/routes/screen-data.ts `useSaveEdits`). */
  saveEdits: SaveEdits;
  /** The outbox as features/sync mirrors it (`pending`, `attention`): the saved move is followed by it. */
  outbox: OutboxView;
  online: boolean;
  /** The season's deadlines (the form's season row); advisers' moves are not bound by them today. */
  season?: SeasonDeadlines | null;
  /** 'YYYY-MM-DD' in Slovenia; defaults to today (tests pass a day). */
  today?: string;
  /** Called after a move was stored on the device (before the server saw it). */
  onMoved?: (move: SavedMove & { to: ReviewState }) => void;
}

function outcomeText(outcome: MoveOutcome | undefined): string {
  const t = slReviewQueue.decision;
  switch (outcome?.kind) {
    case 'sent':
      return t.sent;
    case 'refused':
      return t.refused(outcome.reason);
    case 'conflict':
      return t.conflict;
    default:
      return t.waiting;
  }
}

export function ReviewDecision({ config, form, role, saveEdits, outbox, online, season = null, today, onMoved }: ReviewDecisionProps) {
  const t = slReviewQueue.decision;
  const id = useId();
  const state = reviewStateOf(form.review_state);
  const day = today ?? dayInSlovenia(new Date());
  const moves = role === 'editor' ? movesFrom(state, 'editor') : [];
  const kind = formKindById(form.form_id, config.forms);
  const [chosen, setChosen] = useState<ReviewState | null>(null);
  const [reason, setReason] = useState('');
  const [indicator, setIndicator] = useState('');
  const [returnUntil, setReturnUntil] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<SavedMove[]>([]);
  const outcomes = useMoveOutcomes(config.tables.forms.id, saved, outbox);
  const last = saved[0];
  const outcome = last ? outcomes.get(last.opId) : undefined;
  // A move chosen from an earlier state (the form moved meanwhile) is no longer offered.
  const move = chosen && moves.includes(chosen) ? chosen : null;
  const needsReason = move ? moveNeedsReason(state, move) : false;
  const indicators = useMemo(() => kind?.indicators ?? [], [kind]);

  const choose = (to: ReviewState) => {
    setChosen(to === move ? null : to);
    setProblem(null);
  };
  const reset = () => {
    setChosen(null);
    setReason('');
    setIndicator('');
    setReturnUntil('');
    setProblem(null);
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!move || saving) return;
    const decided: ReviewMove = { to: move, reason, indicator: indicator || null, returnUntil: returnUntil || null };
    setSaving(true);
    const result = await saveMoves(saveEdits, config, [{ form, move: decided }], day, season);
    setSaving(false);
    const refused = result.refused[0]?.reason ?? result.failed;
    if (refused) return setProblem(refused);
    const stored = result.saved[0];
    if (!stored) return;
    setSaved([stored]);
    reset();
    onMoved?.({ ...stored, to: move });
  };

  return (
    <section className="card review-decision" aria-labelledby={`${id}-title`} data-testid="review-decision">
      <h2 id={`${id}-title`}>{t.title}</h2>
      <dl className="review-decision__facts">
        <div>
          <dt>{t.state}</dt>
          <dd>
            <span className={`review-state review-state--${state}`} data-testid="review-state">
              {slReview.state[state]}
            </span>
          </dd>
        </div>
        {form.review_reason ? (
          <div>
            <dt>{t.lastReason}</dt>
            <dd>{form.review_reason}</dd>
          </div>
        ) : null}
        {form.reviewed_by && form.reviewed_at ? (
          <div>
            <dt className="visually-hidden">{slReviewQueue.csv.by}</dt>
            <dd className="review-decision__who">{t.decidedBy(form.reviewed_by, formatDateTime(form.reviewed_at))}</dd>
          </div>
        ) : null}
      </dl>

      {role === 'editor' ? (
        moves.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <>
            <div className="review-decision__moves" role="group" aria-label={t.moves}>
              {moves.map((to) => (
                <Button
                  key={to}
                  kind={to === 'approved' ? 'primary' : to === 'rejected' ? 'danger' : 'secondary'}
                  text={moveLabel(state, to)}
                  active={to === move}
                  aria-pressed={to === move}
                  onClick={() => choose(to)}
                />
              ))}
            </div>
            {move ? (
              <form className="review-decision__form" onSubmit={(e) => void onSubmit(e)} noValidate>
                <div className="field">
                  <label className="field__label" htmlFor={`${id}-reason`}>
                    {needsReason ? t.reason : t.reasonOptional}
                  </label>
                  <textarea
                    id={`${id}-reason`}
                    name="reason"
                    rows={3}
                    value={reason}
                    required={needsReason}
                    aria-describedby={`${id}-reason-hint`}
                    onChange={(e) => setReason(e.target.value)}
                  />
                  <p id={`${id}-reason-hint`} className="review-hint">
                    {t.reasonHint}
                  </p>
                </div>
                {move === 'returned' ? (
                  <>
                    <div className="field">
                      <label className="field__label" htmlFor={`${id}-indicator`}>
                        {t.indicator}
                      </label>
                      <select id={`${id}-indicator`} name="indicator" value={indicator} onChange={(e) => setIndicator(e.target.value)}>
                        <option value="">{t.noIndicator}</option>
                        {indicators.map((i) => (
                          <option key={i.key} value={i.key}>
                            {i.name}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="field">
                      <label className="field__label" htmlFor={`${id}-until`}>
                        {t.returnUntil}
                      </label>
                      <input
                        type="date"
                        id={`${id}-until`}
                        name="returnUntil"
                        min={day}
                        value={returnUntil}
                        aria-describedby={`${id}-until-hint`}
                        onChange={(e) => setReturnUntil(e.target.value)}
                      />
                      <p id={`${id}-until-hint`} className="review-hint">
                        {t.returnUntilHint}
                      </p>
                    </div>
                  </>
                ) : null}
                {problem ? (
                  <p className="screen-error" role="alert">
                    {problem}
                  </p>
                ) : null}
                {!online ? <p className="review-hint">{t.offlineNote}</p> : null}
                <div className="review-decision__actions">
                  <Button type="submit" text={saving ? t.saving : t.save} disabled={saving} />
                  <Button kind="ghost" text={t.cancel} onClick={reset} />
                </div>
              </form>
            ) : null}
          </>
        )
      ) : null}

      {last ? (
        <p role="status" className="review-decision__outcome" data-testid="review-outcome" data-outcome={outcome?.kind ?? 'unread'}>
          {outcomeText(outcome)}
        </p>
      ) : null}
    </section>
  );
}
