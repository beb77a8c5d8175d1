/**
 * Results ('/results'): features/results' screen over the season rows (features/season), asking
 * the server for all farmers' rows unless features/sync knows it is out of reach; a farmer's
 * seasons also show each form's review state and the payment per meadow (features/review).
 */
import { FarmerReviewResults } from '../../features/review';
import { ResultsScreen, useResultsView } from '../../features/results';
import { selectBrowserOnline, selectServerReachable } from '../../features/sync';
import { useAppSelector } from '../hooks';
import type { ScreenProps } from '../router/routes';
import { useSeasonView } from './screen-data';

export default function ResultsRoute(_props: ScreenProps) {
  const view = useSeasonView();
  // Like the season chain: ask the server unless it is known to be out of reach (before the first
  // probe too, so a fresh start shows 'Nalagam...' rather than an empty device copy).
  const browserOnline = useAppSelector(selectBrowserOnline);
  const serverReachable = useAppSelector(selectServerReachable);
  const results = useResultsView(view, browserOnline && serverReachable !== false);
  if (!view.config || !results) return null;
  return (
    <>
      <ResultsScreen {...results.screen} />
      {results.ownSeasons ? <FarmerReviewResults config={view.config} areas={view.areas} paths={view.paths} seasons={results.ownSeasons} /> : null}
    </>
  );
}
