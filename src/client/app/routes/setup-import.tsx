/** Import ('/setup/import', editors, online only): features/setup's preview → mapping → dry run → commit. */
import { slSetup } from '../../../common/i18n/sl';
import { Page } from '../../components/page/page';
import { ImportScreen } from '../../features/setup';
import { selectIsOnline } from '../../features/sync';
import { useAppSelector } from '../hooks';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';

export default function SetupImportRoute(_props: ScreenProps) {
  const online = useAppSelector(selectIsOnline);
  return (
    <Page title={slSetup.import.title} lead={slSetup.import.lead} back={<SetupBack />}>
      <ImportScreen online={online} />
    </Page>
  );
}
