/**
 * A project's tables as the server holds them in memory: columns by id and name, attachment
 * slots, tables by id and key. Loaded and cached by repositories/project-repository.ts; read by the
 * access rules, the repositories and the import.
 */
import type { ColumnType } from '../common/schemas/project';

export interface ColumnInfo {
  id: number;
  tableId: number;
  name: string;
  type: ColumnType;
  refTableId: number | null;
}

export interface AttachmentSlot {
  id: number;
  tableId: number;
  name: string;
  /** Accepted MIME types; null = anything on the server's allow list. */
  mimeTypes: string[] | null;
  maxFiles: number | null;
}

export interface TableInfo {
  id: number;
  projectId: number;
  key: string;
  name: string;
  columns: ColumnInfo[];
  columnsById: Map<number, ColumnInfo>;
  /** By property key: the column id as properties name it (`"12"`). */
  columnsByKey: Map<string, ColumnInfo>;
  columnsByName: Map<string, ColumnInfo>;
  attachmentSlots: AttachmentSlot[];
}

export interface ProjectSchema {
  id: number;
  name: string;
  tables: TableInfo[];
  tablesById: Map<number, TableInfo>;
  tablesByKey: Map<string, TableInfo>;
}
