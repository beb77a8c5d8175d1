/**
 * The editors' audit trail ('/setup/audit'): features/audit's screen, given the farmers the
 * editor sees (features/setup's farmers rows, device copy when offline) for its farmer filter.
 * Readers and farmers are kept out by the route guard (and the server answers them 403/404).
 */
import { useMemo } from 'react';
import { slAudit } from '../../../common/i18n/sl';
import { Loading } from '../../components/loading/loading';
import { Page } from '../../components/page/page';
import { AuditScreen } from '../../features/audit';
import { isLocalId } from '../../../common/record-id';
import { readRow } from '../../lib/db/model';
import { routeHref } from '../../lib/links';
import type { ScreenProps } from '../router/routes';
import { SetupBack } from './setup-back';
import { useSetupTable } from './setup-data';

/** The screens a changed record opens on: a form's own screen, the set-up editors of the rest. */
const RECORD_LINKS: Readonly<Record<string, (recordId: number) => string>> = {
  forms: (formId) => routeHref('form', { formId }),
  durations: (recordId) => routeHref('setup-season', { recordId }),
  farmers: (recordId) => routeHref('setup-farmer', { recordId }),
  areas: (recordId) => routeHref('setup-area', { recordId }),
  paths: (recordId) => routeHref('setup-path', { recordId }),
};

function recordHref(table: string, recordId: number): string | undefined {
  return RECORD_LINKS[table]?.(recordId);
}

export default function SetupAuditRoute(_props: ScreenProps) {
  const { config, rows, online } = useSetupTable('farmers');
  const farmers = useMemo(() => {
    if (!config) return [];
    return (
      rows
        // A farmer made offline and not delivered yet has no changes on the server.
        .filter((f) => !isLocalId(f.id))
        .map((f) => ({ id: f.id, name: readRow(config, 'farmers', f).name || `#${f.id}` }))
        .sort((a, b) => a.name.localeCompare(b.name, 'sl') || a.id - b.id)
    );
  }, [config, rows]);
  return (
    <Page title={slAudit.title} lead={slAudit.lead} back={<SetupBack />}>
      {config ? <AuditScreen projectId={config.projectId} tables={config.tables} farmers={farmers} online={online} recordHref={recordHref} /> : <Loading />}
    </Page>
  );
}
