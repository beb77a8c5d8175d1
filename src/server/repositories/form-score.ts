/**
 * The stored score of a form is derived data (docs/architecture.md, Data model): whenever a form or one of its
 * indicators is written, the server recomputes `score` and `rule_version` with the same code the
 * client shows live (src/common/scheme/scoring.ts), so a score in the database never disagrees
 * with its indicators, whatever a client sent.
 *
 * The recomputation rewrites the form's properties in place without a new version or a history
 * entry: it is not a user's change, and bumping the version would turn the client's next edit of
 * the form (based on the version it saw) into a false 409 conflict.
 */
import { sql } from 'kysely';
import { formKinds } from '../../common/scheme/form-kinds';
import { formKindById } from '../../common/scheme/kind-lookup';
import type { FormKind } from '../../common/schemas/config';
import { computeScore, valuesFromIndicators, type IndicatorRowValue } from '../../common/scheme/scoring';
import type { Properties } from '../../common/schemas/wire';
import { chunksOf, rowsPerStatement } from '../db/dialect';
import type { RecordRow } from '../db/types';
import type { RepoContext } from './context';
import type { TableInfo } from '../project-schema';
import { parseProperties } from './record-mapper';

function columnId(table: TableInfo | undefined, name: string): number | undefined {
  return table?.columnsByName.get(name)?.id;
}

/** The form a write touched: the form itself, or the parent of an indicator. */
function formIdOfWrite(table: TableInfo, properties: Properties, id: number): number | null {
  if (table.key === 'forms') return id;
  if (table.key !== 'indicators') return null;
  const parentColumn = columnId(table, 'parent');
  const parent = parentColumn === undefined ? undefined : properties[String(parentColumn)];
  return typeof parent === 'number' ? parent : null;
}

interface ScoreColumns {
  forms: TableInfo;
  indicators: TableInfo;
  kindCol: number;
  scoreCol: number;
  ruleCol: number;
  parentCol: number;
  keyCol: number;
  valueCol: number;
}

function scoreColumns(ctx: RepoContext): ScoreColumns | null {
  const forms = ctx.schema.tablesByKey.get('forms');
  const indicators = ctx.schema.tablesByKey.get('indicators');
  const [kindCol, scoreCol, ruleCol] = [columnId(forms, 'form_id'), columnId(forms, 'score'), columnId(forms, 'rule_version')];
  const [parentCol, keyCol, valueCol] = [columnId(indicators, 'parent'), columnId(indicators, 'key'), columnId(indicators, 'value')];
  if (
    !forms ||
    !indicators ||
    kindCol === undefined ||
    scoreCol === undefined ||
    ruleCol === undefined ||
    parentCol === undefined ||
    keyCol === undefined ||
    valueCol === undefined
  )
    return null;
  return { forms, indicators, kindCol, scoreCol, ruleCol, parentCol, keyCol, valueCol };
}

/** The form kind of a live form row, or undefined (deleted form, unknown kind: nothing to score). */
function kindOfForm(columns: ScoreColumns, form: RecordRow | undefined): { properties: Properties; kind: FormKind } | undefined {
  if (!form || form.deleted === 1) return undefined;
  const properties = parseProperties(form.properties);
  const kindId = properties[String(columns.kindCol)];
  const kind = typeof kindId === 'number' ? formKindById(kindId, formKinds) : undefined;
  return kind ? { properties, kind } : undefined;
}

/** The form's properties with its score recomputed from these indicator rows, or null when they are already right. */
function rescoredProperties(columns: ScoreColumns, form: { properties: Properties; kind: FormKind }, indicatorRows: Properties[]): string | null {
  const values = valuesFromIndicators(
    form.kind,
    indicatorRows.map((p): IndicatorRowValue => ({ key: String(p[String(columns.keyCol)] ?? ''), value: p[String(columns.valueCol)] })),
  );
  const result = computeScore(form.kind, values);
  const { properties } = form;
  if (properties[String(columns.scoreCol)] === result.score && properties[String(columns.ruleCol)] === result.ruleVersion) return null;
  return JSON.stringify({ ...properties, [String(columns.scoreCol)]: result.score, [String(columns.ruleCol)]: result.ruleVersion });
}

/**
 * Recomputes and stores the score of form `formId` from its live indicators. Returns the updated
 * row when something changed, else null (unknown form kind, deleted form, score already right).
 */
async function keepFormScore(ctx: RepoContext, formId: number): Promise<RecordRow | null> {
  // The one-form case of keepFormScores (the same reads and the same update).
  return (await keepFormScores(ctx, [formId])).get(formId) ?? null;
}

/** An indicator row with its properties parsed (what scoring reads of it). */
export interface ParsedIndicator {
  id: number;
  table_id: number;
  deleted: number;
  archived: number;
  properties: Properties;
}

/**
 * keepFormScore for forms whose row and every live indicator the caller holds in memory (a bulk
 * call's new forms, not written yet, and the indicators it inserted under them): formId → the
 * properties text to store, for the forms whose score changes. `indicators` may hold other rows.
 */
export function rescoreHeld(ctx: RepoContext, forms: RecordRow[], indicators: readonly ParsedIndicator[]): Map<number, string> {
  const result = new Map<number, string>();
  const columns = scoreColumns(ctx);
  if (!columns) return result;
  const byForm = indicatorsByForm(liveIndicators(columns, indicators), columns.parentCol);
  for (const form of forms) {
    const live = form.table_id === columns.forms.id ? kindOfForm(columns, form) : undefined;
    if (!live) continue;
    const next = rescoredProperties(columns, live, byForm.get(form.id) ?? []);
    if (next !== null) result.set(form.id, next);
  }
  return result;
}

