/**
 * The drain pass's copy of the outbox (features/sync/drain-queue.ts), read a page at a time: pages
 * read before an answer's acknowledgement rewrote their items on the device still follow it.
 */
import { describe, expect, it } from '@jest/globals';
import { PassQueue, type ReadPage } from '../../../src/client/features/sync/drain-queue';
import type { OutboxItem } from '../../../src/client/lib/db';
import type { WireRecord } from '../../../src/common/schemas/wire';

const FORMS = 6;
const INDICATORS = 7;

function item(seq: number, fields: Partial<OutboxItem>): OutboxItem {
  return {
    seq,
    opId: `op-${seq}`,
    projectId: 1,
    api: 'Records',
    kind: 'insert',
    tableId: FORMS,
    id: seq,
    properties: {},
    status: 'pending',
    attempts: 0,
    createdAt: '2026-06-01T08:00:00.000Z',
    ...fields,
  };
}

function record(tableId: number, id: number, version: number): WireRecord {
  return {
    id,
    tableId,
    properties: {},
    geometry: null,
    deleted: false,
    archived: false,
    createdAt: '2026-06-01T08:00:00.000Z',
    updatedAt: '2026-06-01T08:00:00.000Z',
    version,
  };
}

/** A reader over `items` (as the device holds them when a page is asked for) whose pages resolve when the test says. */
function pagedReader(items: () => OutboxItem[]) {
  const asked: Array<{ afterSeq: number | undefined; limit: number; resolve: () => void }> = [];
  const read: ReadPage = (afterSeq, limit) => {
    // The page is the device's state when it is read, not when it is handed over.
    const page = items()
      .filter((i) => afterSeq === undefined || i.seq! > afterSeq)
      .slice(0, limit);
    return new Promise((resolve) => asked.push({ afterSeq, limit, resolve: () => resolve(page) }));
  };
  return { read, asked };
}

/** Resolves the pages asked for so far, in order, and lets the queue take them. */
async function handOver(asked: Array<{ resolve: () => void }>): Promise<void> {
  asked.splice(0).forEach((page) => page.resolve());
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('the pass queue, read a page at a time', () => {
  it('reads a page before the first item and the next one ahead, not the whole outbox', async () => {
    const stored = [...Array(10).keys()].map((n) => item(n + 1, {}));
    const { read, asked } = pagedReader(() => stored);
    const queue = new PassQueue(read, 4);
    const first = queue.has(0, 2);
    expect(asked.map(({ afterSeq, limit }) => [afterSeq, limit])).toEqual([[undefined, 4]]);
    await handOver(asked);
    expect(await first).toBe(true);
    expect(queue.items.map((i) => i.seq)).toEqual([1, 2, 3, 4]);
    // The next page is asked for while the first is being sent.
    expect(asked.map(({ afterSeq }) => afterSeq)).toEqual([4]);
    await handOver(asked);
    expect(queue.items.map((i) => i.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const rest = queue.has(8, 2);
    await handOver(asked);
    expect(await rest).toBe(true);
    expect(queue.items.map((i) => i.seq)).toEqual([...Array(10).keys()].map((n) => n + 1));
    expect(await queue.has(10, 2)).toBe(false);
  });

  it('brings items read before an answer was acknowledged up to what it delivered: server ids and versions', async () => {
    const form = item(1, { kind: 'insert', tableId: FORMS, id: 101 });
    const indicator = item(2, { kind: 'insert', tableId: INDICATORS, id: 102, properties: { '71': 101 }, refs: ['71'], refIds: [101] });
    const update = item(3, { kind: 'update', tableId: FORMS, id: 500, version: 1, properties: {} });
    const later = [
      item(4, { kind: 'insert', tableId: INDICATORS, id: 103, properties: { '71': 101 }, refs: ['71'], refIds: [101] }),
      item(5, { kind: 'update', tableId: FORMS, id: 101, properties: { '65': 'x' } }),
      item(6, { kind: 'update', tableId: FORMS, id: 10_000_500, version: 1, properties: {} }),
    ];
    const { read, asked } = pagedReader(() => [form, indicator, update, ...later]);
    const queue = new PassQueue(read, 3);
    const first = queue.has(0, 3);
    await handOver(asked.splice(0, 1));
    expect(await first).toBe(true);
    // The second page was read before the answer came: it holds the offline id and the old version.
    expect(asked).toHaveLength(1);
    queue.follow(3, [
      { item: form, id: 10_000_001 },
      { item: indicator, id: 10_000_002 },
      { item: { ...update, id: 10_000_500 }, id: 10_000_500, record: record(FORMS, 10_000_500, 2) },
    ]);
    await handOver(asked);
    const [child, formUpdate, versioned] = queue.items.slice(3);
    // The child names the parent's server id, and no offline id is left among its references.
    expect(child).toMatchObject({ seq: 4, properties: { '71': 10_000_001 } });
    expect(child!.refIds).toBeUndefined();
    expect(formUpdate).toEqual({ ...later[1], id: 10_000_001 });
    expect(versioned).toEqual({ ...later[2], version: 2 });
  });

  it('takes the device’s rewrite of an item not read yet, then follows what was delivered after it', async () => {
    const stored = [
      item(1, { kind: 'insert', id: 101 }),
      item(2, { kind: 'update', id: 10_000_700, version: 1 }),
      item(3, { kind: 'update', id: 10_000_700, version: 1 }),
    ];
    const { read, asked } = pagedReader(() => stored);
    const queue = new PassQueue(read, 1);
    const first = queue.has(0, 1);
    await handOver(asked.splice(0, 1));
    expect(await first).toBe(true);
    // Item 3 is not read yet (pages of one). A conversion rewrote it on the device meanwhile…
    queue.applyUpdates([{ ...stored[2]!, properties: { '65': 'rewritten' } }]);
    // …and an answer moved its row on from version 1 (item 2, the update before it).
    await handOver(asked);
    queue.follow(2, [{ item: stored[1]!, id: 10_000_700, record: record(FORMS, 10_000_700, 2) }]);
    const third = queue.has(2, 1);
    await handOver(asked);
    expect(await third).toBe(true);
    expect(queue.items[2]).toEqual({ ...stored[2], properties: { '65': 'rewritten' }, version: 2 });
  });
});
