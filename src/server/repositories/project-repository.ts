/**
 * Project metadata: tables, columns and attachment slots, cached per project (they change only
 * when a project is created), plus the tables part of config.json (`buildTablesConfig`, served
 * by the /config.json route) and project creation for the demo and benchmark seeds.
 */
import type { ColumnType, TableKey } from '../../common/schemas/project';
import type { ColumnInfo, ProjectSchema, TableInfo } from '../project-schema';
import { TABLE_KEYS } from '../../common/schemas/project';
import type { TableConfig, TablesConfig } from '../../common/schemas/config';
import type { Db, DialectLayer, Executor } from '../db/dialect';
import type { TableDefinition } from '../db/monitoring-schema';
import { ensureLiveUniqueRules } from '../db/live-unique-rules';
import { indexKindOf, isIndexedColumn } from '../db/property-indexes';

/** Loads project metadata once per project and keeps it; `invalidate` after creating tables. */
export class ProjectRepository {
  private readonly cache = new Map<number, Promise<ProjectSchema | null>>();

  constructor(private readonly db: Db) {}

  get(projectId: number): Promise<ProjectSchema | null> {
    let entry = this.cache.get(projectId);
    if (!entry) {
      entry = loadProjectSchema(this.db, projectId);
      this.cache.set(projectId, entry);
      // A missing project is not cached: it may be created later (seeding).
      entry.then(
        (schema) => {
          if (!schema) this.cache.delete(projectId);
        },
        () => this.cache.delete(projectId),
      );
    }
    return entry;
  }

  invalidate(projectId?: number): void {
    if (projectId === undefined) this.cache.clear();
    else this.cache.delete(projectId);
  }
}

export async function loadProjectSchema(db: Executor, projectId: number): Promise<ProjectSchema | null> {
  const project = await db.selectFrom('projects').select(['id', 'name']).where('id', '=', projectId).executeTakeFirst();
  if (!project) return null;
  const tables = await db.selectFrom('project_tables').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  const tableIds = tables.map((t) => t.id);
  const columns = tableIds.length
    ? await db.selectFrom('table_columns').selectAll().where('table_id', 'in', tableIds).orderBy('position').orderBy('id').execute()
    : [];
  const slots = tableIds.length ? await db.selectFrom('table_attachment_infos').selectAll().where('table_id', 'in', tableIds).orderBy('id').execute() : [];
  const infos: TableInfo[] = tables.map((table) => {
    const cols: ColumnInfo[] = columns
      .filter((c) => c.table_id === table.id)
      .map((c) => ({ id: c.id, tableId: c.table_id, name: c.name, type: c.type as ColumnType, refTableId: c.ref_table_id }));
    return {
      id: table.id,
      projectId: table.project_id,
      key: table.key,
      name: table.name,
      columns: cols,
      columnsById: new Map(cols.map((c) => [c.id, c])),
      columnsByKey: new Map(cols.map((c) => [String(c.id), c])),
      columnsByName: new Map(cols.map((c) => [c.name, c])),
      attachmentSlots: slots
        .filter((s) => s.table_id === table.id)
        .map((s) => ({
          id: s.id,
          tableId: s.table_id,
          name: s.name,
          mimeTypes: s.mime_types ? s.mime_types.split(',') : null,
          maxFiles: s.max_files,
        })),
    };
  });
  return {
    id: project.id,
    name: project.name,
    tables: infos,
    tablesById: new Map(infos.map((t) => [t.id, t])),
    tablesByKey: new Map(infos.map((t) => [t.key, t])),
  };
}

/**
 * The `tables` part of AppConfig (src/common/schemas/config.ts): for each of the seven tables its
 * id, column name → id and attachment slot name → id. Throws if the project lacks one of them.
 */
export async function buildTablesConfig(db: Executor, projectId: number): Promise<TablesConfig> {
  const schema = await loadProjectSchema(db, projectId);
  if (!schema) throw new Error(`project ${projectId} does not exist`);
  const result: Partial<Record<TableKey, TableConfig>> = {};
  for (const key of TABLE_KEYS) {
    const table = schema.tablesByKey.get(key);
    if (!table) throw new Error(`project ${projectId} has no table ${key}`);
    const config: TableConfig = {
      id: table.id,
      columns: Object.fromEntries(table.columns.map((c) => [c.name, c.id])) as TableConfig['columns'],
    };
    if (table.attachmentSlots.length) config.attachments = Object.fromEntries(table.attachmentSlots.map((s) => [s.name, s.id]));
    result[key] = config;
  }
  return result as TablesConfig;
}

/** The text-search profile config.json names (the first profile of the project). */
async function defaultSearchProfileId(db: Executor, projectId: number): Promise<number | null> {
  const row = await db.selectFrom('search_profiles').select('id').where('project_id', '=', projectId).orderBy('id').executeTakeFirst();
  return row?.id ?? null;
}

/** Everything of config.json that comes from the database. */
export async function buildProjectConfig(db: Executor, projectId: number): Promise<{ projectId: number; searchProfileId: number; tables: TablesConfig }> {
  const tables = await buildTablesConfig(db, projectId);
  const searchProfileId = (await defaultSearchProfileId(db, projectId)) ?? 0;
  return { projectId, searchProfileId, tables };
}

/**
 * Creates a project with the given tables, columns, attachment slots and one search profile over
 * every table, plus expression indexes on reference columns and the columns flagged `indexed`
 * (db/property-indexes.ts), and the one-live-row rules of db/live-unique-rules.ts. Returns the new
 * project id.
 */
export async function createProject(
  db: Executor,
  dialect: DialectLayer,
  input: { id?: number; name: string; tables: TableDefinition[]; now?: string },
): Promise<number> {
  const now = input.now ?? new Date().toISOString();
  const inserted = await db
    .insertInto('projects')
    .values({ ...(input.id !== undefined ? { id: input.id } : {}), name: input.name, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const projectId = inserted.id;
  const tableIds = new Map<string, number>();
  for (const table of input.tables) {
    const row = await db
      .insertInto('project_tables')
      .values({ project_id: projectId, key: table.key, name: table.name })
      .returning('id')
      .executeTakeFirstOrThrow();
    tableIds.set(table.key, row.id);
  }
  for (const table of input.tables) {
    const tableId = tableIds.get(table.key)!;
    let position = 0;
    for (const column of table.columns) {
      const refTableId = column.ref ? tableIds.get(column.ref) : undefined;
      if (column.ref && refTableId === undefined) throw new Error(`column ${table.key}.${column.name} refers to missing table ${column.ref}`);
      const row = await db
        .insertInto('table_columns')
        .values({ table_id: tableId, name: column.name, type: column.type, ref_table_id: refTableId ?? null, position: position++ })
        .returning('id')
        .executeTakeFirstOrThrow();
      const kind = indexKindOf(column.type);
      if (kind !== null && isIndexedColumn(column)) await dialect.createPropertyIndex(db, row.id, kind);
    }
    for (const slot of table.attachments ?? []) {
      await db
        .insertInto('table_attachment_infos')
        .values({ table_id: tableId, name: slot.name, mime_types: slot.mimeTypes?.join(',') ?? null, max_files: slot.maxFiles ?? null })
        .execute();
    }
  }
  await db.insertInto('search_profiles').values({ project_id: projectId, name: 'Vse tabele', table_ids: null }).execute();
  await ensureLiveUniqueRules(db, dialect, { now });
  return projectId;
}
