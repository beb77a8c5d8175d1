/** Farmers ('/setup/farmers'): features/setup's screen over all `farmers` rows, with their accounts. */
import { slSetup } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { FarmersSetupScreen } from '../../features/setup';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';
import { useSetupTable } from './setup-data';

export default function SetupFarmersRoute({ params }: ScreenProps) {
  const { config, ...table } = useSetupTable('farmers', params.recordId);
  return (
    <Page title={slSetup.farmers.title} lead={slSetup.farmers.lead} back={<SetupBack />}>
      {config ? <FarmersSetupScreen config={config} {...table} /> : <Loading />}
    </Page>
  );
}
