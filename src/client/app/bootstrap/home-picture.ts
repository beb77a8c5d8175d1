/**
 * The farmer's home as last shown on this device, painted into the app's root by the first entry
 * the HTML runs: on a phone the farmer's paths are then on screen while the rest of the app's code
 * still loads and runs (most of a warm start), instead of after it. Its links are the app's own
 * (`#/paths/<id>`): a tap before the app has started changes the address, and the app starts on
 * that path. React's first render replaces the picture with the screen itself, built from the same
 * snapshot and then from the season's rows (features/home, lib/home-snapshot.ts).
 *
 * Only for the plain home address, only with the picture of the signed-in user in the project of the
 * last good config, and never over anything but index.html's own placeholder. A first visit's
 * picture, made before the app's markup ever showed, is built instead (first-visit-picture.ts).
 */
import { readLastGoodConfig } from '../../lib/config/load-config';
import { readUser } from '../../lib/auth/local-identity';
import { APP_ROOT_ID, homeSnapshotKey, readHomeSnapshot, type HomeSnapshot } from '../../lib/home-snapshot';
import { routeHref } from '../../lib/links';

/** The home address as the app writes it; a sign-in callback (`#state=…&code=…`) is not one. */
const HOME_HASHES = new Set(['', '#', routeHref('home')]);

/** The root and the picture to paint into it, when one may be painted now (see above). */
export function paintableHome(doc: Document, storage: Storage | null): { root: HTMLElement; snapshot: HomeSnapshot } | null {
  if (!HOME_HASHES.has(doc.location.hash)) return null;
  const root = doc.getElementById(APP_ROOT_ID);
  // index.html's placeholder is one paragraph; anything else is already the app's.
  if (!root || root.children.length !== 1 || !root.firstElementChild?.matches('p.boot')) return null;
  const config = readLastGoodConfig(storage);
  const user = readUser(storage);
  if (!config || !user) return null;
  const snapshot = readHomeSnapshot(storage, homeSnapshotKey(config.projectId, user.email));
  return snapshot ? { root, snapshot } : null;
}

/** Paints the picture's markup; true when it did. */
export function paintHomePicture(doc: Document, storage: Storage | null): boolean {
  const home = paintableHome(doc, storage);
  if (!home?.snapshot.html) return false;
  home.root.innerHTML = home.snapshot.html;
  return true;
}
