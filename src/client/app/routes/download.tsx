/** Download (seed §2 '/download'): the stored extents, from the download feature (issue 6). */
import { DownloadListScreen } from '../../features/download';
import type { ScreenProps } from '../router/routes';

export default function DownloadScreen(_props: ScreenProps) {
  return <DownloadListScreen />;
}
