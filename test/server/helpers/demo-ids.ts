/** Ids of the demo project's rows per farmer, read straight from the database for assertions. */
import type { FastifyInstance } from 'fastify';
import type { TablesConfig } from '../../../src/common/schemas/config';

export interface FarmerRows {
  farmer: number;
  areas: number[];
  paths: number[];
  durationPaths: number[];
  forms: number[];
  indicators: number[];
}

async function rows(app: FastifyInstance, tableId: number): Promise<Array<{ id: number; p: Record<string, unknown> }>> {
  const list = await app.db.selectFrom('records').select(['id', 'properties']).where('table_id', '=', tableId).where('deleted', '=', 0).orderBy('id').execute();
  return list.map((r) => ({ id: r.id, p: JSON.parse(r.properties) as Record<string, unknown> }));
}

export async function farmerRows(app: FastifyInstance, tables: TablesConfig, email: string): Promise<FarmerRows> {
  const farmers = await rows(app, tables.farmers.id);
  const farmer = farmers.find((f) => f.p[String(tables.farmers.columns.email)] === email)!.id;
  const pick = async (tableId: number, column: number, parents: number[]) =>
    (await rows(app, tableId)).filter((r) => parents.includes(r.p[String(column)] as number)).map((r) => r.id);
  const areas = await pick(tables.areas.id, tables.areas.columns.user, [farmer]);
  const paths = await pick(tables.paths.id, tables.paths.columns.parent, areas);
  const durationPaths = await pick(tables.durationPaths.id, tables.durationPaths.columns.path_id, paths);
  const forms = await pick(tables.forms.id, tables.forms.columns.parent, durationPaths);
  const indicators = await pick(tables.indicators.id, tables.indicators.columns.parent, forms);
  return { farmer, areas, paths, durationPaths, forms, indicators };
}

export async function durationIds(app: FastifyInstance, tables: TablesConfig): Promise<number[]> {
  return (await rows(app, tables.durations.id)).map((r) => r.id);
}

/**
 * Makes the demo's forms drafts again. Last season's forms of the demo are approved, which locks
 * them for their farmers (docs/architecture.md, The review loop): files testing other concerns
 * that change them as a farmer (scores, bulk calls, photos, the audit trail) call this first.
 */
export async function demoFormsAsDrafts(app: FastifyInstance, tables: TablesConfig): Promise<void> {
  const forms = tables.forms;
  const reviewColumns = [forms.columns.review_state, forms.columns.reviewed_by, forms.columns.reviewed_at].map(String);
  for (const row of await rows(app, forms.id)) {
    for (const key of reviewColumns) delete row.p[key];
    await app.db
      .updateTable('records')
      .set({ properties: JSON.stringify(row.p) })
      .where('id', '=', row.id)
      .execute();
  }
}
