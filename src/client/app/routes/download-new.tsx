/**
 * New download (seed §2 '/download/new'). Placeholder until issue 6: choose an extent on the map
 * and a zoom range, see the tile count and size estimate, then download with progress.
 */
import { sl } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { EmptyState } from '../../components/empty-state/empty-state';
import { BackIcon, MapIcon } from '../../components/icons/icons';
import { Page } from '../../components/page/page';
import type { ScreenProps } from '../router/routes';

export default function DownloadNewScreen(_props: ScreenProps) {
  return (
    <Page
      title={sl.screens.downloadNew.title}
      lead={sl.screens.downloadNew.lead}
      back={<Button href="#/download" kind="ghost" icon={BackIcon} text={sl.header.download} />}
    >
      <EmptyState icon={MapIcon}>
        <p>{sl.screens.downloadNew.empty}</p>
      </EmptyState>
    </Page>
  );
}
