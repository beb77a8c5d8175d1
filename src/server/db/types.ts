/**
 * Kysely table types of the server database. Column names are snake_case in SQL; repositories
 * map rows to the camelCase wire types of src/common/schemas/wire.ts. Booleans are stored as
 * 0/1 integers and timestamps as ISO 8601 UTC text so the same values work in SQLite and
 * PostgreSQL without dialect-specific conversions.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

interface ProjectsTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

interface ProjectTablesTable {
  id: Generated<number>;
  project_id: number;
  /** Stable name of the table (farmers, areas, …): what config.json is keyed by. */
  key: string;
  name: string;
}

interface TableColumnsTable {
  id: Generated<number>;
  table_id: number;
  name: string;
  /** One of ColumnType of src/common/schemas/project.ts. */
  type: string;
  /** For reference columns: the table the value points into. */
  ref_table_id: number | null;
  position: number;
}

interface RecordsTable {
  /** Starts at 10,000,000 (LOCAL_ID_BOUND) so it never collides with offline ids. */
  id: Generated<number>;
  project_id: number;
  table_id: number;
  /** JSON object keyed by column id. */
  properties: string;
  /** GeoJSON geometry text, or null. */
  geometry: string | null;
  min_x: number | null;
  min_y: number | null;
  max_x: number | null;
  max_y: number | null;
  deleted: number;
  archived: number;
  created_at: string;
  updated_at: string;
  version: number;
  created_by: string | null;
  updated_by: string | null;
}

interface TableAttachmentInfosTable {
  id: Generated<number>;
  table_id: number;
  name: string;
  /** Comma-separated list of accepted MIME types; null = any (uploads are checked against it). */
  mime_types: string | null;
  max_files: number | null;
}

interface AttachmentsTable {
  id: Generated<number>;
  record_id: number;
  table_id: number;
  table_attachment_info_id: number;
  name: string;
  mime_type: string;
  size: number;
  storage_key: string;
  thumb_key: string | null;
  created_at: string;
  created_by: string | null;
  deleted: ColumnType<number, number | undefined, number>;
}

interface ProjectRolesTable {
  project_id: number;
  /** Lower-case e-mail of the user. */
  email: string;
  role: 'editor' | 'reader';
}

interface IdempotencyKeysTable {
  caller: string;
  key: string;
  /** Method + path + body hash: the same key reused for another request is rejected. */
  fingerprint: string;
  status: number;
  response: string;
  created_at: string;
}

interface AppliedOpsTable {
  caller: string;
  op_id: string;
  /** JSON of the BulkResultItem given when the operation was applied. */
  result: string;
  created_at: string;
}

interface RecordHistoryTable {
  id: Generated<number>;
  record_id: number;
  table_id: number;
  action: 'insert' | 'update' | 'delete' | 'archive' | 'unarchive';
  changed_by: string | null;
  changed_at: string;
  /** JSON snapshots {properties, geometry} before and after; null for insert's old. */
  old_value: string | null;
  new_value: string | null;
}

interface SearchProfilesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  /** JSON array of table ids searched by this profile; null = every table of the project. */
  table_ids: string | null;
}

export interface Database {
  projects: ProjectsTable;
  project_tables: ProjectTablesTable;
  table_columns: TableColumnsTable;
  records: RecordsTable;
  table_attachment_infos: TableAttachmentInfosTable;
  attachments: AttachmentsTable;
  project_roles: ProjectRolesTable;
  idempotency_keys: IdempotencyKeysTable;
  applied_ops: AppliedOpsTable;
  record_history: RecordHistoryTable;
  search_profiles: SearchProfilesTable;
}

export type RecordRow = Selectable<RecordsTable>;
export type NewRecordRow = Insertable<RecordsTable>;
