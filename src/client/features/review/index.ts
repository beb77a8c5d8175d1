/** features/review: the farmer's side of a form's review (state, thread, moves, payment preview, to-do). */
export { reviewedForm } from './review-rows';
export { farmerTodo } from './farmer-todo';
export { useFarmerTodo } from './use-farmer-todo';
export { FarmerReviewResults } from './farmer-review-results';
export { FormReviewNote } from './form-review-note';
export { formReviewSlots } from './form-review-slots';
