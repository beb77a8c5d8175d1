/**
 * The farmer's view of a project as an SQL predicate, ANDed into every query a farmer makes
 * (search, ids, spatial, extent, text search, single reads, writes): user filters are compiled
 * separately and can only narrow it. The chain (seed §3, §6):
 *   farmers.id = me → areas.user → paths.parent → durationPaths.path_id → forms.parent → indicators.parent
 * Durations are readable by everyone. Tables outside the chain are invisible to farmers.
 * Editors and readers see the whole project (no predicate).
 */
import { sql, type RawBuilder } from 'kysely';
import type { DialectLayer } from '../db/dialect';
import type { ProjectSchema, TableInfo } from '../repositories/project-repository';
import type { Access } from './access';

/** table → the column linking it to its owner's table. */
export const OWNERSHIP_CHAIN: Record<string, { column: string; parent: string }> = {
  areas: { column: 'user', parent: 'farmers' },
  paths: { column: 'parent', parent: 'areas' },
  durationPaths: { column: 'path_id', parent: 'paths' },
  forms: { column: 'parent', parent: 'durationPaths' },
  indicators: { column: 'parent', parent: 'forms' },
};

/** Tables every role may read in full. */
export const SHARED_TABLES = ['durations'];

const FALSE = sql<boolean>`1 = 0`;

/**
 * Predicate restricting `alias` (a records row of `table`) to what the caller may see, or null
 * when the caller sees the whole table.
 */
export function scopePredicate(access: Access, schema: ProjectSchema, dialect: DialectLayer, table: TableInfo, alias = 'records'): RawBuilder<boolean> | null {
  if (access.role !== 'farmer') return null;
  if (SHARED_TABLES.includes(table.key)) return null;
  if (access.farmerId === null) return FALSE;
  return ownedPredicate(access.farmerId, schema, dialect, table.key, alias, 1);
}

function ownedPredicate(farmerId: number, schema: ProjectSchema, dialect: DialectLayer, key: string, alias: string, depth: number): RawBuilder<boolean> {
  if (key === 'farmers') return sql<boolean>`${sql.ref(`${alias}.id`)} = ${farmerId}`;
  const link = OWNERSHIP_CHAIN[key];
  const table = schema.tablesByKey.get(key);
  const column = table?.columnsByName.get(link?.column ?? '');
  if (!link || !table || !column) return FALSE;
  const value = dialect.prop(column.id, 'number', alias);
  if (link.parent === 'farmers') return sql<boolean>`${value} = ${farmerId}`;
  const parent = schema.tablesByKey.get(link.parent);
  if (!parent) return FALSE;
  const sub = `own${depth}`;
  const inner = ownedPredicate(farmerId, schema, dialect, link.parent, sub, depth + 1);
  return sql<boolean>`${value} in (select ${sql.ref(`${sub}.id`)} from records as ${sql.id(sub)} where ${sql.ref(`${sub}.table_id`)} = ${parent.id} and ${sql.ref(`${sub}.deleted`)} = 0 and ${inner})`;
}

/** Whether the caller sees every row of the table (no predicate needed). */
export function seesWholeTable(access: Access, table: TableInfo): boolean {
  return access.role !== 'farmer' || SHARED_TABLES.includes(table.key);
}
