/**
 * What the sync panel says about an edit that waits for the user: which record it is (by what a
 * farmer knows it as: a form's kind, an indicator's plant, a meadow's name — not its id) and, for
 * a conflict, each value the user changed that the server now holds differently. Without these
 * "keep mine" and "take theirs" would be a blind choice, and either can throw away an edit.
 */
import { withoutOperation } from '../../../common/errors';
import { changeColumnLabel, changeTableLabel, changeValueText } from '../../../common/history-diff';
import { fillText, slAudit, slReview, slScreens, slSync } from '../../../common/i18n/sl';
import { reviewStateOf } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById, indicatorByKey } from '../../../common/scheme/kind-lookup';
import { TABLE_KEYS, type TableKey } from '../../../common/schemas/project';
import type { Properties, WireRecord } from '../../../common/schemas/wire';
import { readRow } from '../../lib/db/model';
import type { AttentionItem } from './sync-slice';

interface ValueDifference {
  /** The column as the audit trail names it ('opomba'). */
  column: string;
  yours: string;
  theirs: string;
}

export interface AttentionDetails {
  /** 'Obrazci: Hoja po travniku'. */
  record: string;
  /** What happened, in Slovenian: a conflict, or why the server refused the edit. */
  reason: string;
  /** A refusal's detail from the server (which value, which rule), without the operation's name. */
  detail?: string;
  /** A conflict's differing values (empty for a failed item, or when the values agree). */
  differences: ValueDifference[];
  /**
   * An edit kept out by the form's review (a farmer's edit of a submitted or decided form): the
   * values it would have set, for the comment it may become instead.
   */
  locked?: { state: string; values: Array<{ column: string; value: string }> };
}

interface TableNames {
  key: TableKey;
  /** Column key in `properties` (its id) → column name: the edit names any column of the table. */
  nameOf: Map<string, string>;
}

function tableOf(config: AppConfig, tableId: number): TableNames | undefined {
  const key = TABLE_KEYS.find((k) => config.tables[k].id === tableId);
  if (key === undefined) return undefined;
  return { key, nameOf: new Map(Object.entries(config.tables[key].columns).map(([name, id]) => [String(id), name])) };
}

/** A value as the form screen shows it: Da/Ne, a choice by its label, a form kind or plant by its name. */
function valueText(config: AppConfig, table: TableNames, column: string, value: unknown, properties: Properties): string {
  if (typeof value === 'boolean') return value ? slScreens.forms.yes : slScreens.forms.no;
  let named: string | undefined;
  if (table.key === 'forms' && column === 'form_id') named = formKindById(value, config.forms)?.title;
  else if (table.key === 'indicators' && column === 'key') named = indicatorByKey(value, config.forms)?.name;
  else if (table.key === 'indicators' && column === 'value')
    named = indicatorByKey(readRow(config, 'indicators', { properties }).key, config.forms)?.choices?.find((choice) => choice.value === value)?.label;
  return named ?? changeValueText(value, slAudit.empty);
}

function recordName(config: AppConfig, table: TableNames, properties: Properties, id: number): string {
  let named: unknown;
  if (table.key === 'forms') named = formKindById(readRow(config, 'forms', { properties }).form_id, config.forms)?.title;
  else if (table.key === 'indicators') named = indicatorByKey(readRow(config, 'indicators', { properties }).key, config.forms)?.name;
  // Any other table by its `name` column, when it has one (a season link has none).
  else named = (readRow(config, table.key, { properties }) as { name?: unknown }).name;
  return typeof named === 'string' && named.trim() ? named : slSync.sync.recordId(id);
}

/** Why the edit waits: a conflict, or the server's refusal by its status, with the server's detail. */
function reasonOf(item: AttentionItem): Pick<AttentionDetails, 'reason' | 'detail'> {
  if (item.reviewState !== undefined) return { reason: fillText(slSync.sync.lockedExplain, { state: slReview.state[reviewStateOf(item.reviewState)] }) };
  if (item.status === 'conflict') return { reason: slSync.sync.conflictExplain };
  if (item.httpStatus === 'LOCAL') return { reason: slSync.sync.fileMissing };
  const reasons = slSync.sync.refusedBecause;
  const reason = (typeof item.httpStatus === 'number' ? reasons[item.httpStatus] : undefined) ?? reasons.other;
  return item.detail ? { reason, detail: withoutOperation(item.detail) } : { reason };
}

export function attentionDetails(config: AppConfig | null, item: AttentionItem): AttentionDetails {
  // A locked edit's `current` may be another table's row (the form, for a new indicator).
  const server = item.status === 'conflict' && item.reviewState === undefined ? (item.current as Partial<WireRecord> | undefined) : undefined;
  const table = config ? tableOf(config, item.tableId) : undefined;
  if (!config || !table) return { record: slSync.sync.recordId(item.id), ...reasonOf(item), differences: [] };
  const theirs: Properties = server?.properties ?? {};
  const yours: Properties = item.properties ?? {};
  // Named as it now is on the server, with what this edit changes.
  const named = { ...theirs, ...yours };
  const record = `${changeTableLabel(table.key)}: ${recordName(config, table, named, server?.id ?? item.id)}`;
  const differences: ValueDifference[] = [];
  if (server) {
    for (const [key, value] of Object.entries(yours)) {
      if (JSON.stringify(value ?? null) === JSON.stringify(theirs[key] ?? null)) continue;
      const column = table.nameOf.get(key) ?? key;
      differences.push({
        column: changeColumnLabel(column),
        yours: valueText(config, table, column, value, named),
        theirs: valueText(config, table, column, theirs[key], theirs),
      });
    }
  }
  if (item.reviewState !== undefined) {
    const values = Object.entries(yours)
      .filter(([key]) => !(table.key === 'indicators' && table.nameOf.get(key) === 'parent'))
      .map(([key, value]) => ({
        column: changeColumnLabel(table.nameOf.get(key) ?? key),
        value: valueText(config, table, table.nameOf.get(key) ?? key, value, named),
      }));
    return { record, ...reasonOf(item), differences, locked: { state: item.reviewState, values } };
  }
  return { record, ...reasonOf(item), differences };
}

/**
 * The form an edit kept out by its review belongs to: the form itself, the form the server sent
 * back as `current` (a new indicator), or the indicator's `parent` (as edited or as the server has it).
 */
export function lockedFormId(config: AppConfig, item: Pick<AttentionItem, 'tableId' | 'id' | 'current' | 'properties'>): number | null {
  if (item.tableId === config.tables.forms.id) return item.id;
  const current = item.current as Partial<WireRecord> | undefined;
  if (current?.tableId === config.tables.forms.id && typeof current.id === 'number') return current.id;
  if (item.tableId !== config.tables.indicators.id) return null;
  return (
    readRow(config, 'indicators', { properties: item.properties ?? {} }).parent ??
    readRow(config, 'indicators', { properties: current?.properties ?? {} }).parent
  );
}

/** The comment an edit kept out by its review becomes: what the farmer wanted to change, in words. */
export function lockedEditComment(details: AttentionDetails): string {
  const values = details.locked?.values ?? [];
  const changes = values.map(({ column, value }) => `${column}: ${value}`).join('; ');
  return fillText(slSync.sync.lockedComment, { record: details.record, changes: changes || slSync.sync.lockedNoValues });
}
