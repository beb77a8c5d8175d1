/**
 * Which record properties are indexed (without them a filtered search on a 1M-record table
 * read every row of the table). Properties live in one JSON (SQLite) / jsonb (PostgreSQL) column
 * of `records`, so an index is an expression index `records_prop_<columnId>` on
 * `(table_id, <the property expression>)` (DialectLayer.createPropertyIndex), and the expression is
 * exactly the one the filter compiler and the farmer scope emit (DialectLayer.prop with the
 * column's kind), which is what lets the planners use it.
 *
 * Indexed: every reference column (the farmer chain and the parent look-ups every screen makes:
 * areas.user, paths.parent, durationPaths.duration_id and path_id, forms.parent,
 * indicators.parent) and the columns flagged `indexed: true` in the tables' description
 * (src/common/schemas/project.ts: farmers.email, indicators.key). createProject indexes them in a
 * new project; migration 0200_property_indexes added them to existing databases. To index another
 * column: flag it there and add a migration that calls `ensurePropertyIndexes` (docs/deploy.md).
 */
import { sql } from 'kysely';
import type { ColumnType } from '../../common/schemas/project';
import type { DialectLayer, Executor, ValueKind } from './dialect';
import { MONITORING_TABLES, type ColumnDefinition } from './monitoring-schema';

/** How a column's values compare in SQL (the kind the filter compiler uses), or null when it varies. */
export function indexKindOf(type: ColumnType | string): ValueKind | null {
  switch (type) {
    case 'reference':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'text':
    case 'date':
      return 'text';
    default:
      // json: the value's own type picks the comparison, so no single expression serves it.
      return null;
  }
}

/** Whether a column of a new project gets an index. */
export function isIndexedColumn(column: Pick<ColumnDefinition, 'type' | 'indexed'>): boolean {
  return indexKindOf(column.type) !== null && (column.type === 'reference' || column.indexed === true);
}

/** table key → names of its indexed columns, from the tables' description (monitoring-schema.ts). */
export const INDEXED_COLUMNS: ReadonlyMap<string, readonly string[]> = new Map(
  MONITORING_TABLES.map((table) => [table.key, table.columns.filter(isIndexedColumn).map((c) => c.name)] as const).filter(([, names]) => names.length > 0),
);

/**
 * Creates the missing indexes of every project in the database: reference columns and the flagged
 * monitoring columns (matched by table key and column name). Idempotent; `rebuild` drops and
 * recreates existing ones (migration 0200: the older reference indexes were not partial). On a big
 * table it takes as long as building the index (about a second per million records).
 */
export async function ensurePropertyIndexes(db: Executor, dialect: DialectLayer, options: { rebuild?: boolean } = {}): Promise<number[]> {
  const columns = await db
    .selectFrom('table_columns')
    .innerJoin('project_tables', 'project_tables.id', 'table_columns.table_id')
    .select(['table_columns.id as id', 'table_columns.name as name', 'table_columns.type as type', 'project_tables.key as key'])
    .orderBy('table_columns.id')
    .execute();
  const indexed: number[] = [];
  for (const column of columns) {
    const kind = indexKindOf(column.type);
    if (kind === null) continue;
    if (column.type !== 'reference' && !INDEXED_COLUMNS.get(column.key)?.includes(column.name)) continue;
    // Column ids are integers from the database (createPropertyIndex checks them again).
    if (options.rebuild) await sql.raw(`drop index if exists records_prop_${Number(column.id)}`).execute(db);
    await dialect.createPropertyIndex(db, column.id, kind);
    indexed.push(column.id);
  }
  return indexed;
}
