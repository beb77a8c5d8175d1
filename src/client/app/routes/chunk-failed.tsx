/** A screen's code could not be loaded; a reload fetches it again (or from the service worker). */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { ErrorIcon, SyncIcon } from '../../components/icons/icons';

export function ChunkFailedScreen() {
  return (
    <EmptyState icon={ErrorIcon} tone="warning" action={<Button icon={SyncIcon} text={sl.common.retry} onClick={() => window.location.reload()} />}>
      <p role="alert">{sl.router.chunkFailed}</p>
    </EmptyState>
  );
}
