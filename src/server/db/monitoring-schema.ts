/**
 * Column types and references of the seven monitoring tables (src/common/schemas/project.ts).
 * Used to create a project (demo seed, large benchmark seed) and by the access layer to walk the
 * farmer ownership chain.
 */
import type { ColumnType, TableKey } from '../../common/schemas/project';

export interface ColumnDefinition {
  name: string;
  type: ColumnType;
  /** For reference columns: the table key the value points into. */
  ref?: TableKey;
  /**
   * Filtered often enough to deserve an expression index (records_prop_<columnId>, see
   * property-indexes.ts). Reference columns are always indexed; this flags other columns.
   */
  indexed?: boolean;
}

export interface TableDefinition {
  key: TableKey;
  name: string;
  columns: ColumnDefinition[];
  /** Attachment slots (tableAttachmentInfo): name → accepted MIME types. */
  attachments?: Array<{ name: string; mimeTypes?: string[]; maxFiles?: number }>;
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export const MONITORING_TABLES: TableDefinition[] = [
  {
    key: 'farmers',
    name: 'Kmetje',
    columns: [
      { name: 'name', type: 'text' },
      // The farmer of a signed-in e-mail (access.ts) and the editors' farmer look-ups.
      { name: 'email', type: 'text', indexed: true },
      { name: 'phone', type: 'text' },
      { name: 'kmg_mid', type: 'text' },
    ],
  },
  {
    key: 'areas',
    name: 'Travniki',
    columns: [
      { name: 'name', type: 'text' },
      { name: 'user', type: 'reference', ref: 'farmers' },
      { name: 'gerk_pid', type: 'text' },
      { name: 'area_ha', type: 'number' },
    ],
  },
  {
    key: 'paths',
    name: 'Poti',
    columns: [
      { name: 'name', type: 'text' },
      { name: 'parent', type: 'reference', ref: 'areas' },
      { name: 'length_m', type: 'number' },
      { name: 'walk', type: 'json' },
    ],
    attachments: [{ name: 'photos', mimeTypes: IMAGE_TYPES, maxFiles: 20 }],
  },
  {
    key: 'durations',
    name: 'Sezone',
    columns: [
      { name: 'name', type: 'text' },
      { name: 'filter_start', type: 'date' },
      { name: 'filter_end', type: 'date' },
    ],
  },
  {
    key: 'durationPaths',
    name: 'Poti v sezoni',
    columns: [
      { name: 'duration_id', type: 'reference', ref: 'durations' },
      { name: 'path_id', type: 'reference', ref: 'paths' },
    ],
  },
  {
    key: 'forms',
    name: 'Obrazci',
    columns: [
      { name: 'parent', type: 'reference', ref: 'durationPaths' },
      { name: 'form_id', type: 'number' },
      { name: 'score', type: 'number' },
      { name: 'rule_version', type: 'text' },
      { name: 'note', type: 'text' },
      { name: 'completed', type: 'boolean' },
    ],
    attachments: [{ name: 'photos', mimeTypes: IMAGE_TYPES, maxFiles: 20 }],
  },
  {
    key: 'indicators',
    name: 'Kazalniki',
    columns: [
      { name: 'parent', type: 'reference', ref: 'forms' },
      // Results and searches by indicator (key = 'k3' …): the table grows by ~100 rows per form.
      { name: 'key', type: 'text', indexed: true },
      // presence (boolean), count/percent (number), choice/text (string): mixed, hence json.
      { name: 'value', type: 'json' },
      { name: 'note', type: 'text' },
    ],
    attachments: [{ name: 'photos', mimeTypes: IMAGE_TYPES, maxFiles: 10 }],
  },
];
