/**
 * Coordinate reference systems of imported meadows. Stored geometry is WGS84 longitude/latitude
 * (RFC 7946); GERK exports come in the Slovenian D96/TM (EPSG:3794). Known by code: EPSG:4326
 * (and OGC CRS84) and EPSG:3794; any other CRS given as WKT (a Shapefile's .prj, a GeoPackage's
 * definition) is used when proj4 understands it. A CRS we cannot read is a refusal per row
 * ("unknown CRS"), never a silent guess — except that a file naming no CRS is WGS84 when its
 * coordinates fit longitude/latitude, as RFC 7946 says.
 */
import type { Geometry, Position } from 'geojson';
import proj4 from 'proj4';

const WGS84 = 'EPSG:4326';
export const D96_TM = 'EPSG:3794';

proj4.defs(D96_TM, '+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9999 +x_0=500000 +y_0=-5000000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs +type=crs');

/** A CRS we can transform from: its name for the report and the transform to WGS84. */
export interface SourceCrs {
  name: string;
  toWgs84: ((p: Position) => Position) | null;
}

const identity: SourceCrs = { name: WGS84, toWgs84: null };

function byCode(code: number): SourceCrs | undefined {
  if (code === 4326) return identity;
  if (code === 3794) return { name: D96_TM, toWgs84: projector(D96_TM) };
  return undefined;
}

function projector(from: string): (p: Position) => Position {
  const converter = proj4(from, WGS84);
  return (p) => {
    const [x, y] = converter.forward([p[0]!, p[1]!]);
    return p.length > 2 ? [x!, y!, ...p.slice(2)] : [x!, y!];
  };
}

/**
 * A CRS named the GeoJSON way (`crs.properties.name`): `urn:ogc:def:crs:EPSG::3794`,
 * `EPSG:3794`, `http://www.opengis.net/def/crs/EPSG/0/3794`, `urn:ogc:def:crs:OGC:1.3:CRS84`.
 * Answers undefined when it is not one we know.
 */
export function crsFromName(name: string): SourceCrs | undefined {
  const text = name.trim();
  if (/crs84$/i.test(text)) return identity;
  const code = /(?:EPSG(?::{1,2}|\/0\/|\/))(\d+)$/i.exec(text);
  return code ? byCode(Number(code[1])) : undefined;
}

/** A CRS given as WKT (a .prj file, a GeoPackage definition), when proj4 can read it. */
export function crsFromWkt(wkt: string): SourceCrs | undefined {
  const text = wkt.trim();
  if (!text) return undefined;
  const named = /^(?:PROJCS|GEOGCS|PROJCRS|GEOGCRS)\["([^"]*)"/i.exec(text)?.[1] ?? 'WKT';
  // D96/TM under its various spellings: use our definition (the .prj's may lack the datum shift).
  if (/D96|Slovenia.?1996|Slovene.?National.?Grid/i.test(named)) return byCode(3794);
  if (/^GEOGCS\["(GCS_)?WGS.?(19)?84"/i.test(text) || /^GEOGCRS\["WGS 84"/i.test(text)) return identity;
  try {
    return { name: named, toWgs84: projector(text) };
  } catch {
    return undefined;
  }
}

/** A GeoPackage srs (organization + code, else its WKT definition). */
export function crsFromSrs(organization: string | null, code: number | null, definition: string | null): SourceCrs | undefined {
  if (organization && /^epsg$/i.test(organization) && code !== null) {
    const known = byCode(code);
    if (known) return known;
  }
  return definition && definition !== 'undefined' ? crsFromWkt(definition) : undefined;
}

/** RFC 7946: no CRS means WGS84 — believed only when every position is a longitude/latitude. */
export function undeclaredCrs(geometry: Geometry): SourceCrs | undefined {
  let fits = true;
  eachPosition(geometry, (p) => {
    if (!(Math.abs(p[0]!) <= 180 && Math.abs(p[1]!) <= 90)) fits = false;
  });
  return fits ? identity : undefined;
}

function eachPosition(g: Geometry, visit: (p: Position) => void): void {
  mapPositions(g, (p) => {
    visit(p);
    return p;
  });
}

/** The geometry with every position replaced (a new object; the input is not changed). */
function mapPositions(g: Geometry, f: (p: Position) => Position): Geometry {
  switch (g.type) {
    case 'Point':
      return { type: g.type, coordinates: f(g.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: g.type, coordinates: g.coordinates.map(f) } as Geometry;
    case 'MultiLineString':
    case 'Polygon':
      return { type: g.type, coordinates: g.coordinates.map((line) => line.map(f)) } as Geometry;
    case 'MultiPolygon':
      return { type: g.type, coordinates: g.coordinates.map((poly) => poly.map((line) => line.map(f))) };
    case 'GeometryCollection':
      return { type: g.type, geometries: g.geometries.map((member) => mapPositions(member, f)) };
  }
}

export function toWgs84(geometry: Geometry, crs: SourceCrs): Geometry {
  return crs.toWgs84 ? mapPositions(geometry, crs.toWgs84) : geometry;
}