/** The live (not deleted, not archived) indicator rows among `rows`. */
function liveIndicators(columns: ScoreColumns, rows: readonly ParsedIndicator[]): ParsedIndicator[] {
  return rows.filter((row) => row.table_id === columns.indicators.id && row.deleted === 0 && row.archived === 0);
}

/** Indicator properties grouped by their form (the parent column), oldest row (lowest id) first. */
function indicatorsByForm(rows: ReadonlyArray<{ id: number; properties: Properties }>, parentCol: number): Map<number, Properties[]> {
  // Grouped first, then each form's few rows sorted (they mostly come in id order already):
  // cheaper than sorting the tens of thousands of rows of a bulk call's forms as one list.
  const groups = new Map<number, Array<{ id: number; properties: Properties }>>();
  const key = String(parentCol);
  for (const row of rows) {
    const parent = row.properties[key];
    if (typeof parent !== 'number') continue;
    let list = groups.get(parent);
    if (!list) groups.set(parent, (list = []));
    list.push(row);
  }
  const byForm = new Map<number, Properties[]>();
  for (const [parent, list] of groups)
    byForm.set(
      parent,
      list.sort((a, b) => a.id - b.id).map((row) => row.properties),
    );
  return byForm;
}

/** The table id of indicators (whose writes change form scores), if the project has them. */
export function indicatorTableId(ctx: RepoContext): number | undefined {
  return ctx.schema.tablesByKey.get('indicators')?.id;
}

/**
 * keepFormScore for many forms (the end of a bulk call): per run of forms one read of the forms,
 * one of their live indicators and one update of the forms whose score changed. Forms are
 * independent (an indicator has one parent), so the outcome is that of keepFormScore on each.
 * `held`: indicator rows the caller inserted and has not written yet (a bulk call scores before
 * it writes its rows): they count as if read with the others, and their properties are not
 * parsed again. The forms themselves must be written. Returns formId → updated row for the forms
 * that changed.
 */
export async function keepFormScores(ctx: RepoContext, formIds: Iterable<number>, held: readonly ParsedIndicator[] = []): Promise<Map<number, RecordRow>> {
  const updated = new Map<number, RecordRow>();
  const columns = scoreColumns(ctx);
  if (!columns) return updated;
  const heldByForm = new Map<number, ParsedIndicator[]>();
  for (const row of liveIndicators(columns, held)) {
    const parent = row.properties[String(columns.parentCol)];
    if (typeof parent !== 'number') continue;
    let list = heldByForm.get(parent);
    if (!list) heldByForm.set(parent, (list = []));
    list.push(row);
  }
  for (const ids of chunksOf([...new Set(formIds)], rowsPerStatement(2))) {
    const forms = await ctx.db.selectFrom('records').selectAll().where('table_id', '=', columns.forms.id).where('id', 'in', ids).execute();
    const live = new Map<number, { row: RecordRow; properties: Properties; kind: FormKind }>();
    for (const row of forms) {
      const found = kindOfForm(columns, row);
      if (found) live.set(row.id, { row, ...found });
    }
    if (live.size === 0) continue;
    // Sorted in indicatorsByForm, not by the database: an ORDER BY id lets SQLite prefer walking
    // every indicator in id order over the index on the parent column (a scan of the whole table
    // per call).
    const rows = await ctx.db
      .selectFrom('records')
      .select(['id', 'properties'])
      .where('table_id', '=', columns.indicators.id)
      .where('deleted', '=', 0)
      .where('archived', '=', 0)
      .where(sql<boolean>`${ctx.dialect.prop(columns.parentCol, 'number')} in (${sql.join([...live.keys()])})`)
      .execute();
    const parsed: Array<{ id: number; properties: Properties }> = rows.map((row) => ({ id: row.id, properties: parseProperties(row.properties) }));
    for (const id of live.keys()) parsed.push(...(heldByForm.get(id) ?? []));
    const byForm = indicatorsByForm(parsed, columns.parentCol);
    const changes: Array<{ id: number; properties: string }> = [];
    for (const [id, form] of live) {
      const next = rescoredProperties(columns, form, byForm.get(id) ?? []);
      if (next === null) continue;
      changes.push({ id, properties: next });
      updated.set(id, { ...form.row, properties: next });
    }
    if (changes.length === 0) continue;
    // One statement for the run (UPDATE … FROM VALUES: SQLite 3.33+ and PostgreSQL); the casts
    // type the VALUES columns for PostgreSQL and change nothing in SQLite.
    const values = sql.join(changes.map((change) => sql`(cast(${change.id} as integer), ${change.properties})`));
    await sql`update records set properties = cast(v.column2 as ${sql.raw(ctx.dialect.types.json)}) from (values ${values}) as v where records.id = v.column1`.execute(
      ctx.db,
    );
  }
  return updated;
}

/**
 * Recomputes the stored score of the form a write touched (keepFormScore), or notes it for the end
 * of a bulk call (`ctx.rescoreLater`); answers the form row when the write was the form's and its
 * score changed.
 */
export async function rescoreAfterWrite(ctx: RepoContext, table: TableInfo, props: Properties, id: number): Promise<RecordRow | null> {
  const formId = formIdOfWrite(table, props, id);
  if (formId === null) return null;
  if (ctx.rescoreLater) {
    ctx.rescoreLater.add(formId);
    return null;
  }
  const updated = await keepFormScore(ctx, formId);
  return updated && updated.id === id ? updated : null;
}
