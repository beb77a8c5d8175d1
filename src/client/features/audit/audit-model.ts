/** Pure helpers of the audit screen: the editor's local days as the server's instants, change texts. */
import { changeColumnLabel, changeValueText } from '../../../common/history-diff';
import { slAudit } from '../../../common/i18n/sl';
import type { AuditChange } from '../../../common/schemas/audit';

/** Longest value shown on the screen; the CSV has every value whole. */
const SHOWN_VALUE_CHARS = 80;

/**
 * The window of days `from`..`to` ('YYYY-MM-DD', both included, on the device's calendar) as
 * ISO instants: from the start of `from` to the start of the day after `to`.
 */
export function dayWindow(from: string, to: string): { from?: string; to?: string } {
  const start = (day: string, plusDays = 0) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return new Date(y, m - 1, d + plusDays).toISOString();
  };
  return { ...(from ? { from: start(from) } : {}), ...(to ? { to: start(to, 1) } : {}) };
}

function shown(value: unknown, named: string | undefined): string {
  const text = named ?? changeValueText(value, slAudit.empty);
  return text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS - 1)}…` : text;
}

/** 'opomba: Ocena junij → Popravil svetovalec', 'kmet: — → Janez Novak' (a value by its name when it has one); a moved geometry is named, not printed. */
export function changeText(change: AuditChange): string {
  if (change.column === 'geometry') return slAudit.geometryChanged;
  return `${changeColumnLabel(change.column)}: ${shown(change.old, change.oldText)} → ${shown(change.new, change.newText)}`;
}
