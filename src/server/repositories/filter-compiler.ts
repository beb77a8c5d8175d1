/**
 * Compiles the filter model of src/common/filter.ts to an SQL predicate over
 * `records`. Values are always bound parameters; column ids are validated against the table's
 * metadata and only then written as literals. Unknown columns, operators, comparisons and values
 * of the wrong type are 400s naming the node (`filters.nodes[1].comparison: unknown comparison X`).
 *
 * Semantics (decided here; the model names only the operators):
 * - Equals / NotEqual: equality by the column type (text, number, boolean, date as text). NotEqual,
 *   NotContains, NotIn, SelectNotInRange and DateNotEquals also match rows whose value is missing
 *   or null (they are the negation of the positive comparison).
 * - LessThan / GreaterThan / …OrEqual: numeric for number columns, lexical for text and ISO dates;
 *   rows with no value never match.
 * - Contains / NotContains / StartsWith / EndsWith: case-insensitive substring tests on the text
 *   form of the value; `%`, `_` and `\` in the value are literal.
 * - DateEquals / DateNotEquals: compare the date part (first 10 characters, YYYY-MM-DD) of an ISO
 *   8601 value as written (no time-zone conversion).
 * - SelectInRange / SelectNotInRange: value [a, b]; in range means a <= x <= b (inclusive).
 * - In / NotIn: value is an array; an empty In matches nothing, an empty NotIn everything.
 * - IsNull / IsNotNull: the property is missing or JSON null / it has a value.
 * - AfterNow / BeforeNow: the value (ISO 8601 text) is after / before the server clock's current
 *   instant (`new Date().toISOString()`), compared lexically as ISO strings.
 * - EqualsUserEmail: the value equals the caller's e-mail, case-insensitively.
 * Comparisons that take no value ignore a given one. For `json` columns the value's own JSON type
 * chooses the comparison kind.
 */
import { sql, type RawBuilder } from 'kysely';
import { COMPARISONS, LOGICAL_OPERATORS, META_COLUMNS, type Comparison, type MetaColumn, type Sort } from '../../common/filter';
import type { DialectLayer, ValueKind } from '../db/dialect';
import { invalid } from '../domain-errors';
import type { ColumnInfo, TableInfo } from '../project-schema';

const MAX_DEPTH = 16;
const MAX_LEAVES = 500;
const MAX_LIST = 10_000;
/** Bound values per query, well under SQLite's 32,766 parameters (scope and paging add a few). */
const MAX_VALUES = 20_000;
const MAX_SORTS = 8;

export interface FilterContext {
  table: TableInfo;
  dialect: DialectLayer;
  /** Lower-case e-mail of the caller (EqualsUserEmail). */
  email: string;
  /** ISO instant of the server clock (AfterNow/BeforeNow). */
  now: string;
}

type Scalar = string | number | boolean;

/** A resolved column: its SQL expression and how its values compare. */
interface Operand {
  label: string;
  /** Column type; 'json' when the kind follows the value. */
  type: string;
  expr(kind: ValueKind): RawBuilder<unknown>;
  text(): RawBuilder<unknown>;
  /** Binds a value the way `expr` yields values (booleans of meta columns are integers). */
  param(value: Scalar, kind: ValueKind): RawBuilder<unknown>;
}

const META_SQL: Record<MetaColumn, { column: string; type: string }> = {
  id: { column: 'id', type: 'number' },
  createdAt: { column: 'created_at', type: 'date' },
  updatedAt: { column: 'updated_at', type: 'date' },
  version: { column: 'version', type: 'number' },
  archived: { column: 'archived', type: 'boolean' },
  deleted: { column: 'deleted', type: 'boolean' },
};

function isMeta(value: unknown): value is MetaColumn {
  return typeof value === 'string' && (META_COLUMNS as readonly string[]).includes(value);
}

