/**
 * The id rule, the same on the device and on the server: a row (or a file) made on a device gets a
 * random id below LOCAL_ID_BOUND, unused on that device; the server numbers rows and files from
 * LOCAL_ID_BOUND up. An id alone therefore says whether the server has given it (docs/architecture.md,
 * The identity rule).
 */
import { LOCAL_ID_BOUND } from './constants';

/** An id a device made offline: a positive integer below LOCAL_ID_BOUND. */
export function isLocalId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 && id < LOCAL_ID_BOUND;
}

/** An id the server gave: an integer from LOCAL_ID_BOUND up. */
export function isServerId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= LOCAL_ID_BOUND;
}
