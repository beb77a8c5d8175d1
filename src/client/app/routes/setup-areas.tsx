/** Meadows ('/setup/areas'): features/setup's screen with features/map's map and drawing tool. */
import { slSetup } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { AreasScreen } from '../../features/setup';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';
import { useSetupTable } from './setup-data';
import { useDrawSlots } from './setup-map';

export default function SetupAreasRoute({ params }: ScreenProps) {
  const { config, ...table } = useSetupTable('areas', params.recordId);
  const farmers = useSetupTable('farmers');
  const { slots } = useDrawSlots(config);
  return (
    <Page title={slSetup.areas.title} lead={slSetup.areas.lead} back={<SetupBack />}>
      {config ? <AreasScreen config={config} {...table} farmers={farmers.rows} {...slots} /> : <Loading />}
    </Page>
  );
}
