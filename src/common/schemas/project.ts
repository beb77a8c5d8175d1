/**
 * The seven tables of the monitoring scheme (docs/architecture.md, Data model) and the column names each has. Column ids
 * are assigned by the server's database; `config.json` maps these names to the ids, and the
 * client never hard-codes an id.
 */
export const TABLE_COLUMNS = {
  farmers: ['name', 'email', 'phone', 'kmg_mid'],
  /** `user` links the area to the farmer record id. */
  areas: ['name', 'user', 'gerk_pid', 'area_ha'],
  /** `parent` is the area id. */
  paths: ['name', 'parent', 'length_m', 'walk'],
  durations: ['name', 'filter_start', 'filter_end'],
  durationPaths: ['duration_id', 'path_id'],
  /** `parent` is the durationPath id; `form_id` is the form kind id of config.json → forms. */
  forms: ['parent', 'form_id', 'score', 'rule_version', 'note', 'completed'],
  /** `parent` is the form id; `key` names the indicator definition of the form kind. */
  indicators: ['parent', 'key', 'value', 'note'],
} as const;

export type TableKey = keyof typeof TABLE_COLUMNS;
export type ColumnName<T extends TableKey> = (typeof TABLE_COLUMNS)[T][number];
export const TABLE_KEYS = Object.keys(TABLE_COLUMNS) as TableKey[];

export type ColumnType = 'text' | 'number' | 'boolean' | 'date' | 'json' | 'reference';
