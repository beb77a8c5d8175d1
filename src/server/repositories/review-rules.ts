/**
 * The review loop on record writes (docs/architecture.md, The review loop). The rule itself —
 * states, who moves a form where, reasons, deadlines — is src/common/review.ts, shared with the
 * client; this module applies it to the writers' inputs (write-steps.ts writeInsert/writeUpdate: single,
 * bulk and `full` writes alike), inside the request's transaction, so a refusal writes nothing:
 *
 * - forms: a write that changes `review_state` is a move. It must name a known state, be allowed
 *   by `refuseMove` for the caller's role, the season's deadlines (the form's season link →
 *   durations row) and today in Slovenia, and a move to submitted needs the form marked completed
 *   with valid indicator values. The server sets `reviewed_by`/`reviewed_at` on every move (a
 *   client may only send back the stored values), keeps the move's reason and indicator in the
 *   form's columns (clearing the last move's) and hands back the comment the writer adds to the
 *   form's thread. `review_reason`, `review_indicator` and `return_until` change only with a move.
 * - comments: the author is the caller (set here, whatever the client sent; kept on updates), a
 *   client's comment is a reply (no state: only a move's comment carries one), the text is not
 *   empty and the indicator, if any, is one of the form's kind.
 * - locked forms: while a form waits for or has a decision (not `farmerMayEdit`), a farmer may
 *   not change it, its indicators or their photos — only move it (an appeal). The refusal is a
 *   409 with the stored record (`current`) and the locking state (`reviewState`): the client
 *   shows the decision and stops offering the edit, instead of queueing it again.
 *
 * Refusals of a move are 400 with the Slovenian text as detail (slReview.refused), as the other
 * record rules (record-rules.ts): the outbox shows it to the user as it is.
 */
import { sql } from 'kysely';
import { fillText, slReview } from '../../common/i18n/sl';
import {
  dayInSlovenia,
  farmerMayEdit,
  isReviewState,
  refuseMove,
  REVIEW_STATES,
  reviewStateOf,
  type ReviewState,
  type SeasonDeadlines,
} from '../../common/review';
import { formKinds } from '../../common/scheme/form-kinds';
import { findIndicator, formKindById } from '../../common/scheme/kind-lookup';
import { validateForm, valuesFromIndicators } from '../../common/scheme/scoring';
import type { Properties, WireRecord } from '../../common/schemas/wire';
import type { RecordRow } from '../db/types';
import { conflict, invalid } from '../domain-errors';
import type { TableInfo } from '../project-schema';
import type { RepoContext } from './context';
import { parseProperties, rowToRecord } from './record-mapper';
import { findVisibleRow } from './record-repository';

const t = slReview.refused;

/** The columns a farmer may still change on a locked form: a move (an appeal) and what it is about. */
const MOVE_COLUMNS: readonly string[] = ['review_state', 'review_reason', 'review_indicator'];
/** Set by the server on every move; a client may only send back the stored value. */
const SERVER_COLUMNS = ['reviewed_by', 'reviewed_at'] as const;
/** What a move carries: without a move they stay as the last move left them. */
const MOVE_ONLY_COLUMNS = ['review_reason', 'review_indicator', 'return_until'] as const;

/** A row as the write's call sees it (a bulk call's held rows included: RecordWrites.current). */
export type RowLookup = (table: TableInfo, id: number) => Promise<RecordRow | undefined>;

export interface ReviewInput {
  /** The row's properties as they will be stored (mutable: the server's columns are set here). */
  props: Properties;
  /** What the write sent (validated; offline ids of references mapped). */
  given: Properties;
  /** The stored properties; null for an insert. */
  before: Properties | null;
  /** The row being updated (undefined: an insert). */
  id?: number;
  /** Writes what a bulk call still buffers, before a read that must see it. */
  flush: () => Promise<void>;
  row: RowLookup;
  /** For the comment a move adds (the writer's own insert): the state the form moved to. */
  moveState?: ReviewState;
}

/** The comment a move adds to its form's thread, once the form row is written. */
export interface MoveComment {
  text: string;
  indicator: string | null;
  state: ReviewState;
}

