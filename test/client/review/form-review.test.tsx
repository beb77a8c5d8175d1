/**
 * The farmer's side of the review on the form screen (the real route, offline, fake-indexeddb):
 * the thread read from the season rows, a reply queued as a comment insert and shown at once,
 * "Oddaj v pregled" queued as one form update (and not offered for an incomplete form or after the
 * deadline), the lock while the form is with the adviser (editors may still correct), a returned
 * form's reason and indicator, an appeal that needs a reason, and the payment preview.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { openOfflineDb, refreshRows, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import { paymentPreview } from '../../../src/common/scheme/payment';
import { slReview, slReviewFarmer, slScreens } from '../../../src/common/i18n/sl';
import type { IndicatorDefinition } from '../../../src/common/schemas/config';
import { config, loadedState, renderRoute, row, season, seasonData } from '../screens/fixtures';

// The route's map needs WebGL (jsdom has none); nothing here opens it.
jest.unstable_mockModule('../../../src/client/features/map/index', () => ({
  MapView: () => null,
  GeometryEditor: () => null,
  recordsToMapItems: () => [],
}));
await import('../../../src/client/app/routes/form');

jest.setTimeout(30_000);

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

const T = config.tables;
const fc = T.forms.columns;
const cc = T.comments.columns;
const kind = FORM_KINDS.travnik;
const ADVISER = 'urednik@example.si';

/** A valid answer for every required indicator (and kadulja found). */
function answerOf(def: IndicatorDefinition): unknown {
  switch (def.valueKind) {
    case 'presence':
      return false;
    case 'choice':
      return def.choices![0]!.value;
    case 'count':
    case 'percent':
      return 0;
    case 'date':
      return '2026-06-01';
    default:
      return 'da';
  }
}

function fullAnswers(form: StoredRecord): StoredRecord[] {
  const ic = T.indicators.columns;
  return kind.indicators
    .filter((d) => d.required || d.key === 'salvia-pratensis')
    .map((d) => row(T.indicators.id, { [ic.parent]: form.id, [ic.key]: d.key, [ic.value]: d.key === 'salvia-pratensis' ? true : answerOf(d) }));
}

function withReview(form: StoredRecord, review: Record<string, unknown>, completed = true): StoredRecord {
  const properties: Record<string, unknown> = { ...form.properties, [fc.completed]: completed };
  for (const [name, value] of Object.entries(review)) properties[String((fc as Record<string, number>)[name])] = value;
  return { ...form, properties };
}

function comment(form: StoredRecord, values: { text: string; indicator?: string; state?: string; author?: string }, createdAt: string): StoredRecord {
  return row(
    T.comments.id,
    { [cc.parent]: form.id, [cc.text]: values.text, [cc.indicator]: values.indicator ?? '', [cc.state]: values.state ?? '', [cc.author]: values.author ?? '' },
    { createdAt, updatedAt: createdAt },
  );
}

