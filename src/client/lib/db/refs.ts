/**
 * Which columns of the monitoring tables hold record ids (they are "reference" columns on the
 * server, src/server/db/monitoring-schema.ts). An edit passes these as `refs` so a reference to an
 * offline-made parent is rewritten when the parent gets its server id.
 */
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';

const REFERENCE_COLUMNS: { readonly [T in TableKey]?: readonly string[] } = {
  areas: ['user'],
  paths: ['parent'],
  durationPaths: ['duration_id', 'path_id'],
  forms: ['parent'],
  indicators: ['parent'],
};

/** The property keys (column ids as strings) of a table's reference columns. */
export function refKeysFor(config: AppConfig, table: TableKey): string[] {
  const columns = config.tables[table].columns as Record<string, number>;
  return (REFERENCE_COLUMNS[table] ?? []).map((name) => String(columns[name]));
}

/** Column id (as a property key) of a named column. */
export function columnKey(config: AppConfig, table: TableKey, column: string): string {
  const id = (config.tables[table].columns as Record<string, number>)[column];
  if (id === undefined) throw new Error(`config.json has no column ${table}.${column}`);
  return String(id);
}
