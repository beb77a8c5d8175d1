/**
 * Every row of one project table for the set-up screens (all seasons, all meadows, all paths —
 * not only the current season's), read the way the loading chain reads: from the server when it
 * is reachable, stored on the device (rows with pending edits are never overwritten), then read
 * back from the device, which includes every edit saved offline. Read again when `refreshKey`
 * changes (a save, a delivered outbox item), the device's rows first.
 */
import { useEffect, useRef, useState } from 'react';
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
  const tableId = config?.tables[table].id;
  /** The table whose rows the screen shows now (undefined once it is gone). */
  const shownTable = useRef<number | undefined>(undefined);
  useEffect(() => {
    shownTable.current = tableId;
    return () => {
      shownTable.current = undefined;
    };
  }, [tableId]);
  useEffect(() => {
    if (!config || tableId === undefined) return;
    const { projectId } = config;
    // Every read ends with a read of the device, and reads show what they found in the order they
    // finish: the last one is the device as it is now. A newer read does not drop an older one's
    // answer (the newer may still wait for the server while the older already has the device's
    // rows after a save).
    const show = (rows: StoredRecord[]) => {
      if (shownTable.current === tableId) setState({ rows, loaded: true });
    };
    void (async () => {
      // Device first: the saved edit is on screen at once; the server's rows follow.
      show(await readRows(db, tableId));
      if (!online) return;
      const requestedAt = Date.now();
      const result = await searchAllRecords(dispatch, projectId, { tableId });
      // A failed read leaves the device copy as it is: the screen shows what the device has.
      if (!result.records) return;
      await refreshRows(db, result.records, { projectId, tableId, inScope: () => true, requestedAt });
      show(await readRows(db, tableId));
    })();
  }, [config, tableId, online, refreshKey, dispatch, db]);
  return state;
}
