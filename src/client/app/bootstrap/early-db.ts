/**
 * A second, small entry that the HTML runs before the app's own scripts have arrived (only the
 * webpack runtime, Dexie and the schema are in it). On a first visit the browser takes about as
 * long to create the offline database as a phone takes to download the rest of the JavaScript:
 * begun here, the creation runs while they download. This handle is closed once the database is
 * open; the app's own handle (main.tsx) then opens a database that is there already. A failure is
 * left to the app's own open, which reports it.
 */
import { openOfflineDb } from '../../lib/db/database';

const db = openOfflineDb();
db.open().then(
  () => db.close(),
  () => undefined,
);
