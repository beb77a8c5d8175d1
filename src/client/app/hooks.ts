/** Typed react-redux hooks: the only way screens and features reach the store. */
import { useMemo } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import type { OfflineDb } from '../lib/db/database';
import type { AppDispatch, RootState } from './store';
import type { AppExtra } from './store-types';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/**
 * The offline database handle. It travels as the store's extra argument (never in Redux state, which
 * must stay serialisable), so a component reads it by dispatching a function that returns it.
 */
export function useOfflineDb(): OfflineDb {
  const dispatch = useAppDispatch();
  return useMemo(() => dispatch((_dispatch: unknown, _getState: unknown, extra: AppExtra) => extra.db), [dispatch]);
}
