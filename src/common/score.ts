import { SCORE_GOOD_ABOVE, SCORE_MEDIUM_ABOVE } from './constants';

export type ScoreClass = 'good' | 'medium' | 'bad';

/** Score classification: above 66 good, above 33 medium, else bad. */
export function classifyScore(score: number): ScoreClass {
  if (score > SCORE_GOOD_ABOVE) return 'good';
  if (score > SCORE_MEDIUM_ABOVE) return 'medium';
  return 'bad';
}
