/**
 * What the set-up screens (routes setup-*.tsx) read from several features, gathered once: the
 * rows of one table (features/setup), the user's role (readers get the screens read-only),
 * connectivity and the outbox (features/sync) — saves through the outbox, and the table's edits
 * the server refused, with its reason.
 */
import { useCallback, useMemo, useState } from 'react';
import type { TableKey } from '../../../common/schemas/project';
import { attentionDetails, selectAttentionItems } from '../../features/sync';
import { useTableRows, type OpenRecord, type RefusedEdit, type SetupScreenProps } from '../../features/setup';
import type { LocalEdit, SavedEdit } from '../../lib/db/outbox';
import { useRouteAccess } from '../bootstrap/route-access';
import { useAppSelector } from '../hooks';
import { useRouter } from '../router/router';
import { routeHref, type RouteWithParam, type RouteWithoutParams } from '../../lib/links';
import { useSaveEdits, useSeasonView } from './screen-data';

/** The list route and the record route of each set-up table. */
const SETUP_ROUTES: Partial<Record<TableKey, { list: RouteWithoutParams; record: RouteWithParam<'recordId'> }>> = {
  durations: { list: 'setup-seasons', record: 'setup-season' },
  farmers: { list: 'setup-farmers', record: 'setup-farmer' },
  areas: { list: 'setup-areas', record: 'setup-area' },
  paths: { list: 'setup-paths', record: 'setup-path' },
};

/**
 * The rows of one set-up table and what its screen needs. `recordId` is the route's record
 * parameter (the screen's own table; absent for a table a screen only lists beside it).
 */
export function useSetupTable(table: TableKey, recordId?: string): Omit<SetupScreenProps, 'config'> & { config: SetupScreenProps['config'] | null } {
  const { navigate } = useRouter();
  const view = useSeasonView();
  const { role } = useRouteAccess();
  const saveEdits = useSaveEdits();
  const { config } = view;
  // Read again after each save here, and when a delivery (or another screen's save) changes the
  // pending count or a season load ran.
  const [saves, setSaves] = useState(0);
  const { rows, loaded } = useTableRows(config, table, view.online, `${saves}|${view.pending}|${view.loadedAt}`);
  const attention = useAppSelector(selectAttentionItems);
  const tableId = config?.tables[table].id;
  const refused = useMemo<RefusedEdit[]>(
    () =>
      attention
        .filter((item) => item.tableId === tableId && item.status === 'failed')
        .map((item) => {
          // The server's own reason (a rule's Slovenian text) when it gave one.
          const { reason, detail } = attentionDetails(config ?? null, item);
          return { id: item.id, message: detail ?? reason };
        }),
    [attention, tableId, config],
  );
  const save = useCallback(
    async (edits: LocalEdit[]): Promise<SavedEdit[]> => {
      try {
        return await saveEdits(edits);
      } finally {
        setSaves((n) => n + 1);
      }
    },
    [saveEdits],
  );
  const openId: OpenRecord = recordId === undefined ? null : recordId === 'new' ? 'new' : Number(recordId);
  const go = useCallback(
    (to: OpenRecord) => {
      const routes = SETUP_ROUTES[table];
      if (!routes) return;
      // Back to the list replaces the editor's address: the back button then leaves the list.
      void navigate(to === null ? routeHref(routes.list) : routeHref(routes.record, { recordId: to }), { replace: to === null });
    },
    [navigate, table],
  );
  return { config, rows, loaded, readOnly: role !== 'editor', online: view.online, save, refused, openId, go };
}
