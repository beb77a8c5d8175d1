/** Wire types of GET /api/Audit/{projectId}: the editors' audit trail of every change in a project. */
import type { HistoryEntry } from './wire';

export interface AuditChange {
  /** The column's name (`geometry` for the record's geometry). */
  column: string;
  old: unknown;
  new: unknown;
}

export interface AuditEntry {
  id: number;
  changedAt: string;
  /** E-mail (or subject) of the user who made the change. */
  changedBy: string | null;
  action: HistoryEntry['action'];
  tableId: number;
  /** The table's key (farmers, areas, …). */
  table: string;
  recordId: number;
  changes: AuditChange[];
}

export interface AuditPage {
  entries: AuditEntry[];
  totalCount: number;
}

/** Query of GET /api/Audit/{projectId} (and …/csv without the paging). */
export interface AuditQuery {
  farmerId?: number;
  tableId?: number;
  /** ISO instant, inclusive. */
  from?: string;
  /** ISO instant, exclusive. */
  to?: string;
  page?: number;
  perPage?: number;
}
