/**
 * Every row of one project table for the set-up screens (all seasons, all meadows, all paths —
 * not only the current season's), read the way the loading chain reads: from the server when it
 * is reachable, stored on the device (rows with pending edits are never overwritten), then read
 * back from the device, which includes every edit saved offline. Read again when `refreshKey`
 * changes (a save, a delivered outbox item).
 */
import { useEffect, useState } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import { useAppDispatch, useOfflineDb } from '../../app/hooks';
import { searchAllRecords } from '../../lib/api/search-all';
import type { StoredRecord } from '../../lib/db/database';
import { readRows, refreshRows } from '../../lib/db/local-data';

export interface TableRows {
  rows: StoredRecord[];
  /** False until the first read finished. */
  loaded: boolean;
}

export function useTableRows(config: AppConfig | null, table: TableKey, online: boolean, refreshKey: unknown): TableRows {
  const dispatch = useAppDispatch();
  const db = useOfflineDb();
  const [state, setState] = useState<TableRows>({ rows: [], loaded: false });
  useEffect(() => {
    if (!config) return undefined;
    let cancelled = false;
    const { projectId } = config;
    const tableId = config.tables[table].id;
    void (async () => {
      if (online) {
        const requestedAt = Date.now();
        const result = await searchAllRecords(dispatch, projectId, { tableId });
        // A failed read leaves the device copy as it is: the screen shows what the device has.
        if (result.records) await refreshRows(db, result.records, { projectId, tableId, inScope: () => true, requestedAt });
      }
      const rows = await readRows(db, tableId);
      if (!cancelled) setState({ rows, loaded: true });
    })();
    return () => {
      cancelled = true;
    };
  }, [config, table, online, refreshKey, dispatch, db]);
  return state;
}
