/**
 * The review rule shared by server and client (src/common/review.ts) and the payment preview
 * (src/common/scheme/payment.ts): every move of the table, who may make it, the reasons and the
 * deadlines; the band, the amount and what the next band needs, by the scheme's own scoring.
 */
import { describe, expect, it } from '@jest/globals';
import { fillText, slReview } from '../../src/common/i18n/sl';
import {
  REVIEW_STATES,
  addDays,
  appealDeadline,
  dayInSlovenia,
  daysLeft,
  farmerMayEdit,
  movesFrom,
  refuseMove,
  reviewStateOf,
  submitDeadline,
  type MoveRequest,
  type ReviewState,
} from '../../src/common/review';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { paymentPreview } from '../../src/common/scheme/payment';
import { computeScore } from '../../src/common/scheme/scoring';

const season = { submit_until: '2026-10-31', review_until: '2026-11-30', appeal_days: 15 };
const request = (state: ReviewState, to: ReviewState, actor: 'farmer' | 'editor', extra: Partial<MoveRequest> = {}): MoveRequest => ({
  from: { review_state: state, reviewed_at: '2026-11-02T09:00:00.000Z', return_until: null },
  to,
  actor,
  reason: null,
  season,
  today: '2026-10-15',
  ...extra,
});

describe('the moves of a form', () => {
  it('are exactly these, by these roles', () => {
    const allowed: string[] = [];
    for (const from of REVIEW_STATES)
      for (const actor of ['farmer', 'editor'] as const) for (const to of movesFrom(from, actor)) allowed.push(`${from}→${to} ${actor}`);
    expect(allowed.sort()).toEqual(
      [
        'draft→submitted farmer',
        'draft→submitted editor',
        'returned→submitted farmer',
        'returned→submitted editor',
        'submitted→approved editor',
        'submitted→returned editor',
        'submitted→rejected editor',
        'approved→appealed farmer',
        'rejected→appealed farmer',
        'appealed→approved editor',
        'appealed→rejected editor',
        'approved→submitted editor',
        'rejected→submitted editor',
      ].sort(),
    );
  });

  it('refuses any other move, and a move by the wrong role, in Slovenian', () => {
    expect(refuseMove(request('draft', 'approved', 'editor'))).toBe(
      fillText(slReview.refused.transition, { from: slReview.state.draft, to: slReview.state.approved }),
    );
    expect(refuseMove(request('submitted', 'approved', 'farmer'))).toBe(
      fillText(slReview.refused.editorsOnly, { from: slReview.state.submitted, to: slReview.state.approved }),
    );
    expect(refuseMove(request('approved', 'appealed', 'editor', { reason: 'x' }))).toBe(slReview.refused.farmersOnly);
    // Staying in a state is no move.
    expect(refuseMove(request('submitted', 'submitted', 'farmer'))).toBeNull();
  });

  it('a return, a rejection, an appeal, an appeal decision and a reopening need a reason; an approval and a submission do not', () => {
    const missing = (to: ReviewState) => fillText(slReview.refused.reasonMissing, { to: slReview.state[to] });
    expect(refuseMove(request('submitted', 'returned', 'editor', { reason: '  ' }))).toBe(missing('returned'));
    expect(refuseMove(request('submitted', 'rejected', 'editor'))).toBe(missing('rejected'));
    expect(refuseMove(request('approved', 'appealed', 'farmer', { today: '2026-11-03' }))).toBe(missing('appealed'));
    expect(refuseMove(request('appealed', 'rejected', 'editor'))).toBe(missing('rejected'));
    expect(refuseMove(request('approved', 'submitted', 'editor'))).toBe(missing('submitted'));
    expect(refuseMove(request('submitted', 'approved', 'editor'))).toBeNull();
    expect(refuseMove(request('draft', 'submitted', 'farmer'))).toBeNull();
    expect(refuseMove(request('submitted', 'returned', 'editor', { reason: 'Manjka fotografija kukavičevke.' }))).toBeNull();
  });

  it("a farmer submits until the season's deadline, a returned form until its own later one; an adviser is not bound by it", () => {
    const late = { today: '2026-11-01' };
    expect(refuseMove(request('draft', 'submitted', 'farmer', { today: '2026-10-31' }))).toBeNull();
    expect(refuseMove(request('draft', 'submitted', 'farmer', late))).toBe(fillText(slReview.refused.submitDeadline, { date: '31. 10. 2026' }));
    const returned = { review_state: 'returned' as const, reviewed_at: '2026-10-30T10:00:00.000Z', return_until: '2026-11-10' };
    expect(refuseMove(request('returned', 'submitted', 'farmer', { ...late, from: returned }))).toBeNull();
    expect(refuseMove(request('returned', 'submitted', 'farmer', { today: '2026-11-11', from: returned }))).toBe(
      fillText(slReview.refused.submitDeadline, { date: '10. 11. 2026' }),
    );
    expect(refuseMove(request('draft', 'submitted', 'editor', late))).toBeNull();
    // No deadline set: no limit.
    expect(refuseMove(request('draft', 'submitted', 'farmer', { ...late, season: { submit_until: null, appeal_days: null } }))).toBeNull();
  });

  it("an appeal is open for the season's days after the decision (Slovenian days), then closed; without a period it stays open", () => {
    // Decided 2 November 2026 at 10:00 in Ljubljana; 15 days: the 17th is the last day.
    const decided = { review_state: 'rejected' as const, reviewed_at: '2026-11-02T09:00:00.000Z', return_until: null };
    expect(appealDeadline(decided, season)).toBe('2026-11-17');
    expect(refuseMove(request('rejected', 'appealed', 'farmer', { from: decided, reason: 'Ne strinjam se.', today: '2026-11-17' }))).toBeNull();
    expect(refuseMove(request('rejected', 'appealed', 'farmer', { from: decided, reason: 'Ne strinjam se.', today: '2026-11-18' }))).toBe(
      fillText(slReview.refused.appealDeadline, { date: '17. 11. 2026' }),
    );
    expect(
      refuseMove(
        request('rejected', 'appealed', 'farmer', { from: decided, reason: 'x', today: '2027-03-01', season: { submit_until: null, appeal_days: null } }),
      ),
    ).toBeNull();
  });

  it('a farmer edits a draft or a returned form only; unknown or empty states are drafts', () => {
    expect(REVIEW_STATES.filter(farmerMayEdit)).toEqual(['draft', 'returned']);
    expect([reviewStateOf(null), reviewStateOf(''), reviewStateOf('odobreno'), reviewStateOf('approved')]).toEqual(['draft', 'draft', 'draft', 'approved']);
    expect(submitDeadline({ review_state: 'draft', return_until: '2026-12-01' }, season)).toBe('2026-10-31');
  });

  it('days are Slovenian calendar days', () => {
    // 23:30 UTC on 31 October is already 1 November in Ljubljana (UTC+1).
    expect(dayInSlovenia(new Date('2026-10-31T23:30:00.000Z'))).toBe('2026-11-01');
    expect(dayInSlovenia(new Date('2026-07-31T21:59:00.000Z'))).toBe('2026-07-31');
    expect(addDays('2026-12-25', 10)).toBe('2027-01-04');
    expect([daysLeft('2026-11-27', '2026-12-09'), daysLeft('2026-11-27', '2026-11-27'), daysLeft('2026-11-27', '2026-11-20')]).toEqual([12, 0, -7]);
  });
});

