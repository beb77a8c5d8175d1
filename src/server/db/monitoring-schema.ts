/**
 * The monitoring tables as createProject takes them (demo seed, large benchmark seed), derived
 * from their one description, src/common/schemas/project.ts (TABLES): tables and columns in the
 * description's order, which is the order their ids are given in. A table's name is its Slovenian
 * name of i18n/sl.ts, the one the audit trail shows.
 */
import { slAudit } from '../../common/i18n/sl';
import { describeTable, TABLE_KEYS, type ColumnType, type TableKey } from '../../common/schemas/project';

export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  /** For reference columns: the table key the value points into. */
  ref?: TableKey;
  /**
   * Filtered often enough to deserve an expression index (records_prop_<columnId>, see
   * property-indexes.ts). Reference columns are always indexed; this flags other columns.
   */
  indexed?: boolean;
}

export interface TableDefinition {
  key: TableKey;
  name: string;
  columns: ColumnDefinition[];
  /** Attachment slots (tableAttachmentInfo): name → accepted MIME types. */
  attachments?: Array<{ name: string; mimeTypes?: string[]; maxFiles?: number }>;
}

function tableDefinition(key: TableKey): TableDefinition {
  const table = describeTable(key);
  const columns = Object.entries(table.columns).map(([name, column]): ColumnDefinition => ({
    name,
    type: column.type,
    ...(column.ref !== undefined ? { ref: column.ref as TableKey } : {}),
    ...(column.indexed !== undefined ? { indexed: column.indexed } : {}),
  }));
  const attachments = Object.entries(table.attachments ?? {}).map(([name, slot]) => ({
    name,
    ...(slot.mimeTypes !== undefined ? { mimeTypes: [...slot.mimeTypes] } : {}),
    ...(slot.maxFiles !== undefined ? { maxFiles: slot.maxFiles } : {}),
  }));
  return { key, name: slAudit.tables[key], columns, ...(attachments.length ? { attachments } : {}) };
}

export const MONITORING_TABLES: TableDefinition[] = TABLE_KEYS.map(tableDefinition);
