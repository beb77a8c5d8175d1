/** /about's storage and sync card: features/home's StorageCard fed from features/sync. */
import { selectIsOnline, selectLastSyncAt, selectPendingCount } from '../../features/sync';
import { StorageCard } from '../../features/home';
import { useAppSelector } from '../hooks';

export function AboutStorage() {
  return <StorageCard online={useAppSelector(selectIsOnline)} pending={useAppSelector(selectPendingCount)} lastSyncAt={useAppSelector(selectLastSyncAt)} />;
}
