/** features/farmers: an editor's or reader's list of farmers with their season progress. */
export { FarmersPanel, useFarmersProgress } from './farmers-panel';
