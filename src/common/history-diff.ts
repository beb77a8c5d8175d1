/**
 * What one change-history entry changed: the columns whose value differs between the snapshot
 * before and after (insert: everything set; delete: everything cleared) and whether the geometry
 * moved. The results export, the editors' audit trail and its CSV all describe a change this way.
 */
import { slAudit } from './i18n/sl';
import type { AuditChange } from './schemas/audit';
import type { HistoryEntry } from './schemas/wire';

export interface PropertyChange {
  /** The column's key in `properties` (a column id on the wire). */
  key: string;
  old: unknown;
  new: unknown;
}

type Snapshot = HistoryEntry['old'];

export function propertyChanges(before: Snapshot, after: Snapshot): PropertyChange[] {
  const a = before?.properties ?? {};
  const b = after?.properties ?? {};
  const changes: PropertyChange[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const old = a[key] ?? null;
    const value = b[key] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(value)) changes.push({ key, old, new: value });
  }
  return changes;
}

export function geometryChanged(before: Snapshot, after: Snapshot): boolean {
  return JSON.stringify(before?.geometry ?? null) !== JSON.stringify(after?.geometry ?? null);
}

/** A value as the audit trail shows it: text as it is, no value as `empty`, anything else as JSON. */
export function changeValueText(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A column's name as the audit trail shows it, in Slovenian (`geometry` included). */
export function changeColumnLabel(column: string): string {
  return (slAudit.columns as Record<string, string>)[column] ?? column;
}

/** A table's name as the audit trail shows it, in Slovenian ('Obrazci'). */
export function changeTableLabel(key: string): string {
  return (slAudit.tables as Record<string, string>)[key] ?? key;
}

/** Longest value a screen shows of a change; the CSV of the trail has every value whole. */
const SHOWN_VALUE_CHARS = 80;

function shown(value: unknown, named: string | undefined, maxChars: number): string {
  const text = named ?? changeValueText(value, slAudit.empty);
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/**
 * 'opomba: Ocena junij → Popravil svetovalec', 'kmet: — → Janez Novak' (a value by its name when
 * it has one); a moved geometry is named, not printed. Long values are cut for a screen.
 */
export function changeText(change: AuditChange, maxChars = SHOWN_VALUE_CHARS): string {
  if (change.column === 'geometry') return slAudit.geometryChanged;
  return `${changeColumnLabel(change.column)}: ${shown(change.old, change.oldText, maxChars)} → ${shown(change.new, change.newText, maxChars)}`;
}
