/**
 * features/review-queue — the advisers' side of the review loop: the "Pregled" screen (the forms
 * waiting for advisers, with bulk approval), the decision panel for a form's screen, the count of
 * waiting forms for the navigation, and the one way a move is saved (review-move.ts).
 */
export { ReviewDecision, type ReviewDecisionProps } from './review-decision';
export { ReviewQueueScreen } from './review-queue-screen';
export { useWaitingCount } from './use-review-queue';
