/**
 * Outbox change notifications: listeners in this tab (`onOutboxChange`) and other tabs (a
 * BroadcastChannel per database) learn that the queue changed. The sync panel mirrors the queue
 * and the drain wakes up on them.
 */
import type { OfflineDb } from './database';

type ChangeListener = () => void;
const changeListeners = new Map<OfflineDb, Set<ChangeListener>>();
const channels = new Map<OfflineDb, BroadcastChannel>();

function channelOf(db: OfflineDb): BroadcastChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  let channel = channels.get(db);
  if (!channel) {
    channel = new BroadcastChannel(`${db.name}:outbox`);
    channel.onmessage = () => notifyLocal(db);
    // Node (tests, bench) would otherwise keep the process alive for an idle channel.
    (channel as { unref?: () => void }).unref?.();
    channels.set(db, channel);
  }
  return channel;
}

function notifyLocal(db: OfflineDb): void {
  for (const listener of changeListeners.get(db) ?? []) listener();
}

/** Tells listeners in this tab and in other tabs that the outbox changed. */
export function notifyOutboxChanged(db: OfflineDb): void {
  notifyLocal(db);
  channelOf(db)?.postMessage('changed');
}

export function onOutboxChange(db: OfflineDb, listener: ChangeListener): () => void {
  let set = changeListeners.get(db);
  if (!set) {
    set = new Set();
    changeListeners.set(db, set);
  }
  set.add(listener);
  channelOf(db);
  return () => {
    set.delete(listener);
    if (set.size === 0) {
      channels.get(db)?.close();
      channels.delete(db);
    }
  };
}
