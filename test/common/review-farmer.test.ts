/**
 * The farmer's side of the review rule (src/common/review.ts) and the payment preview
 * (src/common/scheme/payment.ts): what the farmer's screens offer and say rests on these.
 */
import { describe, expect, it } from '@jest/globals';
import {
  appealDeadline,
  dayInSlovenia,
  daysLeft,
  farmerMayEdit,
  formatDay,
  movesFrom,
  refuseMove,
  reviewStateOf,
  submitDeadline,
  type ReviewedForm,
} from '../../src/common/review';
import { paymentPreview } from '../../src/common/scheme/payment';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { computeScore } from '../../src/common/scheme/scoring';
import { slReview, slReviewFarmer } from '../../src/common/i18n/sl';

const season = { submit_until: '2026-09-30', review_until: '2026-10-31', appeal_days: 15 };
const form = (review_state: ReviewedForm['review_state'], extra: Partial<ReviewedForm> = {}): ReviewedForm => ({
  review_state,
  reviewed_at: null,
  return_until: null,
  ...extra,
});

describe('the review rule as the farmer meets it', () => {
  it('an empty or unknown state is a draft; a farmer edits only drafts and returned forms', () => {
    expect(reviewStateOf('')).toBe('draft');
    expect(reviewStateOf(null)).toBe('draft');
    expect(reviewStateOf('nekaj')).toBe('draft');
    expect(['draft', 'returned'].every((s) => farmerMayEdit(reviewStateOf(s)))).toBe(true);
    expect(['submitted', 'approved', 'rejected', 'appealed'].some((s) => farmerMayEdit(reviewStateOf(s)))).toBe(false);
  });

  it('the farmer’s moves: submit from draft and returned, appeal from approved and rejected, nothing while with the adviser', () => {
    expect(movesFrom('draft', 'farmer')).toEqual(['submitted']);
    expect(movesFrom('returned', 'farmer')).toEqual(['submitted']);
    expect(movesFrom('approved', 'farmer')).toEqual(['appealed']);
    expect(movesFrom('rejected', 'farmer')).toEqual(['appealed']);
    expect(movesFrom('submitted', 'farmer')).toEqual([]);
    expect(movesFrom('appealed', 'farmer')).toEqual([]);
  });

  it('submitting: allowed up to and on the season’s last day, refused after it with the date', () => {
    const move = (today: string) => refuseMove({ from: form('draft'), to: 'submitted', actor: 'farmer', reason: null, season, today });
    expect(move('2026-09-29')).toBeNull();
    expect(move('2026-09-30')).toBeNull();
    expect(move('2026-10-01')).toBe('Rok za oddajo je potekel 30. 9. 2026.');
    // No deadline set: never late.
    expect(refuseMove({ from: form('draft'), to: 'submitted', actor: 'farmer', reason: null, season: null, today: '2030-01-01' })).toBeNull();
  });

  it('a returned form’s own deadline wins over the season’s, also when later', () => {
    const returned = form('returned', { return_until: '2026-10-15' });
    expect(submitDeadline(returned, season)).toBe('2026-10-15');
    expect(submitDeadline(form('returned'), season)).toBe('2026-09-30');
    expect(submitDeadline(form('draft', { return_until: '2026-10-15' }), season)).toBe('2026-09-30');
    expect(refuseMove({ from: returned, to: 'submitted', actor: 'farmer', reason: null, season, today: '2026-10-10' })).toBeNull();
    expect(refuseMove({ from: returned, to: 'submitted', actor: 'farmer', reason: null, season, today: '2026-10-16' })).toBe(
      'Rok za oddajo je potekel 15. 10. 2026.',
    );
  });

  it('an appeal needs a reason and comes within the appeal days after the decision (Slovenian days)', () => {
    // Decided at 23:30 on 1 July in Slovenia (21:30 UTC in summer): 15 days from that Slovenian day.
    const decided = form('rejected', { reviewed_at: '2026-07-01T21:30:00.000Z' });
    expect(appealDeadline(decided, season)).toBe('2026-07-16');
    expect(appealDeadline(decided, { ...season, appeal_days: null })).toBeNull();
    expect(refuseMove({ from: decided, to: 'appealed', actor: 'farmer', reason: '  ', season, today: '2026-07-02' })).toBe(
      `Za prehod v stanje »${slReview.state.appealed}« napišite razlog.`,
    );
    expect(refuseMove({ from: decided, to: 'appealed', actor: 'farmer', reason: 'Kazalnih rastlin je bilo več.', season, today: '2026-07-16' })).toBeNull();
    expect(refuseMove({ from: decided, to: 'appealed', actor: 'farmer', reason: 'Kazalnih rastlin je bilo več.', season, today: '2026-07-17' })).toBe(
      'Rok za pritožbo je potekel 16. 7. 2026.',
    );
    // Late at night UTC is already the next day in Slovenia.
    expect(dayInSlovenia(new Date('2026-07-01T22:30:00.000Z'))).toBe('2026-07-02');
  });

  it('a farmer cannot make the adviser’s moves', () => {
    expect(refuseMove({ from: form('submitted'), to: 'approved', actor: 'farmer', reason: null, season, today: '2026-07-01' })).toBe(
      `Obrazec v stanje »${slReview.state.approved}« prestavi le svetovalec.`,
    );
    expect(refuseMove({ from: form('draft'), to: 'appealed', actor: 'farmer', reason: 'x', season, today: '2026-07-01' })).toContain('ni mogoče prestaviti');
  });

  it('days left and the day format', () => {
    expect(daysLeft('2026-09-18', '2026-09-30')).toBe(12);
    expect(daysLeft('2026-09-30', '2026-09-30')).toBe(0);
    expect(daysLeft('2026-10-02', '2026-09-30')).toBe(-2);
    // Across the change to winter time (25 Oct 2026) a day is still a day.
    expect(daysLeft('2026-10-24', '2026-10-26')).toBe(2);
    expect(formatDay('2026-06-20')).toBe('20. 6. 2026');
  });
});

