/**
 * What the data screens of issue 7 (H8) read from several features, gathered once for the route
 * files (the only place that combines features, DESIGN §3): the config, who the user is, the
 * season rows (features/season), connectivity and the outbox (features/sync), and the two actions
 * every edit screen needs — save edits through the outbox, then reload the season from the device
 * copy so every screen shows the edit at once, online or offline.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import { selectAuthUser } from '../../features/auth/auth-slice';
import {
  loadSeason,
  selectAreas,
  selectCurrentDuration,
  selectDurationPaths,
  selectFarmerId,
  selectFarmers,
  selectForms,
  selectIndicators,
  selectPaths,
  selectRole,
  selectSeasonError,
  selectSeasonLoadedAt,
  selectSeasonSource,
  selectSeasonStatus,
} from '../../features/season';
import { editSaved, selectIsOnline, selectLastSyncAt, selectPendingCount } from '../../features/sync';
import { selectConfig } from '../../lib/config/config-slice';
import { isLocalId } from '../../lib/db/local-data';
import { deliveredIds, type LocalEdit, type SavedEdit } from '../../lib/db/outbox';
import type { AppExtra } from '../store-types';
import { useAppDispatch, useAppSelector } from '../hooks';

export function useSeasonView() {
  const config = useAppSelector(selectConfig) as AppConfig | null;
  const role = useAppSelector(selectRole);
  const email = useAppSelector(selectAuthUser)?.email ?? null;
  const status = useAppSelector(selectSeasonStatus);
  const loadedAt = useAppSelector(selectSeasonLoadedAt);
  const pending = useAppSelector(selectPendingCount);
  const reload = useReloadSeason();
  // Edits were delivered: reload so the screen shows the server ids (a load that ran while the
  // outbox was delivering may have read the rows just before their ids were rewritten).
  const pendingBefore = useRef(pending);
  useEffect(() => {
    if (pending < pendingBefore.current) reload();
    pendingBefore.current = pending;
  }, [pending, reload]);
  return {
    config,
    role,
    email,
    status,
    error: useAppSelector(selectSeasonError),
    fromDevice: useAppSelector(selectSeasonSource) === 'device',
    hasData: loadedAt !== null,
    loadedAt,
    farmers: useAppSelector(selectFarmers),
    farmerId: useAppSelector(selectFarmerId),
    areas: useAppSelector(selectAreas),
    duration: useAppSelector(selectCurrentDuration),
    paths: useAppSelector(selectPaths),
    durationPaths: useAppSelector(selectDurationPaths),
    forms: useAppSelector(selectForms),
    indicators: useAppSelector(selectIndicators),
    online: useAppSelector(selectIsOnline),
    pending,
    lastSyncAt: useAppSelector(selectLastSyncAt),
  };
}

export type SeasonView = ReturnType<typeof useSeasonView>;

/** Reloads the season (the device copy includes every saved edit; online it also refreshes). */
export function useReloadSeason(): () => void {
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectAuthUser)?.email ?? null;
  const farmerId = useAppSelector(selectFarmerId);
  return useCallback(() => {
    if (email) void dispatch(loadSeason({ email, farmerId }));
  }, [dispatch, email, farmerId]);
}

/**
 * Saves edits in order through the outbox (each resolves after it is stored on the device), then
 * reloads the season. Returns the saved edits; rejects with the Slovenian message of the first
 * edit that could not be stored (the ones before it are stored and stay queued).
 */
export type EditStep = LocalEdit | ((saved: SavedEdit[]) => LocalEdit | null);

export function useSaveEdits(): (edits: EditStep[]) => Promise<SavedEdit[]> {
  const dispatch = useAppDispatch();
  const reload = useReloadSeason();
  return useCallback(
    async (edits) => {
      const saved: SavedEdit[] = [];
      try {
        for (const item of edits) {
          // A function builds its edit from the ones saved before it (a child needs its parent's id).
          const edit = typeof item === 'function' ? item(saved) : item;
          if (!edit) continue;
          saved.push(await dispatch(editSaved(edit)).unwrap());
        }
      } finally {
        if (saved.length) reload();
      }
      return saved;
    },
    [dispatch, reload],
  );
}

/**
 * The server id an offline-made row got once the outbox delivered it (the outbox keeps that
 * mapping on the device); null for a server id or while it waits. Read again when `refreshKey`
 * changes (a season load, an acknowledged edit).
 */
export function useDeliveredId(id: number, refreshKey: unknown): number | null {
  const dispatch = useAppDispatch();
  const [delivered, setDelivered] = useState<{ from: number; to: number } | null>(null);
  useEffect(() => {
    if (!isLocalId(id)) return undefined;
    let cancelled = false;
    const db = dispatch((_d: unknown, _g: unknown, extra: AppExtra) => extra.db);
    void deliveredIds(db, 'record', [id]).then((map) => {
      const to = map.get(id);
      if (!cancelled && to !== undefined) setDelivered({ from: id, to });
    });
    return () => {
      cancelled = true;
    };
  }, [id, refreshKey, dispatch]);
  return delivered?.from === id ? delivered.to : null;
}
