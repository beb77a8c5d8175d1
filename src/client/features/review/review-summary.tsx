/**
 * The head of a form's review: its state (word and icon), the adviser's last reason, and for a
 * returned form the indicator to correct (a button that shows it) and its own deadline.
 */
import { slReviewFarmer } from '../../../common/i18n/sl';
import type { ReviewedForm } from '../../../common/review';
import type { FormKind } from '../../../common/schemas/config';
import { Button } from '../../components/button/button';
import { ReviewBadge } from './review-badge';

export interface ReviewSummaryProps {
  form: ReviewedForm & { review_reason: string | null; review_indicator: string | null };
  kind: FormKind | undefined;
  onShowIndicator?: (key: string) => void;
}

export function ReviewSummary({ form, kind, onShowIndicator }: ReviewSummaryProps) {
  const t = slReviewFarmer.review;
  const state = form.review_state;
  // The reason of the last move; an appeal's reason is the farmer's own and stands in the thread.
  const reason = state === 'returned' || state === 'rejected' || state === 'approved' ? form.review_reason : null;
  const indicator = state === 'returned' && form.review_indicator ? form.review_indicator : null;
  const name = indicator ? (kind?.indicators.find((d) => d.key === indicator)?.name ?? indicator) : null;
  return (
    <section className={`card review-summary review-summary--${state}`} aria-label={t.title} data-testid="review-summary">
      <p className="review-summary__state">
        <ReviewBadge state={state} />
      </p>
      {reason ? (
        <div className="review-summary__reason" data-testid="review-reason">
          <p className="review-summary__label">{t.lastReason}</p>
          <p>{reason}</p>
        </div>
      ) : null}
      {indicator && name ? (
        <p className="review-summary__indicator">
          <strong>{t.returnedAt(name)}</strong>{' '}
          {onShowIndicator ? <Button type="button" kind="secondary" size="small" text={t.showIndicator} onClick={() => onShowIndicator(indicator)} /> : null}
        </p>
      ) : null}
    </section>
  );
}