describe('the payment preview', () => {
  const kind = FORM_KINDS.travnik;
  const plants = kind.indicators.filter((d) => d.latin !== undefined && d.valueKind === 'presence' && d.group === 'kazalne');

  it("is the band of the score times the meadow's hectares, and names the plants still needed for the next band", () => {
    // Four plants of 7 points: 28, the lowest band.
    const values = Object.fromEntries(plants.slice(0, 4).map((d) => [d.key, true]));
    expect(computeScore(kind, values).score).toBe(28);
    const preview = paymentPreview(kind, values, 2.5)!;
    expect(preview.band.name).toBe('slabo');
    expect(preview.amountEur).toBe(0);
    // Above 33 needs 6 more points: one plant of 7.
    expect(preview.next).toEqual({ band: kind.payment!.bands[1], points: 6, plants: 1 });

    const medium = Object.fromEntries(plants.slice(0, 6).map((d) => [d.key, true]));
    const second = paymentPreview(kind, medium, 2.5)!;
    expect([second.score, second.band.name, second.amountEur]).toEqual([42, 'srednje', 375]);
    // 42 → above 66: 25 points, four plants of 7 (28).
    expect(second.next).toMatchObject({ points: 25, plants: 4 });
  });

  it('counts negative indicators in (the rule decides), says when plants alone cannot reach the next band, and is null for a kind not paid by result', () => {
    // Every plant ticked cannot outweigh goldenrod, fleabane, dock and dandelion everywhere and a
    // meadow all overgrown: the score is 0, the total far below it.
    const values = {
      ...Object.fromEntries(plants.map((d) => [d.key, true])),
      solidago: true,
      'erigeron-annuus': true,
      zarascanje: 100,
      'rumex-obtusifolius': 'prevladuje',
      taraxacum: 'prevladuje',
    };
    const { total } = computeScore(kind, values);
    const preview = paymentPreview(kind, values, 1)!;
    expect([preview.score, preview.band.name]).toEqual([0, 'slabo']);
    expect(preview.next).toEqual({ band: kind.payment!.bands[1], points: Math.ceil(33.5 - total), plants: null });
    expect(preview.next!.points).toBeGreaterThan(34);
    const allTicked = paymentPreview(kind, Object.fromEntries(plants.map((d) => [d.key, true])), 1)!;
    expect(allTicked.next).toBeNull();
    expect(paymentPreview(FORM_KINDS.upravljanje, {}, 3)).toBeNull();
    // No area known: the rate, but no amount.
    expect(paymentPreview(kind, {}, null)!.amountEur).toBe(0);
  });

  it('says it in Slovenian, with the right plural', () => {
    expect([1, 2, 3, 5].map((n) => slReview.payment.plantsToNext(n, 'dobro'))).toEqual([
      'še 1 kazalna rastlina do razreda dobro',
      'še 2 kazalni rastlini do razreda dobro',
      'še 3 kazalne rastline do razreda dobro',
      'še 5 kazalnih rastlin do razreda dobro',
    ]);
  });
});
