/**
 * The review on a form's screen (features/forms' `renderReview`, combined by app/routes): the state
 * and an adviser's decision above the checklist; the payment preview, a farmer's moves and the
 * thread below the form. A farmer's move is one update of the form (lib/db/review-edit.ts), a reply
 * one comment insert, both through the route's outbox save.
 */
import type { ReactNode } from 'react';
import { dayInSlovenia, type ReviewState, type SeasonDeadlines } from '../../../common/review';
import type { AppConfig, FormKind } from '../../../common/schemas/config';
import type { FormValues } from '../../../common/scheme/scoring';
import type { StoredRecord } from '../../lib/db/database';
import { readRow, toProperties, type Form } from '../../lib/db/model';
import type { LocalEdit, SavedEdit } from '../../lib/db/outbox';
import { refKeysFor } from '../../lib/db/refs';
import { moveEdit } from '../../lib/db/review-edit';
import { FarmerMoves } from './farmer-moves';
import { PaymentCard } from './payment-card';
import { reviewedForm, seasonDeadlines, storedValues, threadOf } from './review-rows';
import { ReviewSummary } from './review-summary';
import { ReviewThread } from './review-thread';

export interface FormReviewArgs {
  config: AppConfig;
  form: StoredRecord | null;
  kind: FormKind | undefined;
  /** The form's stored indicator rows (what a submit sends for review). */
  indicators: readonly StoredRecord[];
  /** The comments its thread is read from. */
  comments: readonly StoredRecord[];
  areaHa: number | null;
  /** The form is of this season: only then a farmer moves it. */
  ofThisSeason: boolean;
  rows: {
    role: 'editor' | 'reader' | 'farmer' | null;
    email: string | null;
    online: boolean;
    duration: StoredRecord | null;
    farmers: readonly StoredRecord[];
    farmerId: number | null;
  };
  saveEdits: (edits: LocalEdit[]) => Promise<SavedEdit[]>;
  /** Editors: the adviser's decision on the form's row (features/review-queue, passed in by app/routes). */
  decision?: (args: { form: Form; season: SeasonDeadlines | null; today: string }) => ReactNode;
}

/** What the review pieces need of the form being edited (features/forms' ReviewContext). */
interface FormContext {
  dirty: boolean;
  values: FormValues;
  showIndicator: (key: string) => void;
}

export function formReviewSlots(args: FormReviewArgs): (context: FormContext) => { top?: ReactNode; bottom?: ReactNode } {
  const { config, form, kind, rows, saveEdits } = args;
  const review = form ? reviewedForm(config, form) : null;
  const thread = form ? threadOf(config, args.comments, form.id) : [];
  const farmerRow = rows.farmers.find((f) => f.id === rows.farmerId);
  const farmer = rows.role === 'farmer';
  const today = dayInSlovenia(new Date());
  const onMove = async (to: ReviewState, reason: string | null) => {
    if (!form) return;
    // One update of the form on its stored version (the outbox carries it), built as an adviser's
    // decision is (lib/db/review-edit.ts).
    await saveEdits([moveEdit(config, form.id, { to, reason })]);
  };
  const onReply = async (text: string, indicator: string | null) => {
    if (!form) return null;
    const saved = await saveEdits([
      {
        kind: 'insert',
        projectId: config.projectId,
        tableId: config.tables.comments.id,
        properties: toProperties(config, 'comments', { parent: form.id, text, indicator: indicator ?? undefined }),
        refs: refKeysFor(config, 'comments'),
      },
    ]);
    const record = saved[0]?.record;
    return record ? readRow(config, 'comments', record) : null;
  };
  return (context) => {
    if (!form || !kind || !review) return {};
    const stored = readRow(config, 'forms', form);
    return {
      // An adviser decides at the top, before the checklist they read to decide.
      top: (
        <>
          <ReviewSummary form={review} kind={kind} onShowIndicator={context.showIndicator} />
          {args.decision?.({ form: stored, season: seasonDeadlines(config, rows.duration), today }) ?? null}
        </>
      ),
      // Below the form, not beside the score: on a phone that is the sticky bar, kept two lines high.
      bottom: (
        <>
          <PaymentCard kind={kind} values={context.values} areaHa={args.areaHa} />
          {farmer && args.ofThisSeason ? (
            <FarmerMoves
              form={review}
              kind={kind}
              values={storedValues(config, kind, form.id, args.indicators)}
              completed={stored.completed === true}
              dirty={context.dirty}
              season={seasonDeadlines(config, rows.duration)}
              today={today}
              online={rows.online}
              onMove={onMove}
            />
          ) : null}
          <ReviewThread
            comments={thread}
            kind={kind}
            ownEmail={rows.email}
            farmerEmail={farmerRow ? readRow(config, 'farmers', farmerRow).email : null}
            online={rows.online}
            onReply={farmer || rows.role === 'editor' ? onReply : undefined}
            onShowIndicator={context.showIndicator}
          />
        </>
      ),
    };
  };
}
