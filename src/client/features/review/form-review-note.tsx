/** A form's review state in a list of forms (the path screen): the badge, and a returned form's reason. */
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { ReviewBadge } from './review-badge';
import { reviewedForm } from './review-rows';

export function FormReviewNote({ config, form }: { config: AppConfig; form: StoredRecord }) {
  const review = reviewedForm(config, form);
  return (
    <span className="path-form__review">
      <ReviewBadge state={review.review_state} size="small" />
      {review.review_state === 'returned' && review.review_reason ? (
        <span className="path-form__reason" data-testid={`path-form-reason-${form.id}`}>
          {review.review_reason}
        </span>
      ) : null}
    </span>
  );
}
