import { FILE_SIZE_DECIMALS, FILE_SIZE_STEP, FILE_SIZE_UNITS } from './constants';

const numberFormatters = new Map<number, Intl.NumberFormat>();

/**
 * A number as Slovenian writes it: a decimal comma and a dot between thousands ('2.347,86'),
 * at most `decimals` decimals (trailing zeros dropped).
 */
export function formatNumber(value: number, decimals = 2): string {
  let formatter = numberFormatters.get(decimals);
  if (!formatter) {
    formatter = new Intl.NumberFormat('sl-SI', { maximumFractionDigits: decimals, useGrouping: true });
    numberFormatters.set(decimals, formatter);
  }
  return formatter.format(value);
}

/** A walked distance: whole metres below a kilometre, else kilometres with two decimals ('1,25 km'). */
export function formatDistance(metres: number): string {
  if (!Number.isFinite(metres) || metres < 0) return '0 m';
  if (metres < 1000) return `${formatNumber(metres, 0)} m`;
  return `${formatNumber(metres / 1000, 2)} km`;
}

/** File size in 1024 steps from Bytes to YB, 2 decimals by default, with a Slovenian decimal comma ('7,51 MB'). */
export function formatFileSize(bytes: number, decimals: number = FILE_SIZE_DECIMALS): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(FILE_SIZE_STEP)), FILE_SIZE_UNITS.length - 1);
  const value = bytes / FILE_SIZE_STEP ** exponent;
  return `${formatNumber(value, Math.max(0, decimals))} ${FILE_SIZE_UNITS[exponent]}`;
}

// Made on first use: constructing a DateTimeFormat with a time zone loads locale and zone data,
// about 90 ms on a mid-range phone, which app start-up would pay for screens that show no date.
let dateFormatter: Intl.DateTimeFormat | undefined;
let dateTimeFormatter: Intl.DateTimeFormat | undefined;

/** A calendar day 'YYYY-MM-DD' (or the day of an ISO date-time) as '20. 6. 2026': fixed, no locale data or time zone. */
export function formatDay(day: string): string {
  const [year, month, date] = day.slice(0, 10).split('-').map(Number);
  return `${date}. ${month}. ${year}`;
}

/** Date in Slovenian format, e.g. 21. 11. 2026. */
export function formatDate(value: string | number | Date): string {
  dateFormatter ??= new Intl.DateTimeFormat('sl-SI', { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'Europe/Ljubljana' });
  return dateFormatter.format(new Date(value));
}

/** Date and time in Slovenian format, e.g. 21. 11. 2026, 14:05. */
export function formatDateTime(value: string | number | Date): string {
  dateTimeFormatter ??= new Intl.DateTimeFormat('sl-SI', {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Ljubljana',
  });
  return dateTimeFormatter.format(new Date(value));
}
