/**
 * The query filter model (docs/architecture.md, Wire contract). A filter tree is made of expression nodes
 * (And/Or over child nodes, any depth) and filter leaves (one column compared to a value).
 * The server evaluates all 21 comparisons; the app itself uses Equals, In, Contains, LessThan
 * and GreaterThan.
 */
import type { SearchRequest, Sort } from './schemas/wire';

export const COMPARISONS = [
  'Equals',
  'NotEqual',
  'LessThan',
  'GreaterThan',
  'LessThanOrEqual',
  'GreaterThanOrEqual',
  'Contains',
  'NotContains',
  'StartsWith',
  'EndsWith',
  'DateEquals',
  'DateNotEquals',
  'SelectInRange',
  'SelectNotInRange',
  'In',
  'NotIn',
  'IsNull',
  'IsNotNull',
  'AfterNow',
  'BeforeNow',
  'EqualsUserEmail',
] as const;
export type Comparison = (typeof COMPARISONS)[number];

export const LOGICAL_OPERATORS = ['And', 'Or'] as const;
type LogicalOperator = (typeof LOGICAL_OPERATORS)[number];

export type FilterValue = string | number | boolean | null | Array<string | number | boolean>;

export interface FilterLeaf {
  kind: 'filter';
  /** Column id of the table, or one of the record meta columns (see META_COLUMNS). */
  columnId: number | MetaColumn;
  comparison: Comparison;
  value?: FilterValue;
}

interface FilterExpression {
  kind: 'expression';
  operator: LogicalOperator;
  nodes: FilterNode[];
}

export type FilterNode = FilterLeaf | FilterExpression;

/** Record fields that can be filtered and sorted like columns. */
export const META_COLUMNS = ['id', 'createdAt', 'updatedAt', 'version', 'archived', 'deleted'] as const;
export type MetaColumn = (typeof META_COLUMNS)[number];

/** A sort key and the body of POST …/search and …/search/ids: their schema is part of the wire contract. */
export type { SearchRequest, Sort };

/** `column = value` leaf. */
export const eq = (columnId: number | MetaColumn, value: FilterValue): FilterLeaf => ({ kind: 'filter', columnId, comparison: 'Equals', value });
/** `column in (values)` leaf. */
export const isIn = (columnId: number | MetaColumn, value: Array<string | number>): FilterLeaf => ({ kind: 'filter', columnId, comparison: 'In', value });
/** And of the given nodes; a single node stays as it is (the app's "single or And-combined"). */
export function and(...nodes: FilterNode[]): FilterNode {
  return nodes.length === 1 ? nodes[0]! : { kind: 'expression', operator: 'And', nodes };
}
