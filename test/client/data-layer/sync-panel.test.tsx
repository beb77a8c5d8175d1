/**
 * The sync panel in a browser-like DOM: waiting count, last sync time, failed and conflicting
 * items in Slovenian, and the user's actions reaching the outbox in IndexedDB.
 */
import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { formatDateTime } from '../../../src/common/format';
import { sl, slAudit, slReview, slScreens, slSync } from '../../../src/common/i18n/sl';
import { FORM_KINDS, formKinds } from '../../../src/common/scheme/form-kinds';
import { configLoaded } from '../../../src/client/lib/config';
import { makeStore } from '../../../src/client/app/store';
import { deviceRow, openOfflineDb, saveEdit, markItems, summarizeOutbox } from '../../../src/client/lib/db';
import { outboxSummaryLoaded, toAttentionItem, drainSucceeded } from '../../../src/client/features/sync';
import { SyncPanel } from '../../../src/client/features/sync/components/sync-panel';
import { testConfig, uniqueDbName, until } from './helpers';

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
    await markItems(db, [a!.seq!], {
      status: 'failed',
      error: { status: 400, message: 'Bad Request', detail: 'operations[0].properties.62 (form_id): must be a number' },
    });
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
    await markItems(db, [item!.seq!], {
      status: 'conflict',
      error: { status: 409, message: 'Generic Error' },
      current: { id: 10_000_050, version: 9, properties: { '65': 'moje' } },
    });
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

  it('an edit kept out by the form\'s review is not "keep mine": it becomes a comment to the adviser with the values in words, or is dropped for the server\'s row', async () => {
    const db = openOfflineDb({ name: uniqueDbName('panel-locked') });
    const store = makeStore(undefined, { extra: { db } });
    store.dispatch(configLoaded({ config: { ...testConfig, forms: formKinds }, source: 'network' }));
    // Offline, the farmer ticked a plant (a new indicator of form 10_000_060) and changed a note of another form.
    const plant = FORM_KINDS.travnik.indicators.find((d) => d.latin !== undefined)!;
    await saveEdit(db, { kind: 'insert', projectId: 1, tableId: 7, properties: { '71': 10_000_060, '72': plant.key, '73': true } });
    await saveEdit(db, { kind: 'update', projectId: 1, tableId: 6, id: 10_000_070, properties: { '65': 'moja opomba' } });
    const [tick, note] = await db.outbox.orderBy('seq').toArray();
    // Meanwhile the adviser approved form 60 and took form 70 into review: the server refused both.
    const form60 = { id: 10_000_060, tableId: 6, version: 4, properties: { '62': FORM_KINDS.travnik.id, '67': 'approved' } };
    const form70 = { id: 10_000_070, tableId: 6, version: 5, properties: { '62': FORM_KINDS.travnik.id, '65': 'prej', '67': 'submitted' } };
    await markItems(db, [tick!.seq!], {
      status: 'conflict',
      error: { status: 409, message: 'Generic Error', detail: 'zaklenjeno', reviewState: 'approved' },
      current: form60,
    });
    await markItems(db, [note!.seq!], { status: 'conflict', error: { status: 409, message: 'Generic Error', reviewState: 'submitted' }, current: form70 });
    await mirror(store);
    render(
      <Provider store={store}>
        <SyncPanel />
      </Provider>,
    );
    const first = screen.getByTestId(`sync-item-${tick!.seq}`);
    expect(first.textContent).toContain(slSync.sync.lockedExplain.replace('{state}', slReview.state.approved));
    // The values the farmer wanted, by name (the plant, "Da"), not beside an unrelated form's row.
    expect(first.querySelector('[data-testid="sync-item-record"]')!.textContent).toBe(`${slAudit.tables.indicators}: ${plant.name}`);
    expect(first.textContent).toContain(`${slAudit.columns.value}${slScreens.forms.yes}`);
    expect(first.textContent).not.toContain(slSync.sync.keepMine);

    await act(async () => {
      fireEvent.click(within(first).getByText(slSync.sync.sendAsComment));
    });
    await until(async () => (await db.outbox.get(tick!.seq!)) === undefined, 'sent as a comment');
    const [comment] = await db.outbox.where('tableId').equals(8).toArray();
    expect(comment).toMatchObject({ kind: 'insert', properties: { '81': 10_000_060 } });
    const text = (comment!.properties as Record<string, string>)['82']!;
    expect(text).toContain(plant.name);
    expect(text).toContain(slAudit.columns.value);
    // The tick's offline row is gone: the form stays as the adviser approved it.
    expect(await deviceRow(db, 7, tick!.id)).toBeUndefined();

    // Dropping the note: the device gets the server's form back (its note, its state).
    await act(async () => {
      await mirror(store);
    });
    await act(async () => {
      fireEvent.click(within(screen.getByTestId(`sync-item-${note!.seq}`)).getByText(slSync.sync.discardMine));
    });
    await until(async () => (await db.outbox.get(note!.seq!)) === undefined, 'dropped');
    expect((await deviceRow(db, 6, 10_000_070))?.feature.properties).toEqual(form70.properties);
  });
});
