/**
 * The season as home shows it: its name and window, from the durations row. Pure and free of the
 * UI library, so a first visit's picture of home (app/bootstrap/first-visit-home.ts) shows it the
 * same way before the app's code has arrived.
 */
import { slHome } from '../../../common/i18n/sl-home';
import type { AppConfig } from '../../../common/schemas/config';
import { readRow } from '../../lib/db/model';

export interface HomeSeason {
  name: string;
  /** 'YYYY-MM-DD' */
  from: string;
  to: string;
}

const day = (v: string | null) => (v ?? '').slice(0, 10);

export function homeSeasonOf(config: AppConfig, duration: { properties: Readonly<Record<string, unknown>> }): HomeSeason {
  const row = readRow(config, 'durations', duration);
  return { name: row.name ?? '', from: day(row.filter_start), to: day(row.filter_end) };
}

/** The season card's heading. */
export function homeSeasonTitle(season: HomeSeason | null): string {
  return season ? slHome.seasonTitle(season.name) : slHome.season;
}
