import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../src/client/app/store';
import { DownloadListScreen } from '../../../src/client/features/download/components/download-list-screen';
import { createExtent } from '../../../src/client/features/download/download-runner';
import { openOfflineDb, type OfflineDb } from '../../../src/client/lib/db';
import { OWN_BASEMAP } from '../../../src/common/basemap';
import { formatDate, formatFileSize } from '../../../src/common/format';
import { slMap } from '../../../src/common/i18n/sl';

window.scrollTo = () => undefined;

const dbs: OfflineDb[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

async function setup() {
  const db = openOfflineDb({ name: `download-list-${dbs.length}-${Date.now()}` });
  dbs.push(db);
  const bounds = { minX: 16.1, minY: 46.75, maxX: 16.2, maxY: 46.85 };
  const created = Date.UTC(2026, 4, 12, 9, 0, 0);
  const extent = await createExtent(db, { name: 'Travniki pri domu', bounds, minZoom: 8, maxZoom: 14, projectId: 1, tableIds: [] }, [OWN_BASEMAP], created);
  await db.extents.update(extent.id, { status: 'complete', storedTiles: extent.tileCount, bytes: 3_500_000 } as never);
  await db.baseMapTiles.put({ url: 'http://x/basemap/tiles/8/139/90.pbf', extentId: extent.id, data: new ArrayBuffer(8) });
  const store = makeStore(undefined, { extra: { db } });
  render(
    <Provider store={store}>
      <DownloadListScreen />
    </Provider>,
  );
  return { db, extent, created };
}

describe('DownloadListScreen (/download)', () => {
  it('lists saved extents with name, area, zoom range, tiles, formatted size and date', async () => {
    const { extent, created } = await setup();
    const row = await screen.findByTestId(`extent-${extent.id}`);
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells[0]).toBe('Travniki pri domu');
    expect(cells[1]).toMatch(/^\d+,\d\d km²$/);
    expect(cells[2]).toBe('8–14');
    expect(cells[3]).toBe(`${extent.tileCount} / ${extent.tileCount}`);
    expect(cells[4]).toBe(formatFileSize(3_500_000));
    expect(cells[4]).toBe('3,34 MB');
    expect(cells[5]).toBe(formatDate(created));
    for (const header of [slMap.download.name, slMap.download.area, slMap.download.zoom, slMap.download.tiles, slMap.download.size, slMap.download.date]) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
  });

  it('deletes an extent and its tiles after confirmation', async () => {
    const { db, extent } = await setup();
    const row = await screen.findByTestId(`extent-${extent.id}`);
    fireEvent.click(within(row).getByRole('button', { name: slMap.download.delete }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('»Travniki pri domu«');
    fireEvent.click(within(dialog).getByRole('button', { name: slMap.download.delete }));
    await waitFor(() => expect(screen.getByText(slMap.download.empty)).toBeTruthy());
    expect(await db.extents.count()).toBe(0);
    expect(await db.baseMapTiles.count()).toBe(0);
  });
});
