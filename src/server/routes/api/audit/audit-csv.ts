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
    const common = [e.changedAt, e.changedBy ?? t.unknownUser, t.actions[e.action], t.tables[e.table as keyof typeof t.tables] ?? e.table, e.recordId];
    if (e.changes.length === 0) text += csvLine([...common, '', '', '']);
    for (const c of e.changes) text += csvLine([...common, changeColumnLabel(c.column), changeValueText(c.old, ''), changeValueText(c.new, '')]);
  }
  return text;
}
