/**
 * What the data screens read from several features, gathered once for the route
 * files (the only place that combines features): the config, who the user is, the
 * season rows (features/season), connectivity and the outbox (features/sync), and the two actions
 * every edit screen needs — save edits through the outbox, then reload the season from the device
 * copy so every screen shows the edit at once, online or offline.
 */
import { useCallback, useEffect, useRef } from 'react';
import { slPhone } from '../../../common/i18n/sl';
import type { AppConfig } from '../../../common/schemas/config';
import { selectAuthUser } from '../../features/auth';
import {
  loadSeason,
  selectAreas,
  selectComments,
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
import { editsSaved, selectAttentionItems, selectIsOnline, selectLastSyncAt, selectPendingCount } from '../../features/sync';
import { selectConfig } from '../../lib/config/config-slice';
import type { LocalEdit, SavedEdit, SaveOptions } from '../../lib/db/outbox';
import { useAppDispatch, useAppSelector } from '../hooks';

export function useSeasonView() {
  const config = useAppSelector(selectConfig) as AppConfig | null;
  const role = useAppSelector(selectRole);
  const email = useAppSelector(selectAuthUser)?.email ?? null;
  const status = useAppSelector(selectSeasonStatus);
  const loadedAt = useAppSelector(selectSeasonLoadedAt);
  const pending = useAppSelector(selectPendingCount);
  const needsDecision = useAppSelector(selectAttentionItems).length;
  const reload = useReloadSeason();
  // A delivery needs no reload: the season follows it (localIdsRemapped, announced by
  // lib/db/identity), and a load racing it follows it at its end. The user resolved a refused
  // edit ("take theirs", a discarded edit): the device rows changed without a delivery, and an
  // open screen must not keep showing the edit the user just gave up.
  const before = useRef(needsDecision);
  useEffect(() => {
    if (needsDecision < before.current) reload();
    before.current = needsDecision;
  }, [needsDecision, reload]);
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
    comments: useAppSelector(selectComments),
    online: useAppSelector(selectIsOnline),
    pending,
    lastSyncAt: useAppSelector(selectLastSyncAt),
  };
}

export type SeasonView = ReturnType<typeof useSeasonView>;

/** Editors and readers see a farmer's rows once they chose one: until then the lists say so. */
export function chooseFarmerFirst(view: SeasonView): string | undefined {
  return (view.role === 'editor' || view.role === 'reader') && view.farmerId === null ? slPhone.staff.chooseFarmerFirst : undefined;
}

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
 * Saves edits through the outbox, together (all of them are stored or none), then reloads the
 * season. Returns the saved edits; rejects with the Slovenian message when they could not be
 * stored.
 */
export function useSaveEdits(): (edits: LocalEdit[], options?: SaveOptions) => Promise<SavedEdit[]> {
  const dispatch = useAppDispatch();
  const reload = useReloadSeason();
  return useCallback(
    async (edits, options) => {
      const saved = await dispatch(editsSaved({ edits, ...options })).unwrap();
      if (saved.length) reload();
      return saved;
    },
    [dispatch, reload],
  );
}
