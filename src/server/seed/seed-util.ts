/**
 * Direct record inserts for seeding (demo and benchmark data): no access checks, but the same
 * storage rules as the repositories (properties keyed by column id, bbox columns, text index).
 */
import type { Geometry } from 'geojson';
import { bboxOf } from '../repositories/geometry';
import type { TableInfo } from '../project-schema';
import type { DialectLayer, Executor } from '../db/dialect';
import { searchText } from '../repositories/derived-columns';

export interface SeedRecordInput {
  /** Property values keyed by column name. */
  values: Record<string, unknown>;
  geometry?: Geometry | null;
}

export async function insertSeedRecord(
  db: Executor,
  dialect: DialectLayer,
  table: TableInfo,
  input: SeedRecordInput,
  options: { now: string; by: string },
): Promise<number> {
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input.values)) {
    const column = table.columnsByName.get(name);
    if (!column) throw new Error(`table ${table.key} has no column ${name}`);
    properties[String(column.id)] = value;
  }
  const geometry = input.geometry ?? null;
  const box = geometry ? bboxOf(geometry) : null;
  const row = await db
    .insertInto('records')
    .values({
      project_id: table.projectId,
      table_id: table.id,
      properties: JSON.stringify(properties),
      geometry: geometry ? JSON.stringify(geometry) : null,
      min_x: box?.[0] ?? null,
      min_y: box?.[1] ?? null,
      max_x: box?.[2] ?? null,
      max_y: box?.[3] ?? null,
      deleted: 0,
      archived: 0,
      created_at: options.now,
      updated_at: options.now,
      version: 1,
      created_by: options.by,
      updated_by: options.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const text = searchText(table, properties);
  if (text) await dialect.indexText(db, row.id, text);
  return row.id;
}

/** Coordinates rounded to 6 decimals (about 0.1 m): enough for meadows, smaller stored GeoJSON. */
export const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;