/** Whether writes of the table have review rules (forms and comments). */
export function hasReviewRules(table: TableInfo): boolean {
  return table.key === 'forms' || table.key === 'comments';
}

/** Checks and completes a forms or comments write; answers the comment a form's move adds. */
export async function applyReviewRules(ctx: RepoContext, table: TableInfo, input: ReviewInput): Promise<MoveComment | null> {
  if (table.key === 'forms') return checkFormWrite(ctx, table, input);
  if (table.key === 'comments') await checkComment(ctx, table, input);
  return null;
}

function keyOf(table: TableInfo, name: string): string | undefined {
  const column = table.columnsByName.get(name);
  return column ? String(column.id) : undefined;
}

const blank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
/** Empty and missing are the same value here (a client may send '' or null for "none"). */
const same = (a: unknown, b: unknown): boolean => (blank(a) && blank(b)) || JSON.stringify(a) === JSON.stringify(b);

/** Who the server records as having made a move or written a comment (as created_by/updated_by). */
function callerOf(ctx: RepoContext): string {
  return ctx.access.email || ctx.access.principal.subject;
}

type FormKeys = Record<'state' | 'reason' | 'indicator' | 'reviewed_by' | 'reviewed_at' | 'return_until' | 'completed' | 'kind' | 'parent', string>;

function formKeys(table: TableInfo): FormKeys | undefined {
  const names = {
    state: 'review_state',
    reason: 'review_reason',
    indicator: 'review_indicator',
    reviewed_by: 'reviewed_by',
    reviewed_at: 'reviewed_at',
    return_until: 'return_until',
    completed: 'completed',
    kind: 'form_id',
    parent: 'parent',
  };
  const keys: Partial<FormKeys> = {};
  for (const [name, column] of Object.entries(names)) {
    const key = keyOf(table, column);
    // A project made before the review loop and not migrated: nothing to check.
    if (key === undefined) return undefined;
    keys[name as keyof FormKeys] = key;
  }
  return keys as FormKeys;
}

async function checkFormWrite(ctx: RepoContext, table: TableInfo, input: ReviewInput): Promise<MoveComment | null> {
  const k = formKeys(table);
  if (!k) return null;
  const { given, props } = input;
  const before = input.before ?? {};
  const state = given[k.state];
  if (!blank(state) && !isReviewState(state)) throw invalid(fillText(t.unknownState, { state: String(state), states: REVIEW_STATES.join(', ') }));
  const from = reviewStateOf(before[k.state]);
  const to = reviewStateOf(props[k.state]);
  const moved = from !== to;
  const caller = callerOf(ctx);
  /** What the write sends in `column` when it is new: a value sent back unchanged is not carried. */
  const carried = (key: string): unknown => (key in given && !same(given[key], before[key]) ? given[key] : undefined);

  for (const name of SERVER_COLUMNS) {
    const value = carried(k[name]);
    if (value === undefined) continue;
    // The value the server is about to write may be sent along with the move.
    if (moved && name === 'reviewed_by' && value === caller) continue;
    throw invalid(fillText(t.serverColumn, { column: name }));
  }
  if (!moved) {
    const keys = { review_reason: k.reason, review_indicator: k.indicator, return_until: k.return_until };
    for (const name of MOVE_ONLY_COLUMNS) if (carried(keys[name]) !== undefined) throw invalid(fillText(t.withoutMove, { column: name }));
    return null;
  }

  // Readers never get here (policy: 403); whoever is not a farmer is an editor.
  const actor = ctx.access.role === 'farmer' ? 'farmer' : 'editor';
  // The stored reason sent back with the row is the last move's, not this one's.
  const reason = textOf(carried(k.reason));
  const refusal = refuseMove({
    from: { review_state: from, reviewed_at: textOf(before[k.reviewed_at]), return_until: textOf(before[k.return_until]) },
    to,
    actor,
    reason,
    season: await seasonOf(ctx, props[k.parent], input.row),
    today: dayInSlovenia(new Date(ctx.now)),
  });
  if (refusal) throw invalid(refusal);
  const returnUntil = textOf(carried(k.return_until));
  if (returnUntil !== null && !(actor === 'editor' && to === 'returned')) throw invalid(t.returnUntil);
  const indicator = textOf(carried(k.indicator));
  if (indicator !== null) assertIndicatorOfKind(props[k.kind], indicator);
  if (to === 'submitted') await assertSubmittable(ctx, props, k, input);

  props[k.state] = to;
  props[k.reviewed_by] = caller;
  props[k.reviewed_at] = ctx.now;
  // The columns say what the last move was about; earlier reasons live on in the thread.
  props[k.reason] = reason;
  props[k.indicator] = indicator;
  props[k.return_until] = to === 'returned' ? returnUntil : null;
  return reason === null ? null : { text: reason, indicator, state: to };
}

