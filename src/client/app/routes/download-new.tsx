/**
 * New download ('/download/new'): the download feature's screen, given the user's meadows
 * and paths from the season so "my meadows" can be chosen as the extent.
 */
import { DownloadNewScreen } from '../../features/download';
import { recordsToMapItems } from '../../features/map';
import type { ScreenProps } from '../router/routes';
import { useSeasonView } from './screen-data';

export default function DownloadNewRoute(_props: ScreenProps) {
  const view = useSeasonView();
  const items = view.config ? recordsToMapItems({ areas: view.areas, paths: view.paths }, view.config.tables) : [];
  return <DownloadNewScreen items={items} />;
}
