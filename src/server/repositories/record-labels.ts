/**
 * Records by what an adviser knows them as, for the audit trail and its CSV: a farmer, meadow,
 * path or season by its name, a season link by its path and season, a form by its kind, path and
 * season, an indicator by its plant or question, a comment by its first words — never a bare id.
 * Values of a change are named the same way: a reference column by the record it points at, a
 * form kind by its title, an indicator key by its name, a review state by its word, true/false as
 * Da/Ne. Records are read in batches (ids bound per statement) with deleted ones, since a trail
 * names what was changed, however it ended.
 */
import { slAudit, slReview } from '../../common/i18n/sl';
import { isReviewState } from '../../common/review';
import { formKinds } from '../../common/scheme/form-kinds';
import { formKindById, indicatorByKey } from '../../common/scheme/kind-lookup';
import type { Properties } from '../../common/schemas/wire';
import type { RepoContext } from './context';
import type { TableInfo } from '../project-schema';
import { parseProperties } from './record-mapper';

/** Ids bound per look-up statement (far below SQLite's parameter limit). */
const IDS_PER_READ = 5_000;
/** Words of a comment that name it. */
const COMMENT_LABEL_CHARS = 40;

interface Row {
  table: TableInfo;
  props: Properties;
}

type Rows = Map<number, Row>;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

function column(row: Row, name: string): unknown {
  const id = row.table.columnsByName.get(name)?.id;
  return id === undefined ? undefined : row.props[String(id)];
}

async function readRows(ctx: RepoContext, ids: Iterable<number>, into: Rows): Promise<void> {
  const wanted = [...new Set(ids)].filter((id) => !into.has(id));
  for (let start = 0; start < wanted.length; start += IDS_PER_READ) {
    const rows = await ctx.db
      .selectFrom('records')
      .select(['id', 'table_id', 'properties'])
      .where('project_id', '=', ctx.schema.id)
      .where('id', 'in', wanted.slice(start, start + IDS_PER_READ))
      .execute();
    for (const row of rows) {
      const table = ctx.schema.tablesById.get(row.table_id);
      if (table) into.set(row.id, { table, props: parseProperties(row.properties) });
    }
  }
}

/** The reference columns whose records a table's label names. */
const LABEL_PARENTS: Readonly<Record<string, readonly string[]>> = { forms: ['parent'], durationPaths: ['path_id', 'duration_id'] };

/** The records the labels of `rows` name (a form's season link, the link's path and season), up to three levels. */
function parentsNeeded(rows: Rows): number[] {
  const ids: number[] = [];
  for (const row of rows.values()) {
    for (const name of LABEL_PARENTS[row.table.key] ?? []) {
      const id = column(row, name);
      if (typeof id === 'number' && !rows.has(id)) ids.push(id);
    }
  }
  return ids;
}

/** Loads the records with these ids and what their labels need. */
export async function loadLabelRows(ctx: RepoContext, ids: Iterable<number>): Promise<Rows> {
  const rows: Rows = new Map();
  await readRows(ctx, ids, rows);
  // forms → season link → path and season.
  for (let level = 0; level < 2; level++) {
    const more = parentsNeeded(rows);
    if (more.length === 0) break;
    await readRows(ctx, more, rows);
  }
  return rows;
}

/** A record's name as an adviser knows it, or null when it is not among `rows`. */
export function recordLabel(rows: Rows, id: number): string | null {
  const row = rows.get(id);
  if (!row) return null;
  const nameOf = (ref: unknown) => (typeof ref === 'number' ? recordLabel(rows, ref) : null);
  switch (row.table.key) {
    case 'farmers':
      return text(column(row, 'name')) || text(column(row, 'email')) || null;
    case 'durationPaths':
      return [nameOf(column(row, 'path_id')), nameOf(column(row, 'duration_id'))].filter(Boolean).join(' · ') || null;
    case 'forms': {
      const kind = formKindById(column(row, 'form_id'), formKinds)?.title;
      return [kind, nameOf(column(row, 'parent'))].filter(Boolean).join(' · ') || null;
    }
    case 'indicators':
      return indicatorName(column(row, 'key'));
    case 'comments': {
      const words = text(column(row, 'text'));
      return words ? (words.length > COMMENT_LABEL_CHARS ? `»${words.slice(0, COMMENT_LABEL_CHARS - 1)}…«` : `»${words}«`) : null;
    }
    default:
      return text(column(row, 'name')) || null;
  }
}

function indicatorName(key: unknown): string | null {
  return indicatorByKey(key, formKinds)?.name ?? null;
}

/**
 * A changed value by its name, when it has one other than itself: the record a reference points
 * at, a form kind, an indicator, a review state, yes/no. Null: the value is shown as it is.
 */
export function valueLabel(rows: Rows, table: TableInfo | undefined, columnName: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? slAudit.yes : slAudit.no;
  const col = table?.columnsByName.get(columnName);
  if (col?.type === 'reference' && typeof value === 'number') return recordLabel(rows, value);
  if (table?.key === 'forms' && columnName === 'form_id') return formKindById(value, formKinds)?.title ?? null;
  if (table?.key === 'forms' && columnName === 'review_state' && isReviewState(value)) return slReview.state[value];
  if (table?.key === 'indicators' && columnName === 'key') return indicatorName(value);
  if ((table?.key === 'comments' && columnName === 'indicator') || (table?.key === 'forms' && columnName === 'review_indicator')) return indicatorName(value);
  return null;
}
