/**
 * A bulk call's answer writes each record from the row's own JSON texts (recordJson) instead of
 * parsing them and turning them into JSON again: the text must read back as exactly the record
 * the single writer answers (rowToRecord), whatever the row holds.
 */
import type { RecordRow } from '../../src/server/db/types';
import { recordJson, rowToRecord } from '../../src/server/repositories/record-mapper';

function row(overrides: Partial<RecordRow>): RecordRow {
  return {
    id: 10_000_123,
    project_id: 1,
    table_id: 7,
    properties: JSON.stringify({ '21': 10_000_001, '22': 'Trifolium "pratense"\n', '23': true, '24': null, '25': 1.5 }),
    geometry: null,
    min_x: null,
    min_y: null,
    max_x: null,
    max_y: null,
    deleted: 0,
    archived: 0,
    created_at: '2026-12-06T10:00:00.000Z',
    updated_at: '2026-12-06T10:00:01.000Z',
    version: 3,
    created_by: 'kmet1@example.si',
    updated_by: null,
    ...overrides,
  };
}

describe('recordJson', () => {
  const rows: Array<[string, RecordRow]> = [
    ['a row without geometry', row({})],
    [
      'a row with a line',
      row({
        geometry: JSON.stringify({
          type: 'LineString',
          coordinates: [
            [14.5, 46.05],
            [14.51, 46.06],
          ],
        }),
        min_x: 14.5,
      }),
    ],
    ['a deleted and archived row', row({ deleted: 1, archived: 1 })],
    ['a row with empty properties and an empty geometry text', row({ properties: '{}', geometry: '' })],
    ['a row whose properties text is spaced as PostgreSQL writes jsonb', row({ properties: '{"21": 5, "22": "x"}' })],
  ];

  it.each(rows)('reads back as rowToRecord of %s', (_name, given) => {
    expect(JSON.parse(recordJson(given))).toEqual(rowToRecord(given));
  });

  it('is the same text as JSON.stringify of the record for a row the server wrote', () => {
    const written = row({ geometry: JSON.stringify({ type: 'Point', coordinates: [14.5, 46.05] }) });
    expect(recordJson(written)).toBe(JSON.stringify(rowToRecord(written)));
  });
});
