/** What home shows of the season rows besides the meadows: the season's name and window, the chosen farmer's name. */
import { useMemo } from 'react';
import type { AppConfig } from '../../../common/schemas/config';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import { homeSeasonOf, type HomeSeason } from './home-season';

export function useHomeSeason(config: AppConfig | null, duration: StoredRecord | null): HomeSeason | null {
  return useMemo(() => (config && duration ? homeSeasonOf(config, duration) : null), [config, duration]);
}

export function homeFarmerName(config: AppConfig | null, farmers: readonly StoredRecord[], farmerId: number | null): string | null {
  const farmer = farmers.find((f) => f.id === farmerId);
  return farmer && config ? (readRow(config, 'farmers', farmer).name ?? '') : null;
}
