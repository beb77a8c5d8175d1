/** The season set-up menu ('/setup'): editors change, readers look; farmers are kept out by the route guard. */
import { slSetup } from '../../../common/i18n/sl';
import { Page } from '../../components/page/page';
import { SetupHub } from '../../features/setup';
import { useRouteAccess } from '../bootstrap/route-access';
import type { ScreenProps } from '../router/routes';

export default function SetupRoute(_props: ScreenProps) {
  const { role } = useRouteAccess();
  return (
    <Page title={slSetup.hub.title} lead={slSetup.hub.lead}>
      <SetupHub readOnly={role !== 'editor'} />
    </Page>
  );
}
