/**
 * The audit trail as CSV rows: one line per changed column (a spreadsheet filters and sorts
 * them), one line with empty change cells for an entry that changed no column (an archive).
 */
import { csvHead, csvLine } from '../../../../common/csv';
import { changeColumnLabel, changeValueText } from '../../../../common/history-diff';
import { slAudit } from '../../../../common/i18n/sl';
import type { AuditEntry } from '../../../../common/schemas/audit';

const t = slAudit;

export function auditCsvHead(): string {
  return csvHead([t.when, t.who, t.action, t.table, t.record, t.column, t.before, t.after]);
}

export function auditCsvLines(entries: readonly AuditEntry[]): string {
  let text = '';
  for (const e of entries) {
    // The record by its name (its id beside it: a spreadsheet may join on it).
    const common = [
      e.changedAt,
      e.changedBy ?? t.unknownUser,
      t.actions[e.action],
      t.tables[e.table as keyof typeof t.tables] ?? e.table,
      e.record ? `${e.record} (${e.recordId})` : e.recordId,
    ];
    if (e.changes.length === 0) text += csvLine([...common, '', '', '']);
    for (const c of e.changes)
      text += csvLine([...common, changeColumnLabel(c.column), c.oldText ?? changeValueText(c.old, ''), c.newText ?? changeValueText(c.new, '')]);
  }
  return text;
}
