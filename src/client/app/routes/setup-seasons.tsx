/** Seasons ('/setup/seasons'): features/setup's screen over all `durations` rows, saved through the outbox. */
import { slSetup } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { SeasonsScreen } from '../../features/setup';
import { localDate } from '../../features/season';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';
import { useSetupTable } from './setup-data';

export default function SetupSeasonsRoute({ params }: ScreenProps) {
  const { config, ...table } = useSetupTable('durations', params.recordId);
  return (
    <Page title={slSetup.seasons.title} lead={slSetup.seasons.lead} back={<SetupBack />}>
      {config ? <SeasonsScreen config={config} {...table} today={localDate(Date.now())} /> : <Loading />}
    </Page>
  );
}
