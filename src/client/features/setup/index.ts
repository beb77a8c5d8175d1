/**
 * features/setup — setting up a season without a developer: seasons, farmers (with their sign-in
 * accounts), meadows and transects drawn on the map, import from files; and the transect form
 * farmers use for their own paths. app/routes wires the screens to the season rows, the outbox
 * and the map (see README.md).
 */
export { SetupHub } from './setup-hub';
export { SeasonsScreen } from './seasons-screen';
export { FarmersSetupScreen } from './farmers-screen';
export { AreasScreen } from './areas-screen';
export { PathsSetupScreen } from './paths-setup-screen';
export { OwnPathScreen } from './own-path-screen';
export { ImportScreen } from './import-screen';
export { useTableRows } from './use-table-rows';
export type { DrawSlots } from './draw-slots';
export type { OpenRecord, RefusedEdit, SetupScreenProps } from './setup-parts';
