/**
 * '/download': the extents stored on this device — name, area, zoom range, tiles, size
 * (formatFileSize), date — with resume, refresh and delete. app/routes/download.tsx renders it.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { formatDate, formatFileSize } from '../../../../common/format';
import { sl, slMap } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { MapIcon, PlusIcon } from '../../../components/icons/icons';
import { Loading } from '../../../components/loading/loading';
import { Modal } from '../../../components/modal/modal';
import { Page } from '../../../components/page/page';
import { bboxAreaM2 } from '../../../lib/map/geo';
import { useDownloadContext } from '../download-deps';
import { downloadControllerFor } from '../download-controller';
import { deleteExtent, listExtents, resetExtentTiles, type DownloadExtent } from '../download-runner';
import { useOfflineDb } from '../../../app/hooks';
import { DownloadProgressPanel } from './download-progress';
import { routeHref } from '../../../lib/links';

function formatArea(m2: number): string {
  if (m2 >= 1_000_000) return `${(m2 / 1_000_000).toFixed(2).replace('.', ',')} km²`;
  return `${(m2 / 10_000).toFixed(1).replace('.', ',')} ha`;
}

export function DownloadListScreen() {
  const db = useOfflineDb();
  const context = useDownloadContext();
  const controller = downloadControllerFor(db);
  const run = useSyncExternalStore(controller.subscribe, controller.getState);
  const [extents, setExtents] = useState<DownloadExtent[] | null>(null);
  const [toDelete, setToDelete] = useState<DownloadExtent | null>(null);

  const reload = useCallback(() => {
    void listExtents(db).then(setExtents);
  }, [db]);
  useEffect(reload, [reload, run.status]);

  const start = (extent: DownloadExtent) =>
    void controller.start(extent, context.basemaps, { fetchTile: (url, signal) => fetch(url, { signal }), fetchFeatures: context.fetchFeatures }).then(reload);

  const refresh = async (extent: DownloadExtent) => {
    await resetExtentTiles(db, extent.id);
    start({ ...extent, storedTiles: 0, bytes: 0, failedTiles: 0 });
  };

  const add = <Button href={routeHref('download-new')} icon={PlusIcon} text={slMap.download.newDownload} />;
  return (
    <Page title={slMap.download.listTitle} actions={add}>
      <DownloadProgressPanel controller={controller} onResume={() => extents && run.extentId !== null && start(extents.find((e) => e.id === run.extentId)!)} />
      {extents === null ? (
        <Loading />
      ) : extents.length === 0 ? (
        <EmptyState icon={MapIcon} action={add}>
          <p>{slMap.download.empty}</p>
        </EmptyState>
      ) : (
        <table className="mt-download__table">
          <thead>
            <tr>
              <th>{slMap.download.name}</th>
              <th>{slMap.download.area}</th>
              <th>{slMap.download.zoom}</th>
              <th>{slMap.download.tiles}</th>
              <th>{slMap.download.size}</th>
              <th>{slMap.download.date}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {extents.map((extent) => {
              const b = extent.bounds;
              const running = run.status === 'running' && run.extentId === extent.id;
              return (
                <tr key={extent.id} data-testid={`extent-${extent.id}`}>
                  <td>
                    {extent.name}
                    {extent.status !== 'complete' && !running ? <div>{slMap.download.incomplete}</div> : null}
                  </td>
                  <td>{b ? formatArea(bboxAreaM2(b.minX, b.minY, b.maxX, b.maxY)) : '–'}</td>
                  <td>
                    {extent.minZoom}–{extent.maxZoom}
                  </td>
                  <td>
                    {extent.storedTiles ?? 0} / {extent.tileCount ?? 0}
                  </td>
                  <td>{formatFileSize(extent.bytes ?? 0)}</td>
                  <td>{extent.createdAt ? formatDate(extent.createdAt) : '–'}</td>
                  <td>
                    {extent.status === 'paused' && !running ? (
                      <Button size="small" text={slMap.download.resume} disabled={controller.isRunning()} onClick={() => start(extent)} />
                    ) : null}
                    <Button
                      size="small"
                      kind="secondary"
                      text={slMap.download.refresh}
                      disabled={controller.isRunning()}
                      onClick={() => void refresh(extent)}
                    />
                    <Button size="small" kind="danger" text={slMap.download.delete} disabled={running} onClick={() => setToDelete(extent)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {toDelete ? (
        <Modal
          title={slMap.download.delete}
          alert
          onClose={() => setToDelete(null)}
          footer={
            <>
              <Button kind="secondary" text={sl.common.cancel} onClick={() => setToDelete(null)} />
              <Button
                kind="danger"
                text={slMap.download.delete}
                onClick={() => {
                  const id = toDelete.id;
                  setToDelete(null);
                  void deleteExtent(db, id).then(reload);
                }}
              />
            </>
          }
        >
          <p>{slMap.download.confirmDelete.replace('{name}', toDelete.name)}</p>
        </Modal>
      ) : null}
    </Page>
  );
}