/** The deadlines of the form's season: its season link's durations row (none found: no deadlines). */
async function seasonOf(ctx: RepoContext, linkId: unknown, row: RowLookup): Promise<SeasonDeadlines | null> {
  const links = ctx.schema.tablesByKey.get('durationPaths');
  const seasons = ctx.schema.tablesByKey.get('durations');
  const durationKey = links && keyOf(links, 'duration_id');
  if (!links || !seasons || !durationKey || typeof linkId !== 'number') return null;
  const link = await row(links, linkId);
  const seasonId = link ? parseProperties(link.properties)[durationKey] : undefined;
  const season = typeof seasonId === 'number' ? await row(seasons, seasonId) : undefined;
  if (!season) return null;
  const p = parseProperties(season.properties);
  const value = (name: string) => {
    const key = keyOf(seasons, name);
    return key === undefined ? null : p[key];
  };
  const appealDays = value('appeal_days');
  return {
    submit_until: textOf(value('submit_until')),
    review_until: textOf(value('review_until')),
    appeal_days: typeof appealDays === 'number' ? appealDays : null,
  };
}

function assertIndicatorOfKind(kindId: unknown, key: string): void {
  const kind = formKindById(kindId, formKinds);
  if (!kind || !findIndicator(kind, key)) throw invalid(fillText(t.unknownIndicator, { key }));
}

/** A form goes to review marked completed and with valid values of its live indicators. */
async function assertSubmittable(ctx: RepoContext, props: Properties, k: FormKeys, input: ReviewInput): Promise<void> {
  if (props[k.completed] !== true) throw invalid(t.notCompleted);
  const kind = formKindById(props[k.kind], formKinds);
  if (!kind) throw invalid(t.unknownKind);
  const rows = input.id === undefined ? [] : await liveIndicatorValues(ctx, input.id, input.flush);
  const result = validateForm(kind, valuesFromIndicators(kind, rows));
  if (!result.valid) throw invalid(fillText(t.incomplete, { errors: result.errors.map((error) => error.message).join('; ') }));
}

/** The form's live indicators, oldest first (as the score reads them), including what a bulk call still buffers. */
async function liveIndicatorValues(ctx: RepoContext, formId: number, flush: () => Promise<void>) {
  const indicators = ctx.schema.tablesByKey.get('indicators');
  const [parentKey, keyKey, valueKey] = ['parent', 'key', 'value'].map((name) => (indicators ? keyOf(indicators, name) : undefined));
  if (!indicators || !parentKey || !keyKey || !valueKey) return [];
  await flush();
  const rows = await ctx.db
    .selectFrom('records')
    .select(['id', 'properties', 'archived'])
    .where('table_id', '=', indicators.id)
    .where('deleted', '=', 0)
    .where(sql<boolean>`${ctx.dialect.prop(Number(parentKey), 'number')} = ${formId}`)
    .execute();
  return rows
    .sort((a, b) => a.id - b.id)
    .map((row) => {
      const p = parseProperties(row.properties);
      return { key: String(p[keyKey] ?? ''), value: p[valueKey], archived: row.archived === 1 };
    });
}

