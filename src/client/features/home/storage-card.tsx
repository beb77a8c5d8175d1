/**
 * For /about: how much the device stores for the app (navigator.storage.estimate: the
 * offline database, downloaded maps, the app itself) and the sync state, so a farmer can see
 * whether a phone full of photos is the problem before going into the field.
 */
import { useEffect, useState } from 'react';
import { formatDateTime, formatFileSize } from '../../../common/format';
import { slScreens } from '../../../common/i18n/sl';

export interface StorageCardProps {
  online: boolean;
  pending: number;
  lastSyncAt: string | null;
  /** Defaults to navigator.storage.estimate (absent in old browsers). */
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

export function StorageCard({ online, pending, lastSyncAt, estimate }: StorageCardProps) {
  const t = slScreens.about;
  const h = slScreens.home;
  const [usage, setUsage] = useState<{ usage?: number; quota?: number } | null | 'unknown'>(null);
  useEffect(() => {
    const get = estimate ?? (typeof navigator !== 'undefined' && navigator.storage?.estimate ? () => navigator.storage.estimate() : null);
    if (!get) {
      setUsage('unknown');
      return;
    }
    let cancelled = false;
    get()
      .then((value) => !cancelled && setUsage(value))
      .catch(() => !cancelled && setUsage('unknown'));
    return () => {
      cancelled = true;
    };
  }, [estimate]);
  return (
    <div className="card" data-testid="storage-card">
      <h2>{t.storageTitle}</h2>
      <p>
        {usage === null
          ? t.storageMeasuring
          : usage === 'unknown' || usage.usage === undefined
            ? t.storageUnknown
            : t.storageUsed(formatFileSize(usage.usage), usage.quota ? formatFileSize(usage.quota) : null)}
      </p>
      <p>{online ? h.online : h.offline}</p>
      <p>{h.pending(pending)}</p>
      <p className="muted">
        {h.lastSync}: {lastSyncAt ? formatDateTime(lastSyncAt) : h.never}
      </p>
    </div>
  );
}
