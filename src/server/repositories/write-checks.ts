/**
 * The checks of a write's input, the same for single and bulk writes: properties against the
 * column types (keys the table's column ids, values of the column's type), references against
 * rows the caller can see, and a farmer's new row hanging from their own ownership chain.
 * Clients cannot point a row at one they cannot see.
 */
import { isLocalId } from '../../common/record-id';
import type { Properties } from '../../common/schemas/wire';
import { OWNERSHIP_CHAIN } from '../access/scope';
import { invalid } from '../domain-errors';
import type { ColumnInfo, TableInfo } from '../project-schema';
import type { RepoContext } from './context';
import { visibleRows } from './record-repository';
import type { LocalIdMap, RecordWrites, WriteOptions } from './write-sink';

const MAX_TEXT_LENGTH = 100_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `name` under the error path of an operation (bulk: `operations[3].name`). */
export function pathOf(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** The prefix of an error message about the operation at `path` (none for a single write). */
export function prefixOf(path: string): string {
  return path ? `${path}: ` : '';
}

/**
 * The error for a refused value. A module-level function, not a closure per checked value: a bulk
 * call checks tens of thousands, and under tsx (esbuild's keepNames) every named closure costs a
 * property definition.
 */
function refusedValue(column: ColumnInfo, path: string, key: string, why: string) {
  return invalid(`${path}.${key} (${column.name}): ${why}`);
}

function checkValue(column: ColumnInfo, value: unknown, path: string, key: string): unknown {
  if (value === null) return null;
  switch (column.type) {
    case 'text':
      if (typeof value !== 'string') throw refusedValue(column, path, key, 'must be a string');
      if (value.length > MAX_TEXT_LENGTH) throw refusedValue(column, path, key, `longer than ${MAX_TEXT_LENGTH} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refusedValue(column, path, key, 'must be a number');
      return value;
    case 'reference':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
        throw refusedValue(column, path, key, 'must be a record id (positive integer)');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw refusedValue(column, path, key, 'must be true or false');
      return value;
    case 'date':
      if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value)))
        throw refusedValue(column, path, key, 'must be an ISO 8601 date');
      return value;
    default:
      return value;
  }
}

/** Checks keys (column ids of the table) and value types; returns a clean copy. */
export function validateProperties(table: TableInfo, input: unknown, path = 'properties'): Properties {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid(`${path}: must be an object keyed by column id`);
  const result: Properties = {};
  const given = input as Record<string, unknown>;
  // for…in, not Object.entries: no [key, value] array per property (a bulk call checks 50,000).
  for (const key in given) {
    if (!Object.hasOwn(given, key)) continue;
    const column = table.columnsByKey.get(key);
    if (!column) throw invalid(`${path}.${key}: unknown column of table ${table.key} (${table.id})`);
    result[key] = checkValue(column, given[key], path, key);
  }
  return result;
}

/** Local ids of this bulk call in reference columns become server ids (in place), before an update compares values. */
export function mapLocalReferences(table: TableInfo, given: Properties, localIds: LocalIdMap | undefined): void {
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === 'number' && table.columnsById.get(Number(key))?.type === 'reference' && localIds?.has(value)) given[key] = localIds.get(value)!;
  }
}

/**
 * Reference columns must point at a visible, non-deleted row of their table (for farmers: one of
 * their own rows, or a duration). Local ids of inserts earlier in the same bulk call are replaced
 * by their server ids first.
 */
export async function checkReferences(
  ctx: RepoContext,
  table: TableInfo,
  props: Properties,
  path: string,
  options: WriteOptions & { writes: Pick<RecordWrites, 'pendingTableOf'> },
): Promise<void> {
  const { localIds, verifiedRefs: verified } = options;
  for (const column of table.columns) {
    if (column.type !== 'reference' || column.refTableId === null) continue;
    const key = String(column.id);
    let value = props[key];
    if (value === undefined || value === null) continue;
    if (isLocalId(value) && localIds?.has(value)) {
      value = localIds.get(value)!;
      props[key] = value;
    }
    const target = ctx.schema.tablesById.get(column.refTableId);
    if (!target) throw invalid(`${path}.${key} (${column.name}): refers to an unknown table`);
    // Within one bulk call many rows point at the same parent: check each target once.
    const cacheKey = `${target.id}:${String(value)}`;
    if (verified?.has(cacheKey)) continue;
    // A row inserted earlier in this bulk call and not written yet: the caller just inserted it
    // (into their own chain), so it is visible and live; another table's id is not found below.
    if (options.writes.pendingTableOf(value as number) === target.id) {
      verified?.add(cacheKey);
      continue;
    }
    const row = await visibleRows(ctx, target)
      .select('records.id')
      .where('records.id', '=', value as number)
      .executeTakeFirst();
    if (!row) throw invalid(`${path}.${key} (${column.name}): record ${String(value)} not found in table ${target.key}`);
    verified?.add(cacheKey);
  }
}

/** A farmer's new row must hang from their own chain, or they could not see it afterwards. */
export function checkOwnershipColumn(ctx: RepoContext, table: TableInfo, props: Properties, path: string): void {
  if (ctx.access.role !== 'farmer') return;
  const link = OWNERSHIP_CHAIN[table.key];
  const column = link ? table.columnsByName.get(link.column) : undefined;
  if (column && (props[String(column.id)] === undefined || props[String(column.id)] === null)) {
    throw invalid(`${path}.${column.id} (${column.name}): is required`);
  }
}
