/** features/app-update: a new build of the app is waiting — the slice, the updater and the dialog that offers it. */
export { appUpdateSlice } from './app-update-slice';
export { createBrowserAppUpdater, type AppUpdater } from './app-updater';
export { AppUpdaterContext, UpdateDialog } from './update-dialog';
