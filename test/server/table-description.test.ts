/**
 * The server's views of the tables, derived from their one description
 * (src/common/schemas/project.ts): the project schema createProject writes and the farmer's
 * ownership chain of the role checks. Pinned to what they were when each was written by hand, so a
 * change to the description or to a derivation that alters them fails here, not in a migration.
 */
import { describe, expect, it } from '@jest/globals';
import { TABLES, TABLE_KEYS } from '../../src/common/schemas/project';
import { LOADED_CHAIN, OWNERSHIP_CHAIN, SHARED_TABLES } from '../../src/server/access/scope';
import { MONITORING_TABLES } from '../../src/server/db/monitoring-schema';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

describe('the project schema (monitoring-schema.ts)', () => {
  it('is the one written by hand before: tables, columns, order, types, references, indexes, attachment slots', () => {
    expect(MONITORING_TABLES).toStrictEqual([
      {
        key: 'farmers',
        name: 'Kmetje',
        columns: [
          { name: 'name', type: 'text' },
          { name: 'email', type: 'text', indexed: true },
          { name: 'phone', type: 'text' },
          { name: 'kmg_mid', type: 'text' },
        ],
      },
      {
        key: 'areas',
        name: 'Travniki',
        columns: [
          { name: 'name', type: 'text' },
          { name: 'user', type: 'reference', ref: 'farmers' },
          { name: 'gerk_pid', type: 'text' },
          { name: 'area_ha', type: 'number' },
        ],
      },
      {
        key: 'paths',
        name: 'Poti',
        columns: [
          { name: 'name', type: 'text' },
          { name: 'parent', type: 'reference', ref: 'areas' },
          { name: 'length_m', type: 'number' },
          { name: 'walk', type: 'json' },
        ],
        attachments: [{ name: 'photos', mimeTypes: IMAGE_TYPES, maxFiles: 20 }],
      },
      {
        key: 'durations',
        name: 'Sezone',
        columns: [
          { name: 'name', type: 'text' },
          { name: 'filter_start', type: 'date' },
          { name: 'filter_end', type: 'date' },
          { name: 'submit_until', type: 'date' },
          { name: 'review_until', type: 'date' },
          { name: 'appeal_days', type: 'number' },
        ],
      },
      {
        key: 'durationPaths',
        name: 'Poti v sezoni',
        columns: [
          { name: 'duration_id', type: 'reference', ref: 'durations' },
          { name: 'path_id', type: 'reference', ref: 'paths' },
        ],
      },
      {
        key: 'forms',
        name: 'Obrazci',
        columns: [
          { name: 'parent', type: 'reference', ref: 'durationPaths' },
          { name: 'form_id', type: 'number' },
          { name: 'score', type: 'number' },
          { name: 'rule_version', type: 'text' },
          { name: 'note', type: 'text' },
          { name: 'completed', type: 'boolean' },
          { name: 'review_state', type: 'text', indexed: true },
          { name: 'review_reason', type: 'text' },
          { name: 'review_indicator', type: 'text' },
          { name: 'reviewed_by', type: 'text' },
          { name: 'reviewed_at', type: 'date' },
          { name: 'return_until', type: 'date' },
        ],
        attachments: [{ name: 'photos', mimeTypes: IMAGE_TYPES, maxFiles: 20 }],
      },
      {
        key: 'indicators',
        name: 'Kazalniki',
        columns: [
          { name: 'parent', type: 'reference', ref: 'forms' },
          { name: 'key', type: 'text', indexed: true },
          { name: 'value', type: 'json' },
          { name: 'note', type: 'text' },
        ],
        attachments: [{ name: 'photos', mimeTypes: IMAGE_TYPES, maxFiles: 10 }],
      },
      {
        key: 'comments',
        name: 'Komentarji',
        columns: [
          { name: 'parent', type: 'reference', ref: 'forms' },
          { name: 'text', type: 'text' },
          { name: 'indicator', type: 'text' },
          { name: 'state', type: 'text' },
          { name: 'author', type: 'text' },
        ],
      },
    ]);
  });

  it('every reference names a described table, and only reference columns have one', () => {
    for (const table of MONITORING_TABLES) {
      for (const column of table.columns) {
        if (column.type === 'reference') expect(TABLE_KEYS).toContain(column.ref);
        else expect(column.ref).toBeUndefined();
      }
    }
  });
});

describe('the ownership chain (access/scope.ts)', () => {
  it('is the one written by hand before', () => {
    expect(OWNERSHIP_CHAIN).toStrictEqual({
      areas: { column: 'user', parent: 'farmers' },
      paths: { column: 'parent', parent: 'areas' },
      durationPaths: { column: 'path_id', parent: 'paths' },
      forms: { column: 'parent', parent: 'durationPaths' },
      indicators: { column: 'parent', parent: 'forms' },
      comments: { column: 'parent', parent: 'forms' },
    });
    expect(Object.keys(OWNERSHIP_CHAIN)).toEqual(['areas', 'paths', 'durationPaths', 'forms', 'indicators', 'comments']);
    // Indicators are many per form: matched by their form, not loaded per request.
    expect(LOADED_CHAIN).toEqual(['areas', 'paths', 'durationPaths', 'forms']);
    expect(SHARED_TABLES).toEqual(['durations']);
  });

  it('names an owner before the tables under it (loadOwnedChain loads them in that order), and nothing hangs under a table scoped by its owner', () => {
    const seen = new Set(TABLE_KEYS.filter((key) => TABLES[key].farmerSees === 'self'));
    expect([...seen]).toEqual(['farmers']);
    for (const [key, link] of Object.entries(OWNERSHIP_CHAIN)) {
      expect(seen.has(link.parent as never)).toBe(true);
      if (LOADED_CHAIN.includes(key)) seen.add(key as never);
    }
  });
});
