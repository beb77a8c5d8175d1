/**
 * The columns a write derives from a record rather than takes from the client: the bounding box
 * stored beside a geometry (spatial search) and the text indexed for search. Shared by the single
 * and bulk writers (write-steps.ts) and the seed.
 */
import type { Geometry } from 'geojson';
import type { Properties } from '../../common/schemas/wire';
import { searchableText } from '../../common/text-search';
import type { TableInfo } from '../project-schema';
import { bboxOf } from './geometry';

/** A row's geometry as stored: its JSON text and its bounding box (all null without a geometry). */
export interface GeometryColumns {
  geometry: string | null;
  min_x: number | null;
  min_y: number | null;
  max_x: number | null;
  max_y: number | null;
}

/** The columns of a row without geometry (shared: callers spread it, never change it). */
const NO_GEOMETRY: GeometryColumns = Object.freeze({ geometry: null, min_x: null, min_y: null, max_x: null, max_y: null });

export function geometryColumns(geometry: Geometry | null): GeometryColumns {
  if (!geometry) return NO_GEOMETRY;
  const [minX, minY, maxX, maxY] = bboxOf(geometry);
  return { geometry: JSON.stringify(geometry), min_x: minX, min_y: minY, max_x: maxX, max_y: maxY };
}

/** Text indexed for search: the string values of the table's text columns (common/text-search.ts). */
export function searchText(table: TableInfo, props: Properties): string {
  let keys = textKeys.get(table);
  if (!keys) textKeys.set(table, (keys = table.columns.filter((c) => c.type === 'text').map((c) => String(c.id))));
  return searchableText(keys.map((key) => props[key]));
}

/** The property keys of each table's text columns (asked for every row a bulk call writes). */
const textKeys = new WeakMap<TableInfo, string[]>();
