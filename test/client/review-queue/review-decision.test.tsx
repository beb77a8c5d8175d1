/**
 * The adviser's decision panel on a form: the moves the rule offers (common/review.ts), a refused
 * move says why and queues nothing, an allowed one is ONE outbox update of the form (review columns
 * only, on the version the device holds; never reviewed_by/reviewed_at, never a comment). The
 * outbox is the real one over fake-indexeddb; no server answers (the drain is not started).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { useSaveEdits } from '../../../src/client/app/routes/screen-data';
import { ReviewDecision, type ReviewDecisionProps } from '../../../src/client/features/review-queue';
import { checkMove } from '../../../src/client/features/review-queue/review-move';
import { moveEdit } from '../../../src/client/lib/db/review-edit';
import { openOfflineDb, refreshRows, type OfflineDb, type StoredRecord } from '../../../src/client/lib/db';
import { readRow } from '../../../src/client/lib/db/model';
import { fillText, slReview, slReviewQueue } from '../../../src/common/i18n/sl';
import { FORM_KINDS } from '../../../src/common/scheme/form-kinds';
import type { WireRecord } from '../../../src/common/schemas/wire';
import { config, renderWithStore, row } from '../screens/fixtures';

const F = config.tables.forms;
const col = (name: keyof typeof F.columns) => String(F.columns[name]);
const TODAY = '2026-06-15';

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** A form as the server holds it, stored on the device as a season read stores it. */
async function storedForm(state: string, extra: Record<string, unknown> = {}): Promise<{ db: OfflineDb; record: StoredRecord }> {
  const db = openOfflineDb({ name: `review-decision-${Date.now()}-${Math.random()}` });
  dbs.push(db);
  const record = row(
    F.id,
    {
      [col('parent')]: 10_000_050,
      [col('form_id')]: FORM_KINDS.travnik.id,
      [col('score')]: 72,
      [col('completed')]: true,
      [col('review_state')]: state,
      [col('reviewed_by')]: 'kmet1@example.si',
      [col('reviewed_at')]: '2026-06-10T08:00:00.000Z',
      ...extra,
    },
    { version: 3 },
  );
  await refreshRows(db, [record as WireRecord], { projectId: config.projectId, tableId: F.id });
  return { db, record };
}

type Props = Omit<ReviewDecisionProps, 'saveEdits' | 'config' | 'form' | 'outbox'>;

/** Changes the outbox mirror the panel is given, as features/sync's summary does after a drain. */
let setPending: (n: number) => void = () => undefined;

function show(db: OfflineDb, record: StoredRecord, props: Partial<Props> = {}) {
  function Harness() {
    const saveEdits = useSaveEdits();
    const [pending, set] = useState(0);
    setPending = set;
    return (
      <ReviewDecision
        config={config}
        form={readRow(config, 'forms', record)}
        role="editor"
        online
        saveEdits={saveEdits}
        outbox={{ pending, attention: [] }}
        today={TODAY}
        {...props}
      />
    );
  }
  return renderWithStore(<Harness />, { db });
}

