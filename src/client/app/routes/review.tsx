/**
 * The advisers' review queue ('/review'): features/review-queue's "Pregled" over the app's outbox
 * save (screen-data.ts) and the outbox's mirror (features/sync), so approvals made here are
 * ordinary outbox edits, followed until the server accepted or refused them. Farmers are kept out
 * by the route guard; readers see the list without actions.
 */
import { slReviewQueue } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { ReviewQueueScreen } from '../../features/review-queue';
import { selectAttentionItems } from '../../features/sync';
import { useAppSelector } from '../hooks';
import { routeHref } from '../../lib/links';
import type { ScreenProps } from '../router/routes';
import { useSaveEdits, useSeasonView } from './screen-data';

const formHref = (formId: number) => routeHref('form', { formId });

export default function ReviewRoute(_props: ScreenProps) {
  const { config, role, online, pending } = useSeasonView();
  const attention = useAppSelector(selectAttentionItems);
  const saveEdits = useSaveEdits();
  return (
    <Page title={slReviewQueue.title} lead={slReviewQueue.lead} className="page--wide">
      {config ? (
        <ReviewQueueScreen config={config} role={role} online={online} saveEdits={saveEdits} outbox={{ pending, attention }} formHref={formHref} />
      ) : (
        <Loading />
      )}
    </Page>
  );
}
