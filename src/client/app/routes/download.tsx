/** Download ('/download'): the stored extents, from the download feature. */
import { DownloadListScreen } from '../../features/download';
import type { ScreenProps } from '../router/routes';

export default function DownloadScreen(_props: ScreenProps) {
  return <DownloadListScreen />;
}
