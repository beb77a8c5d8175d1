/**
 * The editors' audit trail ('/setup/audit'): features/audit's screen, given the farmers the
 * editor sees (features/setup's farmers rows, device copy when offline) for its farmer filter.
 * Readers and farmers are kept out by the route guard (and the server answers them 403/404).
 */
import { useMemo } from 'react';
import { slAudit } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { AuditScreen, auditFarmers, recordHref } from '../../features/audit';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';
import { useSetupTable } from './setup-data';

export default function SetupAuditRoute(_props: ScreenProps) {
  const { config, rows, online } = useSetupTable('farmers');
  const farmers = useMemo(() => (config ? auditFarmers(config, rows) : []), [config, rows]);
  return (
    <Page title={slAudit.title} lead={slAudit.lead} back={<SetupBack />}>
      {config ? <AuditScreen projectId={config.projectId} tables={config.tables} farmers={farmers} online={online} recordHref={recordHref} /> : <Loading />}
    </Page>
  );
}
