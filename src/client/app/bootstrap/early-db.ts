/**
 * A second, small entry that the HTML runs before the app's own scripts have arrived (only the
 * webpack runtime, Dexie, the schema and the read of the last good config.json are in it). On a first visit the browser takes about as
 * long to create the offline database as a phone takes to download the rest of the JavaScript:
 * begun here, the creation runs while they download.
 *
 * The app uses this same handle (main.tsx imports `earlyDb`): both entries share one webpack
 * runtime, so this module runs once and the database is opened once, not once per entry. A
 * failure is left to the first read, which reports it.
 */
import { openOfflineDb } from '../../lib/db/database';
import { readLastGoodConfig } from '../../lib/config/load-config';
import { safeLocalStorage } from '../../lib/local-storage';

// Rows are stored under the search profile of the device's config (lib/db, FeatureRow.profileId):
// known from the last good copy before the database opens, so an upgrade of an older database
// stamps the rows it holds with it; the store follows a config that differs (app/store.ts).
export const earlyDb = openOfflineDb({ searchProfileId: readLastGoodConfig(safeLocalStorage())?.searchProfileId });
earlyDb.open().catch(() => undefined);
