/**
 * A form that is not in the season the device loaded (opened from results, a path's earlier
 * seasons, or by an adviser from the review queue without choosing its farmer): read from the
 * device copy at once, with its indicators and its thread (comments), then, when online, from the
 * server, kept on the device (so it opens offline next time) and shown: an adviser deciding a
 * form sees the state the farmer's last move left, not the device's older copy.
 */
import { useEffect, useState } from 'react';
import { eq } from '../../../common/filter';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch, useOfflineDb } from '../../app/hooks';
import type { StoredRecord } from '../../lib/db/database';
import { searchAllRecords } from '../../lib/api/search-all';
import { readRows, refreshRows } from '../../lib/db/local-data';
import { readRow } from '../../lib/db/model';

export interface StoredForm {
  form: StoredRecord | null;
  indicators: StoredRecord[];
  /** The form's thread. */
  comments: StoredRecord[];
  /** The first read has answered (the device's copy, or the server's when the device had none). */
  done: boolean;
}

/** `refreshKey`: read again when it changes (e.g. the season was reloaded after a delivery). */
export function useStoredForm(config: AppConfig | null, formId: number, enabled: boolean, refreshKey: unknown = null, online = false): StoredForm {
  const dispatch = useAppDispatch();
  const db = useOfflineDb();
  const [state, setState] = useState<StoredForm>({ form: null, indicators: [], comments: [], done: false });
  useEffect(() => {
    if (!config || !enabled) return undefined;
    let cancelled = false;
    const isChild = (r: StoredRecord) => readRow(config, 'indicators', r).parent === formId;
    const isComment = (r: StoredRecord) => readRow(config, 'comments', r).parent === formId;
    // One transaction: an acknowledgement committing between the two reads would leave a form
    // read under its offline id with children that already name its server id.
    const readDevice = () =>
      db.transaction('r', db.features, async () => {
        const [form] = await readRows(db, config.tables.forms.id, (r) => r.id === formId && !r.archived);
        const indicators = form ? await readRows(db, config.tables.indicators.id, isChild) : [];
        const comments = form ? await readRows(db, config.tables.comments.id, isComment) : [];
        return { form: form ?? null, indicators, comments };
      });
    void (async () => {
      let found = await readDevice();
      // The device's copy first, when it has one; the server's follows.
      if (found.form && !cancelled) setState({ ...found, done: true });
      if (online && !cancelled) {
        const { projectId, tables } = config;
        const requestedAt = Date.now();
        const [forms, indicators, comments] = await Promise.all([
          searchAllRecords(dispatch, projectId, { tableId: tables.forms.id, filters: eq('id', formId) }),
          searchAllRecords(dispatch, projectId, { tableId: tables.indicators.id, filters: eq(tables.indicators.columns.parent, formId) }),
          searchAllRecords(dispatch, projectId, { tableId: tables.comments.id, filters: eq(tables.comments.columns.parent, formId) }),
        ]);
        if (forms.records?.length && indicators.records && comments.records) {
          await refreshRows(db, forms.records, { projectId, tableId: tables.forms.id, inScope: (r) => r.id === formId, requestedAt });
          await refreshRows(db, indicators.records, { projectId, tableId: tables.indicators.id, inScope: isChild, requestedAt });
          await refreshRows(db, comments.records, { projectId, tableId: tables.comments.id, inScope: isComment, requestedAt });
          found = await readDevice();
        }
      }
      if (!cancelled) setState({ ...found, done: true });
    })().catch(() => {
      // Offline or refused: what the device holds stays shown.
      if (!cancelled) setState((shown) => (shown.done ? shown : { form: null, indicators: [], comments: [], done: true }));
    });
    return () => {
      cancelled = true;
    };
  }, [config, formId, enabled, dispatch, refreshKey, online, db]);
  return state;
}
