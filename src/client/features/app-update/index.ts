export { appUpdateSlice, updateBecameReady, updateAccepted, selectUpdateReady, selectUpdateAccepted } from './app-update-slice';
export type { AppUpdateState } from './app-update-slice';
export { createAppUpdater, createBrowserAppUpdater } from './app-updater';
export type { AppUpdater, WorkboxLike } from './app-updater';
export { UpdateDialog, AppUpdaterContext } from './update-dialog';
