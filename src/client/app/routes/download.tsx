/**
 * Download (seed §2 '/download'). Placeholder until issue 6: the stored extents with their size,
 * and the way to a new download.
 */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { MapIcon, PlusIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function DownloadScreen(_props: ScreenProps) {
  const add = <Button href="#/download/new" icon={PlusIcon} text={sl.screens.download.add} />;
  return (
    <Page title={sl.screens.download.title} lead={sl.screens.download.lead} actions={add}>
      <EmptyState icon={MapIcon}>
        <p>{sl.screens.download.empty}</p>
      </EmptyState>
    </Page>
  );
}
