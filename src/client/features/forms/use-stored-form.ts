/**
 * A form that is not in the season the device loaded (opened from results, a path's earlier
 * seasons, or by an adviser from the review queue without choosing its farmer): read from the
 * device copy at once, with its indicators and its thread (comments), then, when online, from the
 * server, kept on the device (so it opens offline next time) and shown: an adviser deciding a
 * form sees the state the farmer's last move left, not the device's older copy. Then where it
 * belongs, which the loaded season cannot say: its season link, that link's path and season, and
 * the path's meadow (whose farmer it is) — device first, then the server's, kept likewise. A form
 * made on the device and not delivered yet is read from the device alone.
 */
import { useEffect, useState } from 'react';
import { eq } from '../../../common/filter';
import { isLocalId } from '../../../common/record-id';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch, useOfflineDb } from '../../app/hooks';
import type { StoredRecord } from '../../lib/db/database';
import { searchAllRecords } from '../../lib/api/search-all';
import { deviceRow, readRows, refreshRows } from '../../lib/db/local-data';
import { readRow } from '../../lib/db/model';

export interface StoredForm {
  form: StoredRecord | null;
  indicators: StoredRecord[];
  /** The form's thread. */
  comments: StoredRecord[];
  /** The form's season link (durationPaths), that link's path and season, and the path's meadow, where known. */
  link: StoredRecord | null;
  path: StoredRecord | null;
  duration: StoredRecord | null;
  area: StoredRecord | null;
  /** The first read has answered (the device's copy, or the server's when the device had none). */
  done: boolean;
}

const NO_PLACE = { link: null, path: null, duration: null, area: null };
const NOTHING: StoredForm = { form: null, indicators: [], comments: [], ...NO_PLACE, done: false };

/** `refreshKey`: read again when it changes (e.g. the season was reloaded after a delivery). */
export function useStoredForm(config: AppConfig | null, formId: number, enabled: boolean, refreshKey: unknown = null, online = false): StoredForm {
  const dispatch = useAppDispatch();
  const db = useOfflineDb();
  const [state, setState] = useState<StoredForm>(NOTHING);
  useEffect(() => {
    if (!config || !enabled) return undefined;
    let cancelled = false;
    const isChild = (r: StoredRecord) => readRow(config, 'indicators', r).parent === formId;
    const isComment = (r: StoredRecord) => readRow(config, 'comments', r).parent === formId;
    const { projectId, tables } = config;
    /**
     * Where a form belongs: its season link, that link's path and season, the path's meadow, each
     * found by the id the one before names; `row` reads one row (the device's, or the server's).
     */
    const walkPlace = async <R extends { properties: Readonly<Record<string, unknown>> }>(
      form: StoredRecord,
      row: (tableId: number, id: number | null | undefined) => Promise<R | null>,
    ) => {
      const link = await row(tables.durationPaths.id, readRow(config, 'forms', form).parent);
      const { path_id: pathId, duration_id: durationId } = link ? readRow(config, 'durationPaths', link) : { path_id: null, duration_id: null };
      const [path, duration] = await Promise.all([row(tables.paths.id, pathId), row(tables.durations.id, durationId)]);
      const area = path ? await row(tables.areas.id, readRow(config, 'paths', path).parent) : null;
      return { link, path, duration, area };
    };
    const deviceById = async (tableId: number, id: number | null | undefined) => (id == null ? null : ((await deviceRow(db, tableId, id))?.feature ?? null));
    /** The server's row of a table with this id, kept on the device. */
    const serverById = async (tableId: number, id: number | null | undefined) => {
      if (id == null) return null;
      const requestedAt = Date.now();
      const answer = await searchAllRecords(dispatch, projectId, { tableId, filters: eq('id', id) });
      if (answer.records) await refreshRows(db, answer.records, { projectId, tableId, inScope: (r) => r.id === id, requestedAt });
      return answer.records?.[0] ?? null;
    };
    // One transaction: an acknowledgement committing between the two reads would leave a form
    // read under its offline id with children that already name its server id.
    const readDevice = () =>
      db.transaction('r', db.features, async () => {
        const [form] = await readRows(db, tables.forms.id, (r) => r.id === formId && !r.archived);
        const indicators = form ? await readRows(db, tables.indicators.id, isChild) : [];
        const comments = form ? await readRows(db, tables.comments.id, isComment) : [];
        const place = form ? await walkPlace(form, deviceById) : NO_PLACE;
        return { form: form ?? null, indicators, comments, ...place };
      });
    void (async () => {
      let found = await readDevice();
      // The device's copy first, when it has one; the server's follows.
      if (found.form && !cancelled) setState({ ...found, done: true });
      // A form under its offline id is not on the server yet (its delivery gives it a server id,
      // and this reads again under that id): nothing to ask.
      if (online && !cancelled && !isLocalId(formId)) {
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
        if (found.form && !cancelled) {
          setState({ ...found, done: true });
          // The server's place, kept on the device; then the device read once more shows it.
          await walkPlace(found.form, serverById);
          found = await readDevice();
        }
      }
      if (!cancelled) setState({ ...found, done: true });
    })().catch(() => {
      // Offline or refused: what the device holds stays shown.
      if (!cancelled) setState((shown) => (shown.done ? shown : { ...NOTHING, done: true }));
    });
    return () => {
      cancelled = true;
    };
  }, [config, formId, enabled, dispatch, refreshKey, online, db]);
  return state;
}
