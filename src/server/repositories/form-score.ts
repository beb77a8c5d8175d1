/**
 * The stored score of a form is derived data (DESIGN §1, §8): whenever a form or one of its
 * indicators is written, the server recomputes `score` and `rule_version` with the same code the
 * client shows live (src/common/scheme/scoring.ts), so a score in the database never disagrees
 * with its indicators, whatever a client sent.
 *
 * The recomputation rewrites the form's properties in place without a new version or a history
 * entry: it is not a user's change, and bumping the version would turn the client's next edit of
 * the form (based on the version it saw) into a false 409 conflict.
 */
import { sql } from 'kysely';
import { formKindById } from '../../common/scheme/form-kinds';
import { computeScore, valuesFromIndicators, type IndicatorRowValue } from '../../common/scheme/scoring';
import type { Properties } from '../../common/schemas/wire';
import type { RecordRow } from '../db/types';
import type { RepoContext } from './context';
import type { TableInfo } from './project-repository';
import { parseProperties } from './record-mapper';

function columnId(table: TableInfo | undefined, name: string): number | undefined {
  return table?.columnsByName.get(name)?.id;
}

/** The form a write touched: the form itself, or the parent of an indicator. */
export function formIdOfWrite(table: TableInfo, properties: Properties, id: number): number | null {
  if (table.key === 'forms') return id;
  if (table.key !== 'indicators') return null;
  const parentColumn = columnId(table, 'parent');
  const parent = parentColumn === undefined ? undefined : properties[String(parentColumn)];
  return typeof parent === 'number' ? parent : null;
}

/**
 * Recomputes and stores the score of form `formId` from its live indicators. Returns the updated
 * row when something changed, else null (unknown form kind, deleted form, score already right).
 */
export async function keepFormScore(ctx: RepoContext, formId: number): Promise<RecordRow | null> {
  const forms = ctx.schema.tablesByKey.get('forms');
  const indicators = ctx.schema.tablesByKey.get('indicators');
  const [kindCol, scoreCol, ruleCol] = [columnId(forms, 'form_id'), columnId(forms, 'score'), columnId(forms, 'rule_version')];
  const [parentCol, keyCol, valueCol] = [columnId(indicators, 'parent'), columnId(indicators, 'key'), columnId(indicators, 'value')];
  if (!forms || !indicators || [kindCol, scoreCol, ruleCol, parentCol, keyCol, valueCol].includes(undefined)) return null;
  const form = await ctx.db.selectFrom('records').selectAll().where('id', '=', formId).where('table_id', '=', forms.id).executeTakeFirst();
  if (!form || form.deleted === 1) return null;
  const properties = parseProperties(form.properties);
  const kind = typeof properties[String(kindCol)] === 'number' ? formKindById(properties[String(kindCol)] as number) : undefined;
  if (!kind) return null;
  const rows = await ctx.db
    .selectFrom('records')
    .select(['properties'])
    .where('table_id', '=', indicators.id)
    .where('deleted', '=', 0)
    .where('archived', '=', 0)
    .where(sql<boolean>`${ctx.dialect.prop(parentCol!, 'number')} = ${formId}`)
    .orderBy('id')
    .execute();
  const values = valuesFromIndicators(
    kind,
    rows.map((row): IndicatorRowValue => {
      const p = parseProperties(row.properties);
      return { key: String(p[String(keyCol)] ?? ''), value: p[String(valueCol)] };
    }),
  );
  const result = computeScore(kind, values);
  if (properties[String(scoreCol)] === result.score && properties[String(ruleCol)] === result.ruleVersion) return null;
  const next = JSON.stringify({ ...properties, [String(scoreCol)]: result.score, [String(ruleCol)]: result.ruleVersion });
  return (await ctx.db.updateTable('records').set({ properties: next }).where('id', '=', formId).returningAll().executeTakeFirst()) ?? null;
}
