/**
 * A form that is not in the current season (opened from results or a path's earlier seasons):
 * read from the device copy, which features/results keeps refreshed for earlier seasons.
 */
import { useEffect, useState } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import { useAppDispatch } from '../../app/hooks';
import type { AppExtra } from '../../app/store-types';
import type { StoredRecord } from '../../lib/db/database';
import { readRows } from '../../lib/db/local-data';
import { columnKey } from '../../lib/db/refs';

/** `refreshKey`: read again when it changes (e.g. the season was reloaded after a delivery). */
export function useStoredForm(config: AppConfig | null, formId: number, enabled: boolean, refreshKey: unknown = null): { form: StoredRecord | null; indicators: StoredRecord[]; done: boolean } {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<{ form: StoredRecord | null; indicators: StoredRecord[]; done: boolean }>({ form: null, indicators: [], done: false });
  useEffect(() => {
    if (!config || !enabled) return undefined;
    let cancelled = false;
    const db = dispatch((_d: unknown, _g: unknown, extra: AppExtra) => extra.db);
    const parent = columnKey(config, 'indicators', 'parent');
    void (async () => {
      const [form] = await readRows(db, config.tables.forms.id, (r) => r.id === formId && !r.archived);
      const indicators = form ? await readRows(db, config.tables.indicators.id, (r) => r.properties[parent] === formId) : [];
      if (!cancelled) setState({ form: form ?? null, indicators, done: true });
    })().catch(() => {
      if (!cancelled) setState({ form: null, indicators: [], done: true });
    });
    return () => {
      cancelled = true;
    };
  }, [config, formId, enabled, dispatch, refreshKey]);
  return state;
}