function open({
  form,
  indicators,
  comments = [],
  role = 'farmer',
  duration,
}: {
  form: StoredRecord;
  indicators: StoredRecord[];
  comments?: StoredRecord[];
  role?: 'farmer' | 'editor';
  duration?: StoredRecord;
}) {
  const s = season();
  const db = openOfflineDb({ name: `form-review-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  const areaA = { ...s.areas[0]!, properties: { ...s.areas[0]!.properties, [T.areas.columns.area_ha]: 2.5 } };
  const preloaded = loadedState(
    seasonData(s, {
      source: 'device',
      role,
      areas: [areaA, s.areas[1]!],
      duration: duration ?? s.duration,
      forms: [form],
      indicators,
      comments,
    }),
  );
  const rendered = renderRoute('form', `#/forms/${form.id}`, { preloaded, db });
  return { ...rendered, db, s };
}

/** A season form on the fixture's first path (dp1), like s.formDone. */
function seasonForm(review: Record<string, unknown>, completed = true) {
  const s = season();
  const form = { ...s.formDone, properties: { ...s.formDone.properties, [fc.parent]: s.durationPaths[0]!.id } };
  return withReview(form, review, completed);
}

describe('the thread on the form screen (offline)', () => {
  it('shows the comments oldest first with author, time, state, text and the indicator, from the season rows', async () => {
    const form = seasonForm({ review_state: 'returned', review_reason: 'Kadulja na sliki ni kadulja.', review_indicator: 'salvia-pratensis' });
    const later = comment(form, { text: 'Bom popravil.', author: 'kmet1@example.si' }, '2026-06-04T10:00:00.000Z');
    const first = comment(
      form,
      { text: 'Kadulja na sliki ni kadulja.', indicator: 'salvia-pratensis', state: 'returned', author: ADVISER },
      '2026-06-03T10:00:00.000Z',
    );
    open({ form, indicators: fullAnswers(form), comments: [later, first] });
    const thread = await screen.findByTestId('review-thread');
    const items = within(thread).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-testid'))).toEqual([`comment-${first.id}`, `comment-${later.id}`]);
    expect(items[0]!.textContent).toContain(`${slReviewFarmer.thread.adviser} (${ADVISER})`);
    expect(items[0]!.textContent).toContain(slReviewFarmer.thread.moved(slReview.state.returned));
    expect(within(items[0]!).getByRole('link', { name: 'travniška kadulja' })).toBeTruthy();
    expect(items[0]!.querySelector('time')!.getAttribute('dateTime')).toBe('2026-06-03T10:00:00.000Z');
    expect(items[1]!.textContent).toContain(slReviewFarmer.thread.farmer);
    expect(thread.textContent).toContain(slReviewFarmer.thread.offline);
  });

  it('a reply offline is queued as a comment insert of the form and shows at once, waiting to be sent', async () => {
    const form = seasonForm({ review_state: 'submitted' });
    const { db } = open({ form, indicators: fullAnswers(form) });
    const thread = await screen.findByTestId('review-thread');
    expect(thread.textContent).toContain(slReviewFarmer.thread.empty);
    fireEvent.input(within(thread).getByLabelText(slReviewFarmer.thread.replyLabel), { target: { value: 'Kadulja je na fotografiji levo.' } });
    fireEvent.change(within(thread).getByLabelText(slReviewFarmer.thread.replyIndicator), { target: { value: 'salvia-pratensis' } });
    fireEvent.click(within(thread).getByRole('button', { name: slReviewFarmer.thread.reply }));
    await within(thread).findByText(slReviewFarmer.thread.replySaved);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'insert',
      tableId: T.comments.id,
      properties: { [cc.parent]: form.id, [cc.text]: 'Kadulja je na fotografiji levo.', [cc.indicator]: 'salvia-pratensis' },
    });
    // Nothing of the move columns or the author: the server sets those.
    expect(queued[0]!.properties).not.toHaveProperty(String(cc.author));
    const shown = within(thread).getByText('Kadulja je na fotografiji levo.').closest('li')!;
    expect(shown.textContent).toContain(slReviewFarmer.thread.you);
    expect(within(shown).getByTestId('comment-waiting').textContent).toContain(slReviewFarmer.thread.waiting);
  });

  it('an empty reply is refused on the screen and queues nothing', async () => {
    const form = seasonForm({ review_state: 'draft' });
    const { db } = open({ form, indicators: fullAnswers(form) });
    const thread = await screen.findByTestId('review-thread');
    fireEvent.click(within(thread).getByRole('button', { name: slReviewFarmer.thread.reply }));
    expect((await within(thread).findByRole('alert')).textContent).toBe(slReview.refused.commentEmpty);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('submitting (Oddaj v pregled)', () => {
  it('a completed, valid draft is submitted as one queued update of the form with review_state submitted', async () => {
    const form = { ...seasonForm({ review_state: '' }), version: 4 };
    const { db } = open({ form, indicators: fullAnswers(form) });
    // The device holds the form as the season chain stored it (the version the update is based on).
    await refreshRows(db, [form], { projectId: config.projectId, tableId: T.forms.id, inScope: () => true, requestedAt: Date.now() });
    const submit = await screen.findByRole('button', { name: slReview.move.submitted });
    expect(submit.hasAttribute('disabled')).toBe(false);
    fireEvent.click(submit);
    await screen.findByText(slReviewFarmer.review.submittedQueued);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'update',
      tableId: T.forms.id,
      id: form.id,
      properties: { [fc.review_state]: 'submitted', [fc.review_reason]: null },
    });
    // Based on the form's version (the server checks it).
    expect(queued[0]!.version).toBe(4);
  });

  it('is not offered for a form not marked completed, nor for one with a required answer missing', async () => {
    const form = seasonForm({ review_state: 'draft' }, false);
    open({ form, indicators: fullAnswers(form) });
    const submit = await screen.findByRole('button', { name: slReview.move.submitted });
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('submit-why').textContent).toBe(slReview.refused.notCompleted);
    cleanup();

    const partial = seasonForm({ review_state: 'draft' });
    open({ form: partial, indicators: fullAnswers(partial).slice(0, 2) });
    const again = await screen.findByRole('button', { name: slReview.move.submitted });
    expect(again.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('submit-why').textContent).toContain('Obrazca ni mogoče oddati, dokler ni izpolnjen');
  });

  it('is not offered after the season’s deadline', async () => {
    const s = season();
    const late = { ...s.duration, properties: { ...s.duration.properties, [T.durations.columns.submit_until]: '2020-06-30' } };
    const form = seasonForm({ review_state: 'draft' });
    open({ form, indicators: fullAnswers(form), duration: late });
    const submit = await screen.findByRole('button', { name: slReview.move.submitted });
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('submit-why').textContent).toBe('Rok za oddajo je potekel 30. 6. 2020.');
  });
});