function resolveOperand(columnId: unknown, ctx: FilterContext, path: string, alias = 'records'): Operand {
  if (isMeta(columnId)) {
    const meta = META_SQL[columnId];
    const ref = sql.ref(`${alias}.${meta.column}`);
    return {
      label: columnId,
      type: meta.type,
      expr: () => sql`${ref}`,
      text: () => sql`cast(${ref} as text)`,
      param: (value, kind) => (kind === 'boolean' ? sql`${value ? 1 : 0}` : sql`${value}`),
    };
  }
  const id = typeof columnId === 'string' && /^\d+$/.test(columnId) ? Number(columnId) : columnId;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
    throw invalid(`${path}: unknown column ${JSON.stringify(columnId)} (a column id of table ${ctx.table.key} or one of ${META_COLUMNS.join(', ')})`);
  }
  const column: ColumnInfo | undefined = ctx.table.columnsById.get(id);
  if (!column) throw invalid(`${path}: unknown column ${id} in table ${ctx.table.key} (${ctx.table.id})`);
  return {
    label: `${column.id} (${column.name})`,
    type: column.type,
    expr: (kind) => ctx.dialect.prop(column.id, kind, alias),
    text: () => ctx.dialect.propAsText(column.id, alias),
    param: (value, kind) => ctx.dialect.param(value, kind),
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The comparison kind of a column for a given value, checking the value's type. */
function kindFor(operand: Operand, value: unknown, path: string): ValueKind {
  const describe = `${path}: column ${operand.label}`;
  switch (operand.type) {
    case 'number':
    case 'reference':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${describe} is a number column, the value must be a number`);
      return 'number';
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(`${describe} is a boolean column, the value must be true or false`);
      return 'boolean';
    case 'date':
      if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) {
        throw invalid(`${describe} is a date column, the value must be an ISO 8601 date`);
      }
      return 'text';
    case 'text':
      if (typeof value !== 'string') throw invalid(`${describe} is a text column, the value must be a string`);
      return 'text';
    default:
      if (typeof value === 'number' && Number.isFinite(value)) return 'number';
      if (typeof value === 'boolean') return 'boolean';
      if (typeof value === 'string') return 'text';
      throw invalid(`${describe}: the value must be a string, number or boolean`);
  }
}

function likePattern(value: string, prefix: boolean, suffix: boolean): string {
  const escaped = value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return `${prefix ? '%' : ''}${escaped}${suffix ? '%' : ''}`;
}

function requireString(value: unknown, path: string, comparison: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(`${path}.value: ${comparison} needs a non-empty string value`);
  return value;
}

function requireList(value: unknown, path: string, comparison: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(`${path}.value: ${comparison} needs an array value`);
  if (value.length > MAX_LIST) throw invalid(`${path}.value: at most ${MAX_LIST} values`);
  return value;
}

function requireDateOperand(operand: Operand, path: string, comparison: string): void {
  if (operand.type !== 'date' && operand.type !== 'text' && operand.type !== 'json') {
    throw invalid(`${path}: ${comparison} needs a date or text column, column ${operand.label} is ${operand.type}`);
  }
}

const orNull = (operand: Operand, kind: ValueKind, positive: RawBuilder<boolean>): RawBuilder<boolean> =>
  sql<boolean>`(${operand.expr(kind)} is null or not (${positive}))`;

function compileLeaf(node: Record<string, unknown>, ctx: FilterContext, path: string, budget: { values: number }): RawBuilder<boolean> {
  if (Array.isArray(node.value)) {
    budget.values += node.value.length;
    if (budget.values > MAX_VALUES) throw invalid(`${path}.value: the filter has more than ${MAX_VALUES} values in total`);
  }
  const comparison = node.comparison;
  if (typeof comparison !== 'string' || !(COMPARISONS as readonly string[]).includes(comparison)) {
    throw invalid(`${path}.comparison: unknown comparison ${JSON.stringify(comparison)} (one of ${COMPARISONS.join(', ')})`);
  }
  const operand = resolveOperand(node.columnId, ctx, `${path}.columnId`);
  const value = node.value;
  const cmp = comparison as Comparison;
  const scalar = (v: unknown, p: string): { kind: ValueKind; param: RawBuilder<unknown> } => {
    if (v === null || v === undefined) throw invalid(`${p}: ${cmp} needs a value`);
    if (Array.isArray(v) || typeof v === 'object') throw invalid(`${p}: ${cmp} needs a single value, not ${Array.isArray(v) ? 'an array' : 'an object'}`);
    const kind = kindFor(operand, v, p);
    return { kind, param: operand.param(v as Scalar, kind) };
  };
  const binary = (op: string): RawBuilder<boolean> => {
    const { kind, param } = scalar(value, `${path}.value`);
    if (kind === 'boolean' && op !== '=') throw invalid(`${path}: ${cmp} is not defined for boolean column ${operand.label}`);
    return sql<boolean>`${operand.expr(kind)} ${sql.raw(op)} ${param}`;
  };
  const likeTest = (prefix: boolean, suffix: boolean): RawBuilder<boolean> =>
    ctx.dialect.like(ctx.dialect.lower(operand.text()), likePattern(requireString(value, path, cmp), prefix, suffix));
  const list = (): { kind: ValueKind; params: RawBuilder<unknown>[] } => {
    const values = requireList(value, path, cmp);
    let kind: ValueKind = 'text';
    const params = values.map((v, i) => {
      const s = scalar(v, `${path}.value[${i}]`);
      kind = s.kind;
      return s.param;
    });
    return { kind, params };
  };
  const range = (): RawBuilder<boolean> => {
    const values = requireList(value, path, cmp);
    if (values.length !== 2) throw invalid(`${path}.value: ${cmp} needs [from, to], got ${values.length} values`);
    const from = scalar(values[0], `${path}.value[0]`);
    const to = scalar(values[1], `${path}.value[1]`);
    if (from.kind === 'boolean') throw invalid(`${path}: ${cmp} is not defined for boolean column ${operand.label}`);
    return sql<boolean>`(${operand.expr(from.kind)} >= ${from.param} and ${operand.expr(to.kind)} <= ${to.param})`;
  };
  const datePart = (): RawBuilder<boolean> => {
    requireDateOperand(operand, path, cmp);
    if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) {
      throw invalid(`${path}.value: ${cmp} needs an ISO 8601 date (YYYY-MM-DD…)`);
    }
    return sql<boolean>`substr(${operand.text()}, 1, 10) = ${value.slice(0, 10)}`;
  };

  switch (cmp) {
    case 'Equals':
      return binary('=');
    case 'NotEqual': {
      const { kind, param } = scalar(value, `${path}.value`);
      return orNull(operand, kind, sql<boolean>`${operand.expr(kind)} = ${param}`);
    }
    case 'LessThan':
      return binary('<');
    case 'GreaterThan':
      return binary('>');
    case 'LessThanOrEqual':
      return binary('<=');
    case 'GreaterThanOrEqual':
      return binary('>=');
    case 'Contains':
      return likeTest(true, true);
    case 'NotContains':
      return orNull(operand, 'text', likeTest(true, true));
    case 'StartsWith':
      return likeTest(false, true);
    case 'EndsWith':
      return likeTest(true, false);
    case 'DateEquals':
      return datePart();
    case 'DateNotEquals':
      return orNull(operand, 'text', datePart());
    case 'SelectInRange':
      return range();
    case 'SelectNotInRange':
      return orNull(operand, 'number', range());
    case 'In': {
      const { kind, params } = list();
      if (params.length === 0) return sql<boolean>`1 = 0`;
      return sql<boolean>`${operand.expr(kind)} in (${sql.join(params)})`;
    }
    case 'NotIn': {
      const { kind, params } = list();
      if (params.length === 0) return sql<boolean>`1 = 1`;
      return orNull(operand, kind, sql<boolean>`${operand.expr(kind)} in (${sql.join(params)})`);
    }
    case 'IsNull':
      return sql<boolean>`${operand.expr('text')} is null`;
    case 'IsNotNull':
      return sql<boolean>`${operand.expr('text')} is not null`;
    case 'AfterNow':
      requireDateOperand(operand, path, cmp);
      return sql<boolean>`${operand.expr('text')} > ${ctx.now}`;
    case 'BeforeNow':
      requireDateOperand(operand, path, cmp);
      return sql<boolean>`${operand.expr('text')} < ${ctx.now}`;
    case 'EqualsUserEmail':
      if (operand.type !== 'text' && operand.type !== 'json')
        throw invalid(`${path}: EqualsUserEmail needs a text column, column ${operand.label} is ${operand.type}`);
      return sql<boolean>`${ctx.dialect.lower(operand.text())} = ${ctx.email}`;
  }
}

/** Compiles a filter tree; `path` names the tree in error messages. */
export function compileFilter(node: unknown, ctx: FilterContext, path = 'filters'): RawBuilder<boolean> {
  let leaves = 0;
  const budget = { values: 0 };
  const visit = (n: unknown, p: string, depth: number): RawBuilder<boolean> => {
    if (depth > MAX_DEPTH) throw invalid(`${p}: filters nested deeper than ${MAX_DEPTH} levels`);
    if (typeof n !== 'object' || n === null || Array.isArray(n)) throw invalid(`${p}: a filter node must be an object`);
    const obj = n as Record<string, unknown>;
    if (obj.kind === 'expression') {
      const operator = obj.operator;
      if (typeof operator !== 'string' || !(LOGICAL_OPERATORS as readonly string[]).includes(operator)) {
        throw invalid(`${p}.operator: unknown operator ${JSON.stringify(operator)} (And or Or)`);
      }
      if (!Array.isArray(obj.nodes)) throw invalid(`${p}.nodes: must be an array of filter nodes`);
      // An empty And is true and an empty Or is false, as in logic.
      if (obj.nodes.length === 0) return operator === 'And' ? sql<boolean>`1 = 1` : sql<boolean>`1 = 0`;
      const parts = obj.nodes.map((child, i) => visit(child, `${p}.nodes[${i}]`, depth + 1));
      return sql<boolean>`(${sql.join(parts, sql.raw(operator === 'And' ? ' and ' : ' or '))})`;
    }
    if (obj.kind === 'filter') {
      leaves += 1;
      if (leaves > MAX_LEAVES) throw invalid(`${path}: at most ${MAX_LEAVES} filter leaves`);
      return compileLeaf(obj, ctx, p, budget);
    }
    throw invalid(`${p}.kind: unknown node kind ${JSON.stringify(obj.kind)} (expression or filter)`);
  };
  return visit(node, path, 0);
}

/** ORDER BY parts for the requested sorts (nulls last in both directions), then id for stable pages. */
export function compileSorts(sorts: Sort[] | undefined, ctx: FilterContext, alias = 'records'): RawBuilder<unknown>[] {
  const list = sorts ?? [];
  if (list.length > MAX_SORTS) throw invalid(`sorts: at most ${MAX_SORTS} sort columns`);
  const parts = list.map((s, i) => {
    const operand = resolveOperand(s.columnId, ctx, `sorts[${i}].columnId`, alias);
    if (s.direction !== 'asc' && s.direction !== 'desc') throw invalid(`sorts[${i}].direction: must be asc or desc`);
    const kind: ValueKind = operand.type === 'number' || operand.type === 'reference' ? 'number' : operand.type === 'boolean' ? 'boolean' : 'text';
    const expr = operand.expr(kind);
    // Record fields are never null: a bare column sorts in index order (the id order of rows of
    // one property value in records_prop_*, the primary key), so a page of 50 stops after 50 rows.
    if (isMeta(s.columnId)) return sql`${expr} ${sql.raw(s.direction)}`;
    return sql`(${expr} is null) asc, ${expr} ${sql.raw(s.direction)}`;
  });
  parts.push(sql`${sql.ref(`${alias}.id`)} asc`);
  return parts;
}
