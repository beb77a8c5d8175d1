/**
 * A form's review state as a badge: always the word (slReview.state) with an icon, never colour
 * alone (docs/architecture.md, Look and feel).
 */
import { slReview, slReviewFarmer } from '../../../common/i18n/sl';
import type { ReviewState } from '../../../common/review';
import { BackIcon, CommentInfoIcon, ErrorIcon, FormIcon, SuccessIcon, SyncIcon } from '../../components/icons/icons';

const ICONS = {
  draft: FormIcon,
  submitted: SyncIcon,
  returned: BackIcon,
  approved: SuccessIcon,
  rejected: ErrorIcon,
  appealed: CommentInfoIcon,
} as const;

export function ReviewBadge({ state, size = 'normal' }: { state: ReviewState; size?: 'normal' | 'small' }) {
  const Icon = ICONS[state];
  return (
    <span className={`review-badge review-badge--${state} review-badge--${size}`} data-review-state={state} data-testid="review-badge">
      <Icon size={size === 'small' ? 16 : 20} aria-hidden="true" />
      <span className="visually-hidden">{slReviewFarmer.stateLabel}: </span>
      <span>{slReview.state[state]}</span>
    </span>
  );
}
