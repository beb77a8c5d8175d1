/**
 * features/download — the Download screens (/download and /download/new) for app/routes,
 * and the engine behind them:
 *   app/routes/download.tsx:      export default () => <DownloadListScreen />
 *   app/routes/download-new.tsx:  export default () => <DownloadNewScreen items={…optional meadows…} />
 */
export { DownloadListScreen } from './components/download-list-screen';
export { DownloadNewScreen } from './components/download-new-screen';
