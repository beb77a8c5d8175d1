/**
 * A form that is not in the current season (opened from results or a path's earlier seasons):
 * read from the device copy, which features/results keeps refreshed for earlier seasons. A device
 * that has not read that season yet (opened by its address on a fresh device) asks the server
 * when online and keeps the answer on the device, so the form opens offline next time.
 */
import { useEffect, useState } from 'react';
import { eq } from '../../../common/filter';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch, useOfflineDb } from '../../app/hooks';
import type { StoredRecord } from '../../lib/db/database';
import { searchAllRecords } from '../../lib/api/search-all';
import { readRows, refreshRows } from '../../lib/db/local-data';
import { readRow } from '../../lib/db/model';

/** `refreshKey`: read again when it changes (e.g. the season was reloaded after a delivery). */
export function useStoredForm(
  config: AppConfig | null,
  formId: number,
  enabled: boolean,
  refreshKey: unknown = null,
  online = false,
): { form: StoredRecord | null; indicators: StoredRecord[]; done: boolean } {
  const dispatch = useAppDispatch();
  const db = useOfflineDb();
  const [state, setState] = useState<{ form: StoredRecord | null; indicators: StoredRecord[]; done: boolean }>({ form: null, indicators: [], done: false });
  useEffect(() => {
    if (!config || !enabled) return undefined;
    let cancelled = false;
    const isChild = (r: StoredRecord) => readRow(config, 'indicators', r).parent === formId;
    // One transaction: an acknowledgement committing between the two reads would leave a form
    // read under its offline id with children that already name its server id.
    const readDevice = () =>
      db.transaction('r', db.features, async () => {
        const [form] = await readRows(db, config.tables.forms.id, (r) => r.id === formId && !r.archived);
        const indicators = form ? await readRows(db, config.tables.indicators.id, isChild) : [];
        return { form: form ?? null, indicators };
      });
    void (async () => {
      let found = await readDevice();
      if (!found.form && online && !cancelled) {
        const { projectId, tables } = config;
        const requestedAt = Date.now();
        const [forms, indicators] = await Promise.all([
          searchAllRecords(dispatch, projectId, { tableId: tables.forms.id, filters: eq('id', formId) }),
          searchAllRecords(dispatch, projectId, { tableId: tables.indicators.id, filters: eq(tables.indicators.columns.parent, formId) }),
        ]);
        if (forms.records?.length && indicators.records) {
          await refreshRows(db, forms.records, { projectId, tableId: tables.forms.id, inScope: (r) => r.id === formId, requestedAt });
          await refreshRows(db, indicators.records, { projectId, tableId: tables.indicators.id, inScope: isChild, requestedAt });
          found = await readDevice();
        }
      }
      if (!cancelled) setState({ ...found, done: true });
    })().catch(() => {
      if (!cancelled) setState({ form: null, indicators: [], done: true });
    });
    return () => {
      cancelled = true;
    };
  }, [config, formId, enabled, dispatch, refreshKey, online, db]);
  return state;
}
