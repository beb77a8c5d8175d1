/**
 * What every reader of an import file answers: the source's attribute names in file order and
 * its rows. A row of a geographic file carries its geometry already in WGS84, or the reason it
 * cannot (unknown CRS, unreadable geometry) — a refusal of that row, not of the file.
 */
import type { Geometry } from 'geojson';

export type ImportKind = 'farmers' | 'areas';

export interface SourceRow {
  attributes: Record<string, unknown>;
  /** Areas: the geometry in WGS84, null when the row has none. */
  geometry?: Geometry | null;
  /** Why the geometry could not be read or reprojected. */
  geometryError?: string;
}

export interface SourceTable {
  /** Attribute names as the file spells them, in file order. */
  columns: string[];
  rows: SourceRow[];
  /** The CRS the file declared (areas), e.g. EPSG:3794. */
  crs?: string;
}

/** A file the import cannot read at all: a 400 naming the reason (nothing is imported). */
export class UnreadableFile extends Error {}
