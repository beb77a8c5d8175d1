/** The offline database handle from the store's extra argument (never from Redux state). */
import { useMemo } from 'react';
import type { AppExtra } from '../../app/store-types';
import { useAppDispatch } from '../../app/hooks';
import type { OfflineDb } from '../../lib/db/database';

export function useOfflineDb(): OfflineDb {
  const dispatch = useAppDispatch();
  return useMemo(() => dispatch((_dispatch: unknown, _getState: unknown, extra: AppExtra) => extra.db), [dispatch]);
}
