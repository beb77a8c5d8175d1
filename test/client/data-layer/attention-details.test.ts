/**
 * What the sync panel says about an edit waiting for the user: the record by the name a farmer
 * knows it by, and a conflict's values as the form screen shows them, the user's beside the server's.
 */
import { describe, expect, it } from '@jest/globals';
import { slAudit, slScreens, slSync } from '../../../src/common/i18n/sl';
import { FORM_KINDS, formKinds } from '../../../src/common/scheme/form-kinds';
import { findIndicator } from '../../../src/common/scheme/kind-lookup';
import { attentionDetails } from '../../../src/client/features/sync/attention-details';
import type { AttentionItem } from '../../../src/client/features/sync';
import { testConfig } from './helpers';

const config = { ...testConfig, forms: formKinds };

function item(patch: Partial<AttentionItem>): AttentionItem {
  return {
    seq: 1,
    opId: 'op',
    kind: 'update',
    tableId: 6,
    id: 10_000_050,
    status: 'conflict',
    message: 'Conflict',
    createdAt: '2026-06-15T08:00:00.000Z',
    ...patch,
  };
}

describe('attention details', () => {
  it('a form conflict: named by its kind; each value the user changed that the server holds differently, both sides', () => {
    const details = attentionDetails(
      config,
      item({
        properties: { '65': 'Pokošeno 20. junija.', '66': true, '63': 12 },
        current: { id: 10_000_050, tableId: 6, version: 4, properties: { '62': FORM_KINDS.travnik.id, '65': 'Svetovalec: prezgodaj.', '66': false, '63': 12 } },
      }),
    );
    expect(details.record).toBe(`${slAudit.tables.forms}: ${FORM_KINDS.travnik.title}`);
    // The score agrees on both sides: not a difference.
    expect(details.differences).toEqual([
      { column: slAudit.columns.note, yours: 'Pokošeno 20. junija.', theirs: 'Svetovalec: prezgodaj.' },
      { column: slAudit.columns.completed, yours: slScreens.forms.yes, theirs: slScreens.forms.no },
    ]);
  });

  it("an indicator conflict: named by its plant; a choice by its label; a value the server cleared as '—'", () => {
    const taraxacum = findIndicator(FORM_KINDS.travnik, 'taraxacum')!;
    const label = (value: string) => taraxacum.choices!.find((choice) => choice.value === value)!.label;
    const conflict = attentionDetails(
      config,
      item({
        tableId: 7,
        properties: { '73': 'pogosto', '74': 'ob robu' },
        current: { id: 10_000_051, tableId: 7, version: 2, properties: { '72': 'taraxacum', '73': 'ni' } },
      }),
    );
    expect(conflict.record).toBe(`${slAudit.tables.indicators}: ${taraxacum.name}`);
    expect(conflict.differences).toEqual([
      { column: slAudit.columns.value, yours: label('pogosto'), theirs: label('ni') },
      { column: slAudit.columns.note, yours: 'ob robu', theirs: slAudit.empty },
    ]);
  });

  it('a failed insert is named from its own values and lists no differences; a meadow by its name', () => {
    const failed = attentionDetails(config, item({ kind: 'insert', status: 'failed', tableId: 7, id: 42, properties: { '72': 'taraxacum', '73': 'ni' } }));
    expect(failed).toEqual({
      record: `${slAudit.tables.indicators}: ${findIndicator(FORM_KINDS.travnik, 'taraxacum')!.name}`,
      reason: slSync.sync.refusedBecause.other,
      differences: [],
    });
    const meadow = attentionDetails(config, item({ status: 'failed', tableId: 2, properties: { '21': 'Za hlevom' } }));
    expect(meadow.record).toBe(`${slAudit.tables.areas}: Za hlevom`);
  });

  it('a record with nothing to name it by, or no config yet: by its id', () => {
    expect(attentionDetails(config, item({ tableId: 5, properties: {} })).record).toBe(`${slAudit.tables.durationPaths}: ${slSync.sync.recordId(10_000_050)}`);
    expect(attentionDetails(null, item({}))).toEqual({ record: slSync.sync.recordId(10_000_050), reason: slSync.sync.conflictExplain, differences: [] });
  });

  it("why: a conflict; a refusal by its status in Slovenian, with the server's detail less the operation's name; a missing file", () => {
    const failed = (httpStatus: number | string, detail?: string) => {
      const { reason, detail: shown } = attentionDetails(config, item({ status: 'failed', httpStatus, ...(detail ? { detail } : {}) }));
      return { reason, detail: shown };
    };
    expect(failed(404, 'operations[2]: record 10000050 not found in table forms (6)')).toEqual({
      reason: slSync.sync.refusedBecause[404],
      detail: 'record 10000050 not found in table forms (6)',
    });
    // A rule's own (Slovenian) text, as the bulk writer wraps it.
    expect(failed(400, 'operations[0] (opId 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b): Obdobje se prekriva s sezono 2026.')).toEqual({
      reason: slSync.sync.refusedBecause[400],
      detail: 'Obdobje se prekriva s sezono 2026.',
    });
    expect(failed(403)).toEqual({ reason: slSync.sync.refusedBecause[403], detail: undefined });
    expect(failed(422, 'Idempotency-Key reused')).toEqual({ reason: slSync.sync.refusedBecause.other, detail: 'Idempotency-Key reused' });
    expect(failed('LOCAL', 'attachment file missing on this device')).toEqual({ reason: slSync.sync.fileMissing, detail: undefined });
  });
});
