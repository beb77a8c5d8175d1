/**
 * The router owns the record id in the address (app/router/record-params.ts): a route's record
 * parameter is resolved through lib/db/identity before the screen renders, and once the record is
 * delivered the address names the server id — on the same screen (nothing typed is lost), with no
 * new history entry. A stale offline-id address (a reload, a bookmark, another tab) opens the
 * delivered record.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { compileRoutes, type ScreenProps } from '../../src/client/app/router/routes';
import { acknowledge, openOfflineDb, readOutbox, saveEdit, type OfflineDb } from '../../src/client/lib/db';
import { uniqueDbName } from './data-layer/helpers';
import { renderRouter, setHash } from './render-app';

// jsdom does not implement scrolling; the router scrolls to the top after a screen change.
window.scrollTo = () => undefined;

const dbs: OfflineDb[] = [];
afterEach(async () => {
  cleanup();
  setHash('#/');
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** Every id the screen was rendered with, and how often it was mounted. */
let shownIds: string[] = [];
let mounts = 0;

function RecordScreen({ params }: ScreenProps) {
  const [note, setNote] = useState('');
  shownIds.push(params.formId!);
  useEffect(() => {
    mounts += 1;
  }, []);
  return (
    <>
      <p data-testid="record">{params.formId}</p>
      <input aria-label="opomba" value={note} onChange={(event) => setNote(event.target.value)} />
    </>
  );
}

const routes = compileRoutes([
  { name: 'form', pattern: '/forms/{formId}', title: 'Obrazec', load: async () => ({ default: RecordScreen }), records: ['formId'] },
]);

function renderAt(hash: string, db: OfflineDb) {
  shownIds = [];
  mounts = 0;
  return renderRouter({ hash, routes, access: { role: 'farmer', farmerRecord: 'found' }, db });
}

async function offlineRecord(name: string): Promise<{ db: OfflineDb; localId: number }> {
  const db = openOfflineDb({ name });
  dbs.push(db);
  const saved = await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
  return { db, localId: saved.id };
}

async function deliver(db: OfflineDb, id: number): Promise<void> {
  await acknowledge(db, [{ item: (await readOutbox(db))[0]!, id }]);
}

describe('a record id in the address', () => {
  it('follows the delivery to the server id on the same screen: the input is kept, no history entry is added, the query stays', async () => {
    const { db, localId } = await offlineRecord(uniqueDbName('router-follow'));
    renderAt(`#/forms/${localId}?edit=1`, db);
    expect((await screen.findByTestId('record')).textContent).toBe(String(localId));
    fireEvent.input(screen.getByRole('textbox', { name: 'opomba' }), { target: { value: 'Košnja po 15. juniju' } });
    const historyLength = window.history.length;

    await act(() => deliver(db, 10_000_777));

    await waitFor(() => expect(window.location.hash).toBe('#/forms/10000777?edit=1'));
    expect(screen.getByTestId('record').textContent).toBe('10000777');
    expect((screen.getByRole('textbox', { name: 'opomba' }) as HTMLInputElement).value).toBe('Košnja po 15. juniju');
    expect(mounts).toBe(1);
    expect(window.history.length).toBe(historyLength);
  });

  it('a stale offline-id address (a reload, a bookmark, another tab) opens the delivered record: the screen never sees the offline id', async () => {
    const name = uniqueDbName('router-stale');
    const { db, localId } = await offlineRecord(name);
    await deliver(db, 10_000_778);
    // A new handle of the same database knows nothing in memory, as after a reload or in a new tab.
    const reopened = openOfflineDb({ name });
    dbs.push(reopened);
    renderAt(`#/forms/${localId}`, reopened);

    await waitFor(() => expect(window.location.hash).toBe('#/forms/10000778'));
    expect((await screen.findByTestId('record')).textContent).toBe('10000778');
    expect(shownIds.every((id) => id === '10000778')).toBe(true);
  });

  it('does not take the user back: an address they went to after the delivery, its change not handled yet, stands', async () => {
    const { db, localId } = await offlineRecord(uniqueDbName('router-left'));
    renderAt(`#/forms/${localId}`, db);
    expect((await screen.findByTestId('record')).textContent).toBe(String(localId));

    // The delivery's re-render waits for its effects while the user taps home: the address has
    // changed, its hashchange is still queued, and the router's effects run before it.
    await deliver(db, 10_000_779);
    window.location.hash = '#/';
    act(() => undefined);

    await waitFor(() => expect(screen.queryByTestId('record')).toBeNull());
    expect(window.location.hash).toBe('#/');
  });

  it('an offline id not delivered yet opens as it is; a server id is never looked up', async () => {
    const { db, localId } = await offlineRecord(uniqueDbName('router-pending'));
    renderAt(`#/forms/${localId}`, db);
    expect((await screen.findByTestId('record')).textContent).toBe(String(localId));
    expect(window.location.hash).toBe(`#/forms/${localId}`);
    cleanup();
    renderAt('#/forms/10000123', db);
    expect((await screen.findByTestId('record')).textContent).toBe('10000123');
  });
});
