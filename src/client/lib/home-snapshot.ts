/**
 * The farmer's home screen as last shown, kept in localStorage (a few kB: the season's name and
 * window, the meadows and their paths with status and score) and read synchronously in the home
 * screen's first render. The farmer's paths are then on screen as soon as the app's code has run,
 * instead of after the device database has been opened and the season read from it and built
 * into rows (on a phone, most of a warm start). It is only a picture: the season's own rows
 * replace it as soon as they are read (the device's, then the server's), and it is written again
 * from them, so it is never older than the last time home was shown on this device.
 *
 * It also keeps the screen's markup as last shown (`html`): the first entry the HTML runs paints it
 * before the rest of the app's code has run (app/bootstrap/home-picture.ts), and React's first
 * render replaces it with the same screen built from the data.
 *
 * Keyed by project and user: another user signed in on the same device never sees it, and
 * sign-out removes it with the rest of the user's data (features/auth/sign-out.ts). Only
 * farmers' home screens are kept (editors and readers choose a farmer first); a staff user's key
 * clears it.
 */

type SnapshotPathStatus = 'not-walked' | 'walked' | 'form-done';

interface SnapshotPath {
  id: number;
  name: string;
  lengthM: number | null;
  /** null: not known when the picture was made (a first visit's, made before the forms were read). */
  status: SnapshotPathStatus | null;
  score: number | null;
}

interface SnapshotArea {
  id: number;
  name: string;
  paths: SnapshotPath[];
  /** The "Nova pot" link of the meadow, when the farmer had it. */
  newPathHref: string | null;
}

export interface HomeSnapshot {
  key: string;
  season: { name: string; from: string; to: string } | null;
  areas: SnapshotArea[];
  /** The app root's markup when it was written (`pictureOf`); '' when there was none. */
  html: string;
}

/** The element index.html gives the app to render into. */
export const APP_ROOT_ID = 'root';

/**
 * Bumped when the shape or the screen's layout changes: an older picture is then ignored, never
 * misread or painted in a layout the app then moves about.
 */
const STORAGE_KEY = 'moj-travnik.home-snapshot.v3';
/** Where earlier versions kept theirs: removed with the current one. */
const OLDER_KEYS = ['moj-travnik.home-snapshot.v1', 'moj-travnik.home-snapshot.v2'];

/** Whose home a picture is: the project and the signed-in user's address. */
export function homeSnapshotKey(projectId: number, email: string): string {
  return `${projectId}:${email}`;
}

function isSnapshot(value: unknown, key: string): value is HomeSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<HomeSnapshot>;
  return v.key === key && Array.isArray(v.areas) && typeof v.html === 'string' && (v.season === null || typeof v.season === 'object');
}

/** The picture kept for `key`, or null (none, another user's, unreadable, no storage). */
export function readHomeSnapshot(storage: Storage | null, key: string): HomeSnapshot | null {
  try {
    const text = storage?.getItem(STORAGE_KEY);
    if (!text) return null;
    const value: unknown = JSON.parse(text);
    return isSnapshot(value, key) ? value : null;
  } catch {
    return null;
  }
}

const writeListeners = new Set<() => void>();

/**
 * Calls `listener` after each picture written in this page; returns the function that stops it. A
 * first visit's picture (app/bootstrap/first-visit-home.ts) may be written after home's first
 * render, which then takes it.
 */
export function onHomeSnapshotWritten(listener: () => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

export function writeHomeSnapshot(storage: Storage | null, snapshot: HomeSnapshot): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(snapshot));
  } catch {
    // Storage full or blocked: the next start reads the device database, as without a picture.
    return;
  }
  for (const listener of writeListeners) listener();
}

export function clearHomeSnapshot(storage: Storage | null): void {
  try {
    for (const key of [STORAGE_KEY, ...OLDER_KEYS]) storage?.removeItem(key);
  } catch {
    // Blocked storage holds no picture either.
  }
}

/** Marks what shows the live state (the connection, the edits waiting): stale in a picture. */
const LIVE_STATE_ATTRIBUTE = 'data-live-state';

/**
 * Marks what the season's own rows replace when a picture shows: busy in a picture (`aria-busy`),
 * so assistive technology, and a test, can tell a picture from the season on the device.
 */
export const PICTURE_BUSY_ATTRIBUTE = 'data-picture-busy';

/**
 * Marks what is left out of a picture: what shows only while something of this page runs (a walk
 * being recorded), which the next start will not have.
 */
export const NOT_PICTURED_ATTRIBUTE = 'data-not-pictured';

/**
 * The markup of what `root` shows, to be painted again before the app's code runs. Without style
 * attributes: the app's Content-Security-Policy refuses inline styles in markup (React sets its
 * few through the DOM, which the policy allows). What showed the live state then keeps its place
 * but is hidden (`picture-stale`): on the next start it may no longer be true. What the season's
 * rows replace is marked busy. What only this page has is left out.
 */
export function pictureOf(root: Element): string {
  const copy = root.cloneNode(true) as Element;
  for (const gone of copy.querySelectorAll(`[${NOT_PICTURED_ATTRIBUTE}]`)) gone.remove();
  for (const styled of copy.querySelectorAll('[style]')) styled.removeAttribute('style');
  for (const live of copy.querySelectorAll(`[${LIVE_STATE_ATTRIBUTE}]`)) live.classList.add('picture-stale');
  for (const part of copy.querySelectorAll(`[${PICTURE_BUSY_ATTRIBUTE}]`)) part.setAttribute('aria-busy', 'true');
  return copy.innerHTML;
}
