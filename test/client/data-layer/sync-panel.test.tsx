/**
 * The sync panel in a browser-like DOM: waiting count, last sync time, failed and conflicting
 * items in Slovenian, and the user's actions reaching the outbox in IndexedDB.
 */
import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { deserialize, serialize } from 'node:v8';
import { formatDateTime } from '../../../src/common/format';
import { sl, slAudit, slSync } from '../../../src/common/i18n/sl';
import { FORM_KINDS, formKinds } from '../../../src/common/scheme/form-kinds';
import { configLoaded } from '../../../src/client/lib/config';
import { makeStore } from '../../../src/client/app/store';
import { deviceRow, openOfflineDb, saveEdit, markItems, summarizeOutbox } from '../../../src/client/lib/db';
import { SyncPanel, outboxSummaryLoaded, toAttentionItem, drainSucceeded } from '../../../src/client/features/sync';
import { testConfig, uniqueDbName, until } from './helpers';

// jsdom has no structuredClone, which IndexedDB (fake-indexeddb) needs to store values.
globalThis.structuredClone ??= <T,>(value: T): T => deserialize(serialize(value)) as T;

async function mirror(store: ReturnType<typeof makeStore>) {
  const summary = await summarizeOutbox(store.extra.db);
  store.dispatch(outboxSummaryLoaded({ pendingCount: summary.pending, attention: summary.attention.map(toAttentionItem) }));
}

describe('sync panel', () => {
  it('shows waiting edits, the last sync and the items that need the user, and acts on them', async () => {
    const db = openOfflineDb({ name: uniqueDbName('panel') });
    const store = makeStore(undefined, { extra: { db } });
    const failed = await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
    await saveEdit(db, { kind: 'update', projectId: 1, tableId: 6, id: 10_000_050, properties: { '65': 'moje' } });
    await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 6, properties: {} });
    const [a, b] = await db.outbox.orderBy('seq').toArray();
    await markItems(db, [a!.seq!], { status: 'failed', error: { status: 400, message: 'Bad Request', detail: 'operations[0].properties.62 (form_id): must be a number' } });
    await markItems(db, [b!.seq!], {
      status: 'conflict',
      error: { status: 409, message: 'Generic Error' },
      current: { id: 10_000_050, tableId: 6, version: 9, properties: { '62': FORM_KINDS.travnik.id, '65': 'svetovalec' } },
    });
    store.dispatch(configLoaded({ config: { ...testConfig, forms: formKinds }, source: 'network' }));
    store.dispatch(drainSucceeded({ at: '2026-06-15T08:00:00.000Z' }));
    await mirror(store);

    render(
      <Provider store={store}>
        <SyncPanel />
      </Provider>,
    );
    expect(screen.getByTestId('sync-last').textContent).toBe(`${slSync.sync.lastSync}: ${formatDateTime('2026-06-15T08:00:00.000Z')}`);
    expect(screen.getByTestId('sync-pending').textContent).toBe(sl.header.pendingEdits(1));
    // A refusal says why in Slovenian, with the server's detail without the operation's name.
    const refused = screen.getByTestId(`sync-item-${a!.seq}`).querySelector('.sync-panel__item-message')!;
    expect(refused.textContent).toBe(`${slSync.sync.refusedBecause[400]} ${slSync.sync.details}: properties.62 (form_id): must be a number`);
    expect(screen.queryByText('Bad Request', { exact: false })).toBeNull();
    expect(screen.getByText(slSync.sync.conflictExplain)).toBeTruthy();
    // The conflict names its record and shows the user's value beside the server's.
    const conflict = screen.getByTestId(`sync-item-${b!.seq}`);
    expect(conflict.querySelector('[data-testid="sync-item-record"]')!.textContent).toBe(`${slAudit.tables.forms}: ${FORM_KINDS.travnik.title}`);
    const row = screen.getByRole('rowheader', { name: slAudit.columns.note }).closest('tr')!;
    expect([...row.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual(['moje', 'svetovalec']);

    // Conflict → keep mine: the item is pending again, now based on the server's version 9.
    await act(async () => {
      fireEvent.click(screen.getByText(slSync.sync.keepMine));
    });
    await until(async () => (await db.outbox.get(b!.seq!))?.status === 'pending', 'kept mine');
    expect((await db.outbox.get(b!.seq!))!.version).toBe(9);

    // Failed → discard: gone from the outbox and from the local rows.
    await act(async () => {
      fireEvent.click(screen.getByText(slSync.sync.discard));
    });
    await until(async () => (await db.outbox.get(a!.seq!)) === undefined, 'discarded');
    expect(await deviceRow(db, 6, failed.id)).toBeUndefined();
    await act(async () => {
      await mirror(store);
    });
    expect(screen.queryByText(slSync.sync.discard)).toBeNull();
    expect(screen.getByTestId('sync-pending').textContent).toBe(sl.header.pendingEdits(2));
  });

  it('with nothing left to send but an edit the server refused, it does not say everything was sent', async () => {
    const db = openOfflineDb({ name: uniqueDbName('panel-refused') });
    const store = makeStore(undefined, { extra: { db } });
    await saveEdit(db, { kind: 'update', projectId: 1, tableId: 6, id: 10_000_050, properties: { '65': 'moje' } });
    const [item] = await db.outbox.toArray();
    await markItems(db, [item!.seq!], { status: 'conflict', error: { status: 409, message: 'Generic Error' }, current: { id: 10_000_050, version: 9, properties: { '65': 'moje' } } });
    await mirror(store);
    render(
      <Provider store={store}>
        <SyncPanel />
      </Provider>,
    );
    expect(screen.getByTestId('sync-pending').textContent).toBe(sl.header.needsDecision(1));
    // Both sides hold the same value: said so, instead of an empty table.
    expect(screen.getByText(slSync.sync.sameValues)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
