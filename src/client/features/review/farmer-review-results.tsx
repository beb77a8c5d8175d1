/** A farmer's results page part: each form's review state and the informative payment per meadow and season. */
import { useMemo } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { buildReviewResults, ReviewResults, type SeasonsRows } from './review-results';

export interface FarmerReviewResultsProps {
  config: AppConfig;
  areas: readonly StoredRecord[];
  paths: readonly StoredRecord[];
  /** The farmer's paths over all seasons (features/results' season history, passed in by app/routes). */
  seasons: SeasonsRows;
}

export function FarmerReviewResults({ config, areas, paths, seasons }: FarmerReviewResultsProps) {
  const rows = useMemo(() => buildReviewResults(config, { areas, paths }, seasons), [config, areas, paths, seasons]);
  return (
    <div className="page review-results-page">
      <ReviewResults rows={rows} />
    </div>
  );
}
