/**
 * The farmer's view of a project as an SQL predicate, ANDed into every query a farmer makes
 * (search, ids, spatial, extent, text search, single reads, writes): user filters are compiled
 * separately and can only narrow it. The chain (docs/architecture.md, Roles) is derived from the
 * tables' description (src/common/schemas/project.ts, `farmerSees`):
 *   farmers.id = me → areas.user → paths.parent → durationPaths.path_id → forms.parent → indicators.parent
 * Durations are readable by everyone. Tables outside the chain are invisible to farmers.
 * Editors and readers see the whole project (no predicate).
 *
 * The ids of the farmer's own areas, paths, durationPaths and forms are loaded once per request
 * (`loadOwnedChain`, four indexed look-ups: a farmer has a handful of each) and bound as values:
 * `id in (…)` for those tables and `parent in (own forms)` for indicators. Nested subqueries
 * would express the same, but SQLite cannot estimate their selectivity and scans whole tables.
 * Rows a farmer inserts during the request are added (`addOwned`), so a bulk call can create a
 * durationPath and forms under it. A parent deleted before the request hides its children.
 */
import { sql, type RawBuilder } from 'kysely';
import { describeTable, TABLE_KEYS, type TableKey } from '../../common/schemas/project';
import type { DialectLayer, Executor } from '../db/dialect';
import type { ProjectSchema, TableInfo } from '../project-schema';
import type { Access } from './access';

/** The table whose record is the farmer (the chain's root). */
const ROOT_TABLE = TABLE_KEYS.find((key) => describeTable(key).farmerSees === 'self')!;

/**
 * table → the column linking it to its owner's table (the column's reference target), in the
 * description's order: loadOwnedChain needs an owner's ids before the tables under it, so an
 * owner is described first (test/server/table-description.test.ts checks it).
 */
export const OWNERSHIP_CHAIN: Record<string, { column: string; parent: string }> = Object.fromEntries(
  TABLE_KEYS.flatMap((key) => {
    const sees = describeTable(key).farmerSees;
    if (typeof sees !== 'object') return [];
    const parent = describeTable(key).columns[sees.owner]?.ref;
    if (parent === undefined) throw new Error(`${key}.${sees.owner} is not a reference column`);
    return [[key, { column: sees.owner, parent }]];
  }),
);

/** Tables whose own ids are loaded per request (indicators are many: scoped by parent instead). */
export const LOADED_CHAIN = Object.keys(OWNERSHIP_CHAIN).filter((key) => {
  const sees = describeTable(key as TableKey).farmerSees;
  return !(typeof sees === 'object' && sees.manyPerOwner === true);
});

/** Tables every role may read in full. */
export const SHARED_TABLES: readonly string[] = TABLE_KEYS.filter((key) => describeTable(key).farmerSees === 'everyone');

/** table key → ids of the farmer's own rows. */
export type OwnedChain = Map<string, Set<number>>;

const FALSE = sql<boolean>`1 = 0`;

/** Ids bound per list stay far below SQLite's 32,766 parameters; see `inList`. */
const MAX_BOUND_IDS = 20_000;

/**
 * Loads the farmer's own areas, paths, durationPaths and forms (not deleted). `withHistory` loads
 * every row that ever hung under the farmer, deleted ones and indicators included (the audit
 * trail filtered by farmer: a deleted record's changes are still theirs).
 */
export async function loadOwnedChain(db: Executor, dialect: DialectLayer, schema: ProjectSchema, farmerId: number, withHistory = false): Promise<OwnedChain> {
  return loadChainUnder(db, dialect, schema, { table: ROOT_TABLE, id: farmerId }, withHistory ? Object.keys(OWNERSHIP_CHAIN) : LOADED_CHAIN, withHistory);
}

/**
 * Every row that ever hung under one record of the chain, deleted ones included (the audit trail
 * of a record: a form's changes with its indicators' and comments'). Tables above the record's
 * own stay empty.
 */
export async function loadRowsUnder(db: Executor, dialect: DialectLayer, schema: ProjectSchema, table: string, id: number): Promise<OwnedChain> {
  return loadChainUnder(db, dialect, schema, { table, id }, Object.keys(OWNERSHIP_CHAIN), true);
}

async function loadChainUnder(
  db: Executor,
  dialect: DialectLayer,
  schema: ProjectSchema,
  root: { table: string; id: number },
  keys: readonly string[],
  withHistory: boolean,
): Promise<OwnedChain> {
  const owned: OwnedChain = new Map([[root.table, new Set([root.id])]]);
  for (const key of keys) {
    if (key === root.table) continue;
    const link = OWNERSHIP_CHAIN[key]!;
    const table = schema.tablesByKey.get(key);
    const column = table?.columnsByName.get(link.column);
    const parents = [...(owned.get(link.parent) ?? [])];
    const ids = new Set<number>();
    owned.set(key, ids);
    if (!table || !column || parents.length === 0) continue;
    for (let start = 0; start < parents.length; start += MAX_BOUND_IDS) {
      const rows = await db
        .selectFrom('records')
        .select('id')
        .where('table_id', '=', table.id)
        .$if(!withHistory, (q) => q.where('deleted', '=', 0))
        .where(sql<boolean>`${dialect.prop(column.id, 'number')} in (${sql.join(parents.slice(start, start + MAX_BOUND_IDS))})`)
        .execute();
      for (const row of rows) ids.add(row.id);
    }
  }
  return owned;
}

/** Records a row the farmer just inserted as theirs for the rest of the request. */
export function addOwned(access: Access, tableKey: string, id: number): void {
  access.owned?.get(tableKey)?.add(id);
}

export function inList(expression: RawBuilder<unknown>, ids: Set<number>): RawBuilder<boolean> {
  if (ids.size === 0) return FALSE;
  const list = [...ids];
  const chunks: RawBuilder<boolean>[] = [];
  for (let start = 0; start < list.length; start += MAX_BOUND_IDS) {
    chunks.push(sql<boolean>`${expression} in (${sql.join(list.slice(start, start + MAX_BOUND_IDS))})`);
  }
  return chunks.length === 1 ? chunks[0]! : sql<boolean>`(${sql.join(chunks, sql` or `)})`;
}

/**
 * Predicate restricting `alias` (a records row of `table`) to what the caller may see, or null
 * when the caller sees the whole table.
 */
export function scopePredicate(access: Access, schema: ProjectSchema, dialect: DialectLayer, table: TableInfo, alias = 'records'): RawBuilder<boolean> | null {
  if (access.role !== 'farmer') return null;
  if (SHARED_TABLES.includes(table.key)) return null;
  if (access.farmerId === null || !access.owned) return FALSE;
  if (table.key === ROOT_TABLE) return sql<boolean>`${sql.ref(`${alias}.id`)} = ${access.farmerId}`;
  const loaded = access.owned.get(table.key);
  if (loaded) return inList(sql.ref(`${alias}.id`), loaded);
  const link = OWNERSHIP_CHAIN[table.key];
  const column = link ? table.columnsByName.get(link.column) : undefined;
  const parents = link ? access.owned.get(link.parent) : undefined;
  if (!column || !parents) return FALSE;
  return inList(dialect.prop(column.id, 'number', alias), parents);
}
