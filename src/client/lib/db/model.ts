/**
 * The rows of the monitoring tables as plain typed objects (a `Form`, a `Path`…), derived from
 * the tables' one description (src/common/schemas/project.ts). A stored record holds `properties`
 * keyed by column id; `readRow` turns it into the record's own fields plus its columns by name
 * and type (config.json maps the names to the ids), and `toProperties` turns named values back
 * into properties for an edit. A misspelt column name is a compile error.
 *
 * Screens and features read and write rows only through these two; a column id appears only where
 * rows are stored or sent (search filters name the typed id `config.tables.<table>.columns.<column>`;
 * docs/architecture.md, Data model, names each place).
 */
import type { TablesConfig } from '../../../common/schemas/config';
import { describeTable, type ColumnName, type ColumnType, type TableKey, type TABLES } from '../../../common/schemas/project';
import type { StoredRecord } from './database';

/** What a column holds once read: null when the record has no (or no usable) value. */
type ValueOf<K extends ColumnType> = K extends 'text' | 'date'
  ? string | null
  : K extends 'number' | 'reference'
    ? number | null
    : K extends 'boolean'
      ? boolean | null
      : unknown;

/** The columns of table T by name. */
export type Columns<T extends TableKey> = {
  [C in ColumnName<T>]: (typeof TABLES)[T]['columns'][C] extends { type: infer K extends ColumnType } ? ValueOf<K> : never;
};

/** A stored row of table T: the record's own fields (id, flags, geometry, times) and its columns. */
export type Row<T extends TableKey> = Omit<StoredRecord, 'properties'> & Columns<T>;

export type Farmer = Row<'farmers'>;
export type Area = Row<'areas'>;
export type Path = Row<'paths'>;
export type Duration = Row<'durations'>;
export type DurationPath = Row<'durationPaths'>;
export type Form = Row<'forms'>;
export type Indicator = Row<'indicators'>;
export type Comment = Row<'comments'>;

const number = (value: unknown): number | null => {
  // Numbers typed into a CSV import or an older client may arrive as numeric strings.
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

function read(type: ColumnType, value: unknown): unknown {
  switch (type) {
    case 'text':
    case 'date':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
    case 'number':
    case 'reference':
      return number(value);
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    default:
      return value ?? null;
  }
}

/** What the model needs of config.json (AppConfig, or only the tables at hand): the column ids. */
type ColumnIds<T extends TableKey> = { readonly tables: Pick<TablesConfig, T> };

/**
 * A record of `table` as a typed row: its own fields (all but `properties`) and each column of the
 * table by name. A column config.json does not name (an older cached config.json) reads as null.
 */
export function readRow<T extends TableKey, R extends { properties: Readonly<Record<string, unknown>> }>(
  config: ColumnIds<T>,
  table: T,
  record: R,
): Omit<R, 'properties'> & Columns<T> {
  const ids = config.tables[table].columns as Readonly<Record<string, number>>;
  const { properties, ...own } = record;
  const row: Record<string, unknown> = { ...own };
  for (const [name, column] of Object.entries(describeTable(table).columns)) row[name] = read(column.type, properties[String(ids[name])]);
  return row as Omit<R, 'properties'> & Columns<T>;
}

/**
 * Named values of `table` as the properties of an edit (keyed by column id). A value left
 * undefined is left out (the server keeps what it has); null clears the column.
 */
export function toProperties<T extends TableKey>(config: ColumnIds<T>, table: T, values: Partial<Columns<T>>): Record<string, unknown> {
  const ids = config.tables[table].columns as Readonly<Record<string, number>>;
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const id = ids[name];
    if (id === undefined) throw new Error(`config.json has no column ${table}.${name}`);
    properties[String(id)] = value;
  }
  return properties;
}
