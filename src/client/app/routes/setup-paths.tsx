/** Transects ('/setup/paths'): features/setup's screen with features/map's map and drawing tool. */
import { slSetup } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { PathsSetupScreen } from '../../features/setup';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';
import { useSetupTable } from './setup-data';
import { useDrawSlots } from './setup-map';

export default function SetupPathsRoute({ params }: ScreenProps) {
  const { config, ...table } = useSetupTable('paths', params.recordId);
  const areas = useSetupTable('areas');
  const { slots } = useDrawSlots(config);
  return (
    <Page title={slSetup.paths.title} lead={slSetup.paths.lead} back={<SetupBack />}>
      {config ? <PathsSetupScreen config={config} {...table} areas={areas.rows} {...slots} /> : <Loading />}
    </Page>
  );
}
