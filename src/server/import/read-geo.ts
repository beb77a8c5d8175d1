/**
 * Meadows from GeoJSON, GeoPackage or a zipped Shapefile, recognised by content (zip and SQLite
 * magic bytes, else JSON). Every row's geometry is reprojected to WGS84 here (crs.ts):
 *
 * - GeoJSON: a FeatureCollection (or one Feature); the legacy `crs` member is honoured
 *   (`urn:ogc:def:crs:EPSG::3794`), without one the coordinates must be longitude/latitude.
 * - GeoPackage: opened with better-sqlite3 from the bytes; the first features table of
 *   gpkg_contents, its geometry column and srs from gpkg_geometry_columns / gpkg_spatial_ref_sys;
 *   geometry blobs are the GeoPackage header (magic, flags, srs id, envelope) + WKB, parsed by wkx.
 * - Shapefile: the zip's first .shp with its .dbf, .prj (the CRS) and .cpg (the text encoding),
 *   read by `shapefile` after unzipping with fflate.
 */
import Database from 'better-sqlite3';
import { unzipSync } from 'fflate';
import type { Feature, Geometry } from 'geojson';
import { read as readShapefile } from 'shapefile';
import wkx from 'wkx';
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import { crsFromName, crsFromSrs, crsFromWkt, toWgs84, undeclaredCrs, type SourceCrs } from './crs';
import { UnreadableFile, type SourceRow, type SourceTable } from './source';

const t = slSeasonServer.import;
const unreadable = (reason: string) => new UnreadableFile(fillText(t.unreadable, { reason }));

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const SQLITE = [...Buffer.from('SQLite format 3\0', 'latin1')];

export async function readGeoFile(bytes: Uint8Array): Promise<SourceTable> {
  if (startsWith(bytes, ZIP)) return readZippedShapefile(bytes);
  if (startsWith(bytes, SQLITE)) return readGeoPackage(bytes);
  return readGeoJson(bytes);
}

/** One row from a feature-like record: the CRS turns its geometry into WGS84 (or refuses it). */
function row(attributes: Record<string, unknown>, geometry: Geometry | null, crs: SourceCrs | undefined, declared: string | undefined): SourceRow {
  if (!geometry) return { attributes, geometry: null };
  const source = crs ?? (declared === undefined ? undeclaredCrs(geometry) : undefined);
  if (!source) return { attributes, geometryError: fillText(t.unknownCrs, { crs: declared ?? '(ni podan)' }) };
  try {
    return { attributes, geometry: toWgs84(geometry, source) };
  } catch (error) {
    return { attributes, geometryError: fillText(t.badGeometry, { reason: (error as Error).message }) };
  }
}

function columnsOf(rows: SourceRow[]): string[] {
  const names = new Set<string>();
  for (const r of rows) for (const name of Object.keys(r.attributes)) names.add(name);
  return [...names];
}

function readGeoJson(bytes: Uint8Array): SourceTable {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''));
  } catch {
    throw new UnreadableFile(t.unknownFormat);
  }
  const doc = json as { type?: unknown; features?: unknown; crs?: { properties?: { name?: unknown } } };
  const features =
    doc.type === 'FeatureCollection' && Array.isArray(doc.features) ? (doc.features as Feature[]) : doc.type === 'Feature' ? [doc as Feature] : null;
  if (!features) throw new UnreadableFile(t.unknownFormat);
  const declared = typeof doc.crs?.properties?.name === 'string' ? doc.crs.properties.name : undefined;
  const crs = declared === undefined ? undefined : crsFromName(declared);
  const rows = features.map((feature) => {
    const attributes = feature && typeof feature.properties === 'object' && feature.properties !== null ? { ...feature.properties } : {};
    const geometry = feature && typeof feature.geometry === 'object' ? feature.geometry : null;
    return row(attributes, geometry, crs, declared);
  });
  if (rows.length === 0) throw new UnreadableFile(t.emptyFile);
  return { columns: columnsOf(rows), rows, ...(declared !== undefined ? { crs: crs?.name ?? declared } : {}) };
}

/** Bytes of the GeoPackage geometry header before the WKB: 8 + the envelope of flags bits 1–3. */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

