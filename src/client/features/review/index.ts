/** features/review: the farmer's side of a form's review (state, thread, moves, payment preview, to-do). */
export { ReviewSummary } from './review-summary';
export { ReviewThread } from './review-thread';
export { FarmerMoves } from './farmer-moves';
export { PaymentCard } from './payment-card';
export { reviewedForm, seasonDeadlines, storedValues, threadOf } from './review-rows';
export { farmerTodo } from './farmer-todo';
export { ReviewTodo } from './review-todo';
export { buildReviewResults, ReviewResults } from './review-results';
export { FormReviewNote } from './form-review-note';