async function checkComment(ctx: RepoContext, table: TableInfo, input: ReviewInput): Promise<void> {
  const [parentKey, textKey, indicatorKey, stateKey, authorKey] = ['parent', 'text', 'indicator', 'state', 'author'].map((name) => keyOf(table, name));
  if (!parentKey || !textKey || !indicatorKey || !stateKey || !authorKey) return;
  const { props, given, before } = input;
  if (before === null) {
    props[authorKey] = callerOf(ctx);
    // A client's comment is a reply; only the comment of a move names the state it led to.
    props[stateKey] = input.moveState ?? null;
  } else {
    props[authorKey] = before[authorKey] ?? null;
    props[stateKey] = before[stateKey] ?? null;
  }
  if ((before === null || textKey in given) && textOf(props[textKey]) === null) throw invalid(t.commentEmpty);
  const indicator = props[indicatorKey];
  const recheck = before === null || !same(before[indicatorKey], indicator) || !same(before[parentKey], props[parentKey]);
  if (blank(indicator) || !recheck) return;
  const forms = ctx.schema.tablesByKey.get('forms');
  const parent = props[parentKey];
  const form = forms && typeof parent === 'number' ? await input.row(forms, parent) : undefined;
  const kindKey = forms && keyOf(forms, 'form_id');
  assertIndicatorOfKind(form && kindKey ? parseProperties(form.properties)[kindKey] : undefined, String(indicator));
}

/**
 * Refuses a farmer's change of a locked form (docs/architecture.md, The review loop): the form
 * itself, or an indicator of it, `target` being the stored row the farmer tries to change (for an
 * indicator insert: its form) and `props` the properties naming the form (the form's own, or the
 * indicator's with `parent`). `changed` are the column names a form update changes: a write that
 * changes only the move's columns is a move, checked by checkFormWrite instead.
 */
export async function assertFarmerMayChange(
  ctx: RepoContext,
  table: TableInfo,
  target: RecordRow,
  props: Properties,
  row: RowLookup,
  changed?: readonly string[],
): Promise<void> {
  if (ctx.access.role !== 'farmer') return;
  const forms = ctx.schema.tablesByKey.get('forms');
  const stateKey = forms && keyOf(forms, 'review_state');
  if (!forms || !stateKey) return;
  let form: RecordRow | undefined;
  if (table.key === 'forms') {
    form = target;
    if (changed && changed.length > 0 && changed.every((name) => MOVE_COLUMNS.includes(name))) return;
  } else if (table.key === 'indicators') {
    const parentKey = keyOf(table, 'parent');
    const parent = parentKey ? props[parentKey] : undefined;
    form = typeof parent === 'number' ? (parent === target.id && target.table_id === forms.id ? target : await row(forms, parent)) : undefined;
  }
  if (!form || form.table_id !== forms.id) return;
  const state = reviewStateOf(parseProperties(form.properties)[stateKey]);
  if (farmerMayEdit(state)) return;
  throw conflict(fillText(t.locked, { state: slReview.state[state] }), rowToRecord(target), { reviewState: state });
}

/** assertFarmerMayChange for an attachment added to or removed from `record` (a form or an indicator). */
export async function assertFarmerMayAttach(ctx: RepoContext, record: WireRecord): Promise<void> {
  if (ctx.access.role !== 'farmer') return;
  const table = ctx.schema.tablesById.get(record.tableId);
  if (!table) return;
  const stored = await findVisibleRow(ctx, table, record.id);
  if (!stored) return;
  await assertFarmerMayChange(ctx, table, stored, parseProperties(stored.properties), (of, id) => findVisibleRow(ctx, of, id));
}

/** A farmer's new indicator must not go under a locked form (the 409 names the form). */
export async function assertFormUnlocked(ctx: RepoContext, table: TableInfo, props: Properties, row: RowLookup): Promise<void> {
  if (ctx.access.role !== 'farmer') return;
  const forms = ctx.schema.tablesByKey.get('forms');
  const parent = props[String(table.columnsByName.get('parent')?.id)];
  const form = forms && typeof parent === 'number' ? await row(forms, parent) : undefined;
  if (form) await assertFarmerMayChange(ctx, table, form, props, row);
}
