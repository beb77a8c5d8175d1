/**
 * Record ids in the address. A route names the parameters that hold a record's id (`records` in
 * routes.ts); the router resolves each through lib/db/identity before the screen renders, so a
 * screen only ever gets the id its record has now:
 * - an offline id already delivered (this tab, another tab, an earlier visit: a reload, a
 *   bookmark, a link in a notification) becomes the server id at once;
 * - an offline id this tab has not seen delivered is looked up on the device first (one read of
 *   the delivered ids; the screen waits for it), then used as it is until the delivery is announced.
 * The router then writes the server id into the address (router.tsx).
 */
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import { isLocalId } from '../../../common/record-id';
import { knownId, onIdentityChange, resolveIds } from '../../lib/db/identity';
import { onOutboxChange } from '../../lib/db/outbox';
import { useOfflineDb } from '../hooks';
import type { Params } from './match';

/** Offline id → server id of the delivered ids among `ids`; null until each offline id was looked up on the device. */
export function useDeliveredIds(ids: readonly string[]): ReadonlyMap<number, number> | null {
  const db = useOfflineDb();
  const local = ids.map(Number).filter(isLocalId);
  const key = local.join(',');
  /** Offline ids the device was asked about (a delivery is announced to this tab after that). */
  const looked = useRef(new Set<number>());
  const subscribe = useCallback(
    (changed: () => void) => {
      const offline = key ? key.split(',').map(Number) : [];
      // Another tab's delivery is written to the device and announced by an outbox notification:
      // reading the device then lets identity announce it here too.
      const lookUp = () => {
        const unknown = offline.filter((id) => knownId(db, 'record', id) === undefined);
        if (!unknown.length) return;
        const done = () => {
          unknown.forEach((id) => looked.current.add(id));
          changed();
        };
        resolveIds(db, 'record', unknown).then(done, done);
      };
      const stopIdentity = onIdentityChange(db, changed);
      const stopOutbox = onOutboxChange(db, lookUp);
      lookUp();
      return () => {
        stopIdentity();
        stopOutbox();
      };
    },
    [db, key],
  );
  // A string, so that an unchanged answer is the same snapshot: 'offline>server' per id, 'offline>' when
  // not delivered, 'offline>?' while not looked up yet.
  const snapshot = useSyncExternalStore(subscribe, () =>
    local.map((id) => `${id}>${knownId(db, 'record', id) ?? (looked.current.has(id) ? '' : '?')}`).join(','),
  );
  return useMemo(() => {
    const delivered = new Map<number, number>();
    for (const entry of snapshot ? snapshot.split(',') : []) {
      const [id, now] = entry.split('>');
      if (now === '?') return null;
      if (now) delivered.set(Number(id), Number(now));
    }
    return delivered;
  }, [snapshot]);
}

/** `params` with the record parameters (`names`) that hold a delivered offline id replaced by its server id; the same object when none does. */
export function followParams(params: Params, names: readonly string[], delivered: ReadonlyMap<number, number>): Params {
  let next: Record<string, string> | null = null;
  for (const name of names) {
    const now = delivered.get(Number(params[name]));
    if (now === undefined || !isLocalId(Number(params[name]))) continue;
    next ??= { ...params };
    next[name] = String(now);
  }
  return next ?? params;
}