describe('the lock while the form is with the adviser', () => {
  it('a submitted form is read-only for its farmer, with the reason in Slovenian', async () => {
    const form = seasonForm({ review_state: 'submitted' });
    open({ form, indicators: fullAnswers(form) });
    const note = await screen.findByTestId('read-only-note');
    expect(note.textContent).toContain(slReviewFarmer.review.locked(slReview.state.submitted));
    expect(screen.queryByRole('button', { name: slScreens.forms.save })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: slScreens.forms.markCompleted })).toBeNull();
    expect(screen.queryByRole('button', { name: slReview.move.submitted })).toBeNull();
    const radios = within(screen.getByTestId('indicator-lotus-corniculatus')).getAllByRole('radio');
    expect(radios.every((r) => r.hasAttribute('disabled') || r.getAttribute('aria-disabled') === 'true')).toBe(true);
    expect(screen.getByTestId('review-badge').textContent).toContain(slReview.state.submitted);
  });

  it('an editor may still correct it', async () => {
    const form = seasonForm({ review_state: 'submitted' });
    open({ form, indicators: fullAnswers(form), role: 'editor' });
    await screen.findByRole('button', { name: slScreens.forms.save });
    expect(screen.queryByTestId('read-only-note')).toBeNull();
    // The advisers' moves are not this screen's: no farmer moves for an editor.
    expect(screen.queryByTestId('farmer-moves')).toBeNull();
  });
});

describe('a returned form', () => {
  it('shows the adviser’s reason and opens at the named indicator, highlighted', async () => {
    const form = seasonForm({
      review_state: 'returned',
      review_reason: 'Preverite travniško kaduljo.',
      review_indicator: 'salvia-pratensis',
      return_until: '2099-07-10',
    });
    open({ form, indicators: fullAnswers(form) });
    const summary = await screen.findByTestId('review-summary');
    expect(within(summary).getByTestId('review-reason').textContent).toContain('Preverite travniško kaduljo.');
    expect(summary.textContent).toContain(slReviewFarmer.review.returnedAt('travniška kadulja'));
    const card = screen.getByTestId('indicator-salvia-pratensis');
    expect(card.getAttribute('data-highlight')).toBe('true');
    expect(card.textContent).toContain(slReviewFarmer.review.flagged);
    // The farmer may correct it again, and resubmit by the adviser's own deadline.
    expect(screen.queryByTestId('read-only-note')).toBeNull();
    expect(screen.getByTestId('farmer-moves').textContent).toContain(slReviewFarmer.review.returnUntil('10. 7. 2099'));
  });
});

describe('appealing (Vloži pritožbo)', () => {
  it('needs a reason; with one it is queued as one form update with review_state appealed', async () => {
    const s = season();
    const withAppeal = { ...s.duration, properties: { ...s.duration.properties, [T.durations.columns.appeal_days]: 15 } };
    const form = seasonForm({ review_state: 'rejected', review_reason: 'Premalo kazalnih rastlin.', reviewed_at: new Date().toISOString() });
    const { db } = open({ form, indicators: fullAnswers(form), duration: withAppeal });
    fireEvent.click(await screen.findByRole('button', { name: slReview.move.appealed }));
    fireEvent.click(screen.getByRole('button', { name: slReviewFarmer.review.appealSend }));
    expect((await within(screen.getByTestId('farmer-moves')).findByRole('alert')).textContent).toBe(
      `Za prehod v stanje »${slReview.state.appealed}« napišite razlog.`,
    );
    expect(await db.outbox.count()).toBe(0);
    fireEvent.input(screen.getByLabelText(slReviewFarmer.review.appealReason), { target: { value: 'Na poti je bilo 9 kazalnih rastlin.' } });
    fireEvent.click(screen.getByRole('button', { name: slReviewFarmer.review.appealSend }));
    await screen.findByText(slReviewFarmer.review.appealedQueued);
    const queued = await db.outbox.toArray();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      kind: 'update',
      tableId: T.forms.id,
      id: form.id,
      properties: { [fc.review_state]: 'appealed', [fc.review_reason]: 'Na poti je bilo 9 kazalnih rastlin.' },
    });
  });
});

describe('the payment preview on the form', () => {
  it('shows the band, the amount for the meadow’s hectares and what the next band needs, as an estimate', async () => {
    const form = seasonForm({ review_state: 'draft' });
    const indicators = fullAnswers(form);
    open({ form, indicators });
    const card = await screen.findByTestId('payment-card');
    const expected = paymentPreview(kind, { 'salvia-pratensis': true }, 2.5)!;
    expect(card.textContent).toContain(slReview.payment.title);
    expect(card.textContent).toContain(slReviewFarmer.payment.estimate);
    expect(card.textContent).toContain(slReview.payment.note);
    expect(within(card).getByTestId('payment-band').textContent).toBe(slReview.payment.band(expected.band.name));
    expect(within(card).getByTestId('payment-next').textContent).toBe(slReview.payment.plantsToNext(expected.next!.plants!, expected.next!.band.name));
    // Ticking one more plant moves the preview at once.
    fireEvent.click(within(screen.getByTestId('indicator-lotus-corniculatus')).getByRole('radio', { name: slScreens.forms.yes }));
    await waitFor(() =>
      expect(within(card).getByTestId('payment-next').textContent).toBe(slReview.payment.plantsToNext(expected.next!.plants! - 1, expected.next!.band.name)),
    );
  });
});
