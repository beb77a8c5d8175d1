/** What home shows of the season rows besides the meadows: the season's name and window, the chosen farmer's name. */
import { useMemo } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import type { HomeScreenProps } from './home-screen';

const day = (v: string | null) => (v ?? '').slice(0, 10);

export function useHomeSeason(config: AppConfig | null, duration: StoredRecord | null): HomeScreenProps['season'] {
  return useMemo(() => {
    if (!config || !duration) return null;
    const row = readRow(config, 'durations', duration);
    return { name: row.name ?? '', from: day(row.filter_start), to: day(row.filter_end) };
  }, [config, duration]);
}

export function homeFarmerName(config: AppConfig | null, farmers: readonly StoredRecord[], farmerId: number | null): string | null {
  const farmer = farmers.find((f) => f.id === farmerId);
  return farmer && config ? (readRow(config, 'farmers', farmer).name ?? '') : null;
}
