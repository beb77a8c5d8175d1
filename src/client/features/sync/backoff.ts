/**
 * Retry delays after network/5xx failures (docs/architecture.md, Sync rules): SYNC_BACKOFF_START_MS doubling per
 * consecutive failure up to SYNC_BACKOFF_MAX_MS, with ±20 % jitter so many phones coming back
 * into coverage do not retry in lockstep. Pure: the caller passes its random source.
 */
import { SYNC_BACKOFF_MAX_MS, SYNC_BACKOFF_START_MS } from '../../../common/constants';

const BACKOFF_JITTER = 0.2;

/** Delay before attempt number `failures + 1`; `failures` ≥ 1 is the count of failures so far. */
export function backoffDelay(failures: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, failures - 1);
  const base = Math.min(SYNC_BACKOFF_MAX_MS, SYNC_BACKOFF_START_MS * 2 ** Math.min(exponent, 30));
  const jittered = base * (1 - BACKOFF_JITTER + 2 * BACKOFF_JITTER * random());
  return Math.round(Math.min(SYNC_BACKOFF_MAX_MS, jittered));
}
