/**
 * Which columns of the monitoring tables hold record ids: the "reference" columns of the tables'
 * description (src/common/schemas/project.ts). An edit passes these as `refs` so a reference to an
 * offline-made parent is rewritten when the parent gets its server id.
 */
import type { AppConfig } from '../../../common/schemas/config';
import { describeTable, type TableKey } from '../../../common/schemas/project';

/** The names of a table's reference columns, in the description's order. */
function referenceColumns(table: TableKey): string[] {
  return Object.entries(describeTable(table).columns)
    .filter(([, column]) => column.type === 'reference')
    .map(([name]) => name);
}

/** The property keys (column ids as strings) of a table's reference columns. */
export function refKeysFor(config: AppConfig, table: TableKey): string[] {
  const columns = config.tables[table].columns as Record<string, number>;
  return referenceColumns(table).map((name) => String(columns[name]));
}
