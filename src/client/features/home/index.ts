/** features/home: the home screen (meadows and their paths) and the device storage card. */
export { HomeScreen } from './home-screen';
export { StorageCard } from './storage-card';
export { homeFarmerName, useHomeSeason } from './home-view';
