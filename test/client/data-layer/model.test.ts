/**
 * The client's typed model of the tables (lib/db/model.ts) and its reference columns
 * (lib/db/refs.ts), both derived from the one description (src/common/schemas/project.ts): a
 * stored record read as a typed row and named values written back as properties; a misspelt
 * column is a compile error (the @ts-expect-error lines fail `npm run typecheck` if it were not);
 * the reference columns are the ones written by hand before.
 */
import { describe, expect, it } from '@jest/globals';
import { TABLES, TABLE_KEYS } from '../../../src/common/schemas/project';
import type { StoredRecord } from '../../../src/client/lib/db/database';
import { readRow, toProperties, type Form } from '../../../src/client/lib/db/model';
import { refKeysFor } from '../../../src/client/lib/db/refs';
import { testConfig } from './helpers';

/** A record's own fields, which a row keeps beside its columns. */
const own = {
  id: 10_000_001,
  geometry: null,
  deleted: false,
  archived: true,
  createdAt: '2026-05-01T08:00:00.000Z',
  updatedAt: '2026-05-02T08:00:00.000Z',
  version: 3,
};
const record = (tableId: number, properties: Record<string, unknown>): StoredRecord => ({ ...own, tableId, properties });

describe('readRow', () => {
  it('gives the record its columns by name and type, keeps its own fields and leaves the column ids behind', () => {
    const form: Form = readRow(testConfig, 'forms', record(6, { 61: 42, 62: '2', 63: 71.5, 64: 'v1', 66: true }));
    expect(form).toStrictEqual({
      ...own,
      tableId: 6,
      parent: 42,
      // A numeric string (a CSV import, an older client) reads as the number.
      form_id: 2,
      score: 71.5,
      rule_version: 'v1',
      // Missing: null.
      note: null,
      completed: true,
      review_state: null,
      review_reason: null,
      review_indicator: null,
      reviewed_by: null,
      reviewed_at: null,
      return_until: null,
    });
  });

  it('reads each type: text from numbers too, no number from words, booleans only as booleans, json and dates as they are', () => {
    const farmer = readRow(testConfig, 'farmers', record(1, { 11: 'Ana', 12: null, 13: 38640123456, 14: { x: 1 } }));
    expect([farmer.name, farmer.email, farmer.phone, farmer.kmg_mid]).toEqual(['Ana', null, '38640123456', null]);
    const path = readRow(testConfig, 'paths', record(3, { 32: 'abc', 33: '', 34: { recordedAt: '2026-06-01' } }));
    expect([path.parent, path.length_m, path.walk]).toEqual([null, null, { recordedAt: '2026-06-01' }]);
    const form = readRow(testConfig, 'forms', record(6, { 66: 'true' }));
    expect(form.completed).toBeNull();
    const indicator = readRow(testConfig, 'indicators', record(7, { 73: false }));
    expect([indicator.value, indicator.note]).toEqual([false, null]);
    const season = readRow(testConfig, 'durations', record(4, { 41: '2026', 42: '2026-03-01', 43: '2026-10-31' }));
    expect([season.name, season.filter_start, season.filter_end]).toEqual(['2026', '2026-03-01', '2026-10-31']);
  });

  it('reads any row with properties (a server answer as well as a stored row)', () => {
    expect(readRow(testConfig, 'areas', { id: 5, properties: { 21: 'Gmajna', 22: 7 } })).toStrictEqual({
      id: 5,
      name: 'Gmajna',
      user: 7,
      gerk_pid: null,
      area_ha: null,
    });
  });

  it('a misspelt column is a compile error', () => {
    const path = readRow(testConfig, 'paths', record(3, { 31: 'Pot 1' }));
    // @ts-expect-error: paths have no column `nmae`
    expect(path.nmae).toBeUndefined();
    // @ts-expect-error: forms have no column `complete`
    expect(() => toProperties(testConfig, 'forms', { complete: true })).toThrow('config.json has no column forms.complete');
  });

  it('no column is named like a field of the record, which the row keeps beside its columns', () => {
    const fields = Object.keys(record(1, {}));
    for (const key of TABLE_KEYS) for (const column of Object.keys(TABLES[key].columns)) expect(fields).not.toContain(column);
  });
});

describe('toProperties', () => {
  it('keys the named values by column id; null clears a column, undefined leaves it out', () => {
    expect(toProperties(testConfig, 'forms', { note: null, completed: false, score: 80, rule_version: undefined })).toStrictEqual({
      65: null,
      66: false,
      63: 80,
    });
    expect(toProperties(testConfig, 'durationPaths', { duration_id: 9, path_id: -12 })).toStrictEqual({ 51: 9, 52: -12 });
  });

  it('a row read and written back is the same properties', () => {
    const properties = { 31: 'Pot 1', 32: 22, 33: 120.5, 34: { recordedAt: '2026-06-01' } };
    const { name, parent, length_m, walk } = readRow(testConfig, 'paths', record(3, properties));
    expect(toProperties(testConfig, 'paths', { name, parent, length_m, walk })).toStrictEqual(properties);
  });
});

describe('reference columns (refs.ts)', () => {
  it('are the ones written by hand before: areas.user, paths.parent, durationPaths.duration_id and path_id, forms.parent, indicators.parent, comments.parent', () => {
    const keys = Object.fromEntries(TABLE_KEYS.map((key) => [key, refKeysFor(testConfig, key)]));
    expect(keys).toStrictEqual({
      farmers: [],
      areas: ['22'],
      paths: ['32'],
      durations: [],
      durationPaths: ['51', '52'],
      forms: ['61'],
      indicators: ['71'],
      comments: ['81'],
    });
  });
});
