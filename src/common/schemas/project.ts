/**
 * The tables of the monitoring scheme, described once (docs/architecture.md, Data model): each
 * column with its type and, for a reference, the table it points into; who a farmer sees of the
 * table; its attachment slots. Everything else is derived from `TABLES`:
 * - the server's project schema (src/server/db/monitoring-schema.ts, which createProject writes),
 * - the farmer's ownership chain of the role checks (src/server/access/scope.ts),
 * - the client's reference columns (src/client/lib/db/refs.ts) and its typed rows
 *   (src/client/lib/db/model.ts: a `Form`, a `Path`…).
 * Adding a table is adding an entry here, and its Slovenian name in i18n/sl.ts (slAudit.tables: the
 * name of the table in a new project and in the audit trail; a missing one does not compile).
 *
 * Column ids are assigned by the server's database; `config.json` maps the names below to the ids,
 * and the client never hard-codes an id. The order of the entries is the order of the tables and
 * columns in a new project (ids are given in that order), so add at the end.
 */

export type ColumnType = 'text' | 'number' | 'boolean' | 'date' | 'json' | 'reference';

interface ColumnDescription {
  readonly type: ColumnType;
  /** For a reference column: the table (a key of TABLES) whose record id it holds. */
  readonly ref?: string;
  /**
   * Filtered often enough to deserve an expression index (src/server/db/property-indexes.ts).
   * Reference columns are always indexed; this flags other columns.
   */
  readonly indexed?: boolean;
}

/**
 * What a farmer sees of a table (editors and readers see every table whole; the server's
 * access/scope.ts turns this into the farmer's SQL predicate):
 * - `'self'`: their own record (the farmer record matching their e-mail): the chain's root;
 * - `'everyone'`: every row (shared reference data such as the seasons);
 * - `{ owner }`: the rows whose `owner` column (a reference) points at a row the farmer sees.
 *   `manyPerOwner`: the table has many rows per owner (an indicator per plant: ~100 per form), so
 *   the farmer's rows are not loaded per request but matched by their owner's id — which means
 *   no table can hang under it.
 * A table without `farmerSees` is invisible to farmers.
 */
type FarmerSees = 'self' | 'everyone' | { readonly owner: string; readonly manyPerOwner?: boolean };

interface TableDescription {
  readonly columns: Readonly<Record<string, ColumnDescription>>;
  readonly farmerSees?: FarmerSees;
  /** Attachment slots (tableAttachmentInfo): accepted MIME types and how many files a record holds. */
  readonly attachments?: Readonly<Record<string, { readonly mimeTypes?: readonly string[]; readonly maxFiles?: number }>>;
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

export const TABLES = {
  farmers: {
    columns: {
      name: { type: 'text' },
      // The farmer of a signed-in e-mail (server access.ts) and the editors' farmer look-ups.
      email: { type: 'text', indexed: true },
      phone: { type: 'text' },
      kmg_mid: { type: 'text' },
    },
    farmerSees: 'self',
  },
  /** Meadows. */
  areas: {
    columns: {
      name: { type: 'text' },
      user: { type: 'reference', ref: 'farmers' },
      gerk_pid: { type: 'text' },
      area_ha: { type: 'number' },
    },
    farmerSees: { owner: 'user' },
  },
  /** Transects walked on a meadow. */
  paths: {
    columns: {
      name: { type: 'text' },
      parent: { type: 'reference', ref: 'areas' },
      length_m: { type: 'number' },
      walk: { type: 'json' },
    },
    farmerSees: { owner: 'parent' },
    attachments: { photos: { mimeTypes: IMAGE_TYPES, maxFiles: 20 } },
  },
  /** Seasons. */
  durations: {
    columns: {
      name: { type: 'text' },
      filter_start: { type: 'date' },
      filter_end: { type: 'date' },
      // The scheme's deadlines (src/common/review.ts): forms are submitted until `submit_until`,
      // reviewed until `review_until`, and a decision may be appealed `appeal_days` after it.
      submit_until: { type: 'date' },
      review_until: { type: 'date' },
      appeal_days: { type: 'number' },
    },
    farmerSees: 'everyone',
  },
  /** A path in a season: the forms of the season hang under it. */
  durationPaths: {
    columns: {
      duration_id: { type: 'reference', ref: 'durations' },
      path_id: { type: 'reference', ref: 'paths' },
    },
    farmerSees: { owner: 'path_id' },
  },
  forms: {
    columns: {
      parent: { type: 'reference', ref: 'durationPaths' },
      // The form kind's id (config.json → forms), not a record id.
      form_id: { type: 'number' },
      score: { type: 'number' },
      rule_version: { type: 'text' },
      note: { type: 'text' },
      completed: { type: 'boolean' },
      // The review of the form (src/common/review.ts): draft (or empty), submitted, returned,
      // approved, rejected, appealed. The advisers' queue filters by it.
      review_state: { type: 'text', indexed: true },
      // The reason of the last move (the server also adds it to the form's thread as a comment)
      // and the indicator it is about (its key; a returned form opens there), or empty.
      review_reason: { type: 'text' },
      review_indicator: { type: 'text' },
      // Set by the server on every change of review_state: who changed it (e-mail) and when.
      reviewed_by: { type: 'text' },
      reviewed_at: { type: 'date' },
      // The last day a returned form may be resubmitted (the adviser's own deadline for it).
      return_until: { type: 'date' },
    },
    farmerSees: { owner: 'parent' },
    attachments: { photos: { mimeTypes: IMAGE_TYPES, maxFiles: 20 } },
  },
  indicators: {
    columns: {
      parent: { type: 'reference', ref: 'forms' },
      // Names the indicator definition of the form kind ('k3' …). Results and searches by
      // indicator: the table grows by ~100 rows per form.
      key: { type: 'text', indexed: true },
      // presence (boolean), count/percent (number), choice/text (string): mixed, hence json.
      value: { type: 'json' },
      note: { type: 'text' },
    },
    farmerSees: { owner: 'parent', manyPerOwner: true },
    attachments: { photos: { mimeTypes: IMAGE_TYPES, maxFiles: 10 } },
  },
  /**
   * The thread of a form between its farmer and the advisers; the reason of a return, rejection
   * or appeal is a comment too. Author and time are the record's own (its history's first entry).
   */
  comments: {
    columns: {
      parent: { type: 'reference', ref: 'forms' },
      text: { type: 'text' },
      // The indicator the comment is about (its key in the form kind), or empty.
      indicator: { type: 'text' },
      // The review state the comment's author moved the form to with it, or empty for a reply.
      state: { type: 'text' },
      // Who wrote it (e-mail), set by the server: a farmer's device shows the thread offline.
      author: { type: 'text' },
    },
    farmerSees: { owner: 'parent', manyPerOwner: true },
  },
} as const satisfies Readonly<Record<string, TableDescription>>;

export type TableKey = keyof typeof TABLES;
export type ColumnName<T extends TableKey> = keyof (typeof TABLES)[T]['columns'] & string;
export const TABLE_KEYS = Object.keys(TABLES) as TableKey[];

/** A table's description, widened to the common shape (for code that walks every table). */
export function describeTable(key: TableKey): TableDescription {
  return TABLES[key];
}