function geoPackageGeometry(blob: Buffer): Geometry | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50) throw new Error('not a GeoPackage geometry (no GP magic)');
  const flags = blob[3]!;
  if (flags & 0x10) return null; // the empty geometry flag
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 0x07];
  if (envelope === undefined) throw new Error('invalid envelope indicator');
  return wkx.Geometry.parse(blob.subarray(8 + envelope)).toGeoJSON() as Geometry;
}

function readGeoPackage(bytes: Uint8Array): SourceTable {
  let db: Database.Database;
  try {
    db = new Database(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { readonly: true });
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  try {
    const layer = db
      .prepare(
        `select c.table_name as tableName, g.column_name as geometryColumn, s.organization, s.organization_coordsys_id as code, s.definition
           from gpkg_contents c join gpkg_geometry_columns g on g.table_name = c.table_name
           left join gpkg_spatial_ref_sys s on s.srs_id = g.srs_id
          where c.data_type = 'features' order by c.table_name limit 1`,
      )
      .get() as { tableName: string; geometryColumn: string; organization: string | null; code: number | null; definition: string | null } | undefined;
    if (!layer) throw new UnreadableFile(t.emptyFile);
    const crs = crsFromSrs(layer.organization, layer.code, layer.definition);
    const declared = layer.organization && layer.code !== null ? `${layer.organization.toUpperCase()}:${layer.code}` : 'GeoPackage srs';
    const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const records = db.prepare(`select * from ${quoted(layer.tableName)}`).all() as Array<Record<string, unknown>>;
    const primaryKeys = new Set(
      (db.prepare(`select name from pragma_table_info(?) where pk > 0`).all(layer.tableName) as Array<{ name: string }>).map((c) => c.name),
    );
    const rows = records.map((record) => {
      const attributes: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(record)) if (name !== layer.geometryColumn && !primaryKeys.has(name)) attributes[name] = value;
      const blob = record[layer.geometryColumn];
      let geometry: Geometry | null;
      try {
        geometry = blob instanceof Uint8Array ? geoPackageGeometry(Buffer.from(blob)) : null;
      } catch (error) {
        return { attributes, geometryError: fillText(t.badGeometry, { reason: (error as Error).message }) };
      }
      return row(attributes, geometry, crs, declared);
    });
    if (rows.length === 0) throw new UnreadableFile(t.emptyFile);
    return { columns: columnsOf(rows), rows, crs: crs?.name ?? declared };
  } catch (error) {
    if (error instanceof UnreadableFile) throw error;
    throw unreadable((error as Error).message);
  } finally {
    db.close();
  }
}

async function readZippedShapefile(bytes: Uint8Array): Promise<SourceTable> {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  const names = Object.keys(files).filter((name) => !name.startsWith('__MACOSX/'));
  const shp = names.find((name) => /\.shp$/i.test(name));
  if (!shp) throw new UnreadableFile(t.unknownFormat);
  const base = shp.slice(0, -4);
  const sibling = (ext: string) => {
    const name = names.find((n) => n.toLowerCase() === `${base}.${ext}`.toLowerCase());
    return name ? files[name] : undefined;
  };
  const prj = sibling('prj');
  const cpg = sibling('cpg');
  const declared = prj ? new TextDecoder().decode(prj) : undefined;
  const crs = declared === undefined ? undefined : crsFromWkt(declared);
  const encoding = cpg ? new TextDecoder().decode(cpg).trim() || 'utf-8' : 'utf-8';
  let collection;
  try {
    collection = await readShapefile(files[shp]!, sibling('dbf'), { encoding: /^(utf-?8|65001)$/i.test(encoding) ? 'utf-8' : encoding });
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  const prjName = declared === undefined ? undefined : (crs?.name ?? /\["([^"]*)"/.exec(declared)?.[1] ?? declared.slice(0, 60));
  const rows = collection.features.map((feature) => row({ ...(feature.properties ?? {}) }, feature.geometry ?? null, crs, prjName));
  if (rows.length === 0) throw new UnreadableFile(t.emptyFile);
  return { columns: columnsOf(rows), rows, ...(crs ? { crs: crs.name } : {}) };
}