/** Waits until the panel has read the saved move's fate from the outbox. */
const outcomeRead = (kind: string) => waitFor(() => expect(screen.getByTestId('review-outcome').getAttribute('data-outcome')).toBe(kind));
const moveButtons = () =>
  within(screen.getByRole('group', { name: slReviewQueue.decision.moves }))
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('the decision panel', () => {
  it('offers the editor’s moves of the state, with the state as a word', async () => {
    const { db, record } = await storedForm('submitted');
    show(db, record);
    expect(screen.getByTestId('review-state').textContent).toBe(slReview.state.submitted);
    expect(moveButtons()).toEqual([slReview.move.approved, slReview.move.returned, slReview.move.rejected]);
    cleanup();
    const approved = await storedForm('approved', { [col('review_reason')]: 'Vse ustreza.' });
    show(approved.db, approved.record);
    expect(moveButtons()).toEqual([slReview.move.reopen]);
    expect(screen.getByText('Vse ustreza.')).toBeTruthy();
  });

  it('a return without a reason is refused in Slovenian and nothing is queued', async () => {
    const { db, record } = await storedForm('submitted');
    show(db, record);
    fireEvent.click(screen.getByRole('button', { name: slReview.move.returned }));
    fireEvent.click(screen.getByRole('button', { name: slReviewQueue.decision.save }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      fillText(slReview.refused.reasonMissing, { from: slReview.state.submitted, to: slReview.state.returned }),
    );
    expect(await db.outbox.count()).toBe(0);
    // A deadline before today is refused too.
    fireEvent.input(screen.getByLabelText(slReviewQueue.decision.reason), { target: { value: 'Manjka fotografija.' } });
    fireEvent.input(screen.getByLabelText(slReviewQueue.decision.returnUntil), { target: { value: '2026-06-01' } });
    fireEvent.click(screen.getByRole('button', { name: slReviewQueue.decision.save }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(slReviewQueue.decision.returnUntilPast));
    expect(await db.outbox.count()).toBe(0);
  });

  it('a return with reason, indicator and deadline is one outbox update of the form on its version', async () => {
    const { db, record } = await storedForm('submitted');
    const moved: unknown[] = [];
    show(db, record, { onMoved: (m) => moved.push(m.to) });
    fireEvent.click(screen.getByRole('button', { name: slReview.move.returned }));
    fireEvent.input(screen.getByLabelText(slReviewQueue.decision.reason), { target: { value: '  Kadulja na fotografiji ni vidna.  ' } });
    const picker = screen.getByLabelText(slReviewQueue.decision.indicator);
    // The form kind's indicators, by name.
    expect(within(picker).getByRole('option', { name: FORM_KINDS.travnik.indicators[0]!.name })).toBeTruthy();
    fireEvent.change(picker, { target: { value: 'salvia-pratensis' } });
    fireEvent.input(screen.getByLabelText(slReviewQueue.decision.returnUntil), { target: { value: '2026-06-30' } });
    fireEvent.click(screen.getByRole('button', { name: slReviewQueue.decision.save }));
    await outcomeRead('waiting');
    expect(screen.getByTestId('review-outcome').textContent).toBe(slReviewQueue.decision.waiting);
    const items = await db.outbox.toArray();
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(item).toMatchObject({ kind: 'update', tableId: F.id, id: record.id, version: 3, status: 'pending' });
    expect(item.properties).toMatchObject({
      [col('review_state')]: 'returned',
      [col('review_reason')]: 'Kadulja na fotografiji ni vidna.',
      [col('review_indicator')]: 'salvia-pratensis',
      [col('return_until')]: '2026-06-30',
      // The server's columns are sent as the device holds them, never set by the client.
      [col('reviewed_by')]: 'kmet1@example.si',
      [col('reviewed_at')]: '2026-06-10T08:00:00.000Z',
    });
    expect(moved).toEqual(['returned']);
    // No comment row: the server writes the reason into the thread.
    expect(items.filter((i) => i.tableId === config.tables.comments.id)).toHaveLength(0);
  });

  it('approving needs no reason; the edit clears an earlier return’s indicator and deadline', async () => {
    const { db, record } = await storedForm('submitted', { [col('review_indicator')]: 'solidago', [col('return_until')]: '2026-06-20' });
    show(db, record);
    fireEvent.click(screen.getByRole('button', { name: slReview.move.approved }));
    expect(screen.getByLabelText(slReviewQueue.decision.reasonOptional)).toBeTruthy();
    expect(screen.queryByLabelText(slReviewQueue.decision.indicator)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: slReviewQueue.decision.save }));
    await outcomeRead('waiting');
    const [item] = await db.outbox.toArray();
    expect(item!.properties).toMatchObject({
      [col('review_state')]: 'approved',
      [col('review_reason')]: null,
      [col('review_indicator')]: null,
      [col('return_until')]: null,
    });
  });

  it('readers and farmers see the state and the last decision, without moves', async () => {
    const { db, record } = await storedForm('returned', { [col('review_reason')]: 'Popravite oceno.' });
    show(db, record, { role: 'reader' });
    expect(screen.getByTestId('review-state').textContent).toBe(slReview.state.returned);
    expect(screen.getByText('Popravite oceno.')).toBeTruthy();
    expect(screen.queryByRole('group', { name: slReviewQueue.decision.moves })).toBeNull();
  });

  it('follows the saved move: refused with the server’s reason, then sent once acknowledged', async () => {
    const { db, record } = await storedForm('submitted');
    show(db, record);
    fireEvent.click(screen.getByRole('button', { name: slReview.move.approved }));
    fireEvent.click(screen.getByRole('button', { name: slReviewQueue.decision.save }));
    await outcomeRead('waiting');
    const [item] = await db.outbox.toArray();
    // The drain marks it refused with the server's detail (named by its operation in a bulk call).
    await db.outbox.update(item!.seq!, {
      status: 'failed',
      error: { status: 400, message: 'Bad Request', detail: 'operations[0]: Rok za pregled je potekel.' },
    });
    act(() => setPending(1));
    await waitFor(() => expect(screen.getByTestId('review-outcome').textContent).toBe(slReviewQueue.decision.refused('Rok za pregled je potekel.')));
    // Sent again and acknowledged: the item left the outbox.
    await db.outbox.delete(item!.seq!);
    act(() => setPending(0));
    await waitFor(() => expect(screen.getByTestId('review-outcome').textContent).toBe(slReviewQueue.decision.sent));
  });
});

describe('the move rule as the panel applies it', () => {
  const form = { review_state: 'appealed', reviewed_at: '2026-06-10T08:00:00.000Z', return_until: null, review_reason: 'Ocena je prenizka.' };
  it('an appeal is decided with a reason only; the edit names only the review columns', () => {
    expect(checkMove(form, { to: 'approved' }, TODAY)).toBe(
      fillText(slReview.refused.reasonMissing, { from: slReview.state.appealed, to: slReview.state.approved }),
    );
    expect(checkMove(form, { to: 'approved', reason: 'Pritožba je utemeljena.' }, TODAY)).toBeNull();
    // The appeal's own reason sent back is no reason (the server would not carry it).
    expect(checkMove(form, { to: 'rejected', reason: ' Ocena je prenizka. ' }, TODAY)).toBe(slReviewQueue.decision.sameReason);
    // No move to the state the form is in.
    expect(checkMove(form, { to: 'appealed', reason: 'x' }, TODAY)).toBe(
      fillText(slReview.refused.transition, { from: slReview.state.appealed, to: slReview.state.appealed }),
    );
    expect(checkMove(form, { to: 'returned', reason: 'x' }, TODAY)).toBe(
      fillText(slReview.refused.transition, { from: slReview.state.appealed, to: slReview.state.returned }),
    );
    const edit = moveEdit(config, 10_000_001, { to: 'rejected', reason: 'Ne' });
    expect(edit).toMatchObject({ kind: 'update', tableId: F.id, id: 10_000_001 });
    expect(Object.keys((edit as { properties: object }).properties).sort()).toEqual(
      [col('review_state'), col('review_reason'), col('review_indicator'), col('return_until')].sort(),
    );
  });
});