describe('home to-do texts (Slovenian plurals)', () => {
  it('returned forms, forms not yet submitted and days to the deadline', () => {
    expect([1, 2, 3, 5].map(slReviewFarmer.returned)).toEqual([
      '1 obrazec vrnjen v popravek',
      '2 obrazca vrnjena v popravek',
      '3 obrazci vrnjeni v popravek',
      '5 obrazcev vrnjenih v popravek',
    ]);
    expect([1, 2, 4, 11].map(slReviewFarmer.notSubmitted)).toEqual([
      '1 obrazec še ni oddan',
      '2 obrazca še nista oddana',
      '4 obrazci še niso oddani',
      '11 obrazcev še ni oddanih',
    ]);
    expect([1, 2, 3, 12, 101].map(slReviewFarmer.daysToSubmit)).toEqual([
      'Do roka za oddajo še 1 dan',
      'Do roka za oddajo še 2 dneva',
      'Do roka za oddajo še 3 dnevi',
      'Do roka za oddajo še 12 dni',
      'Do roka za oddajo še 101 dan',
    ]);
  });
});

describe('paymentPreview', () => {
  const kind = FORM_KINDS.travnik;
  const plants = kind.scoring.contributions
    .filter(
      (c) =>
        (c.points ?? 0) > 0 &&
        kind.indicators.find((d) => d.key === c.key)?.valueKind === 'presence' &&
        kind.indicators.find((d) => d.key === c.key)?.latin !== undefined,
    )
    .map((c) => c.key);
  const ticked = (n: number) => Object.fromEntries(plants.slice(0, n).map((key) => [key, true]));

  it('band, amount (hectares × rate) and the plants still needed for the next band', () => {
    // 8 plants × 7 = 56 points: medium (above 33); good needs above 66, i.e. 2 more plants (70).
    expect(computeScore(kind, ticked(8)).score).toBe(56);
    const preview = paymentPreview(kind, ticked(8), 2.5)!;
    expect(preview.band.name).toBe('srednje');
    expect(preview.amountEur).toBe(375);
    expect(preview.next).toMatchObject({ points: 11, plants: 2 });
    expect(preview.next!.band.name).toBe('dobro');
    expect(slReview.payment.plantsToNext(preview.next!.plants!, preview.next!.band.name)).toBe('še 2 kazalni rastlini do razreda dobro');
    expect(slReview.payment.amount('375,00', '2,5', '150,00')).toBe('375,00 € (2,5 ha × 150,00 €/ha)');
  });

  it('the lowest band pays nothing; the top band has no next; an unknown area counts as 0 ha', () => {
    const none = paymentPreview(kind, {}, 3)!;
    expect(none.band.name).toBe('slabo');
    expect(none.amountEur).toBe(0);
    expect(none.next).toMatchObject({ points: 34, plants: 5 });
    const top = paymentPreview(kind, ticked(10), 1.234)!;
    expect(top.band.name).toBe('dobro');
    expect(top.next).toBeNull();
    expect(top.amountEur).toBe(370.2);
    expect(paymentPreview(kind, ticked(10), null)!.amountEur).toBe(0);
  });

  it('when plants alone cannot reach the next band, it says so in points', () => {
    // Goldenrod, fleabane, dominant dock and dandelion and 40 % overgrowth: −110; all the kind's plants do not make up for it.
    const values = { solidago: true, 'erigeron-annuus': true, 'rumex-obtusifolius': 'prevladuje', taraxacum: 'prevladuje', zarascanje: 40 };
    expect(plants.length * 7).toBeLessThan(110 + 34);
    const preview = paymentPreview(kind, values, 1)!;
    expect(preview.score).toBe(0);
    // Counted from the unclamped total (−110), not the score 0 it shows.
    expect(preview.next).toMatchObject({ points: 144, plants: null });
    expect(slReview.payment.pointsToNext(preview.next!.points, preview.next!.band.name)).toBe('še 144 točk do razreda srednje');
  });

  it('a kind without bands is not paid by result', () => {
    expect(paymentPreview(FORM_KINDS.upravljanje, {}, 2)).toBeNull();
  });
});
