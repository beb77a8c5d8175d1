/**
 * The checks the set-up screens make before an edit goes to the outbox. The server makes the
 * same refusals (overlapping seasons, duplicate e-mail / KMG-MID, invalid geometry); checking here
 * too means an editor working offline hears about a mistake at once, not when the outbox is sent
 * hours later. Pure functions over rows and geometries, so they are tested without a screen.
 */
import area from '@turf/area';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import kinks from '@turf/kinks';
import pointToLineDistance from '@turf/point-to-line-distance';
import polygonToLine from '@turf/polygon-to-line';
import type { Feature, FeatureCollection, Geometry, LineString, MultiLineString, MultiPolygon, Polygon, Position } from 'geojson';
import length from '@turf/length';
import { MEADOW_PLAUSIBLE_MAX_HA, MEADOW_PLAUSIBLE_MIN_HA, PATH_OUTSIDE_AREA_MARGIN_M } from '../../../common/constants';
import { formatNumber } from '../../../common/format';
import { slSetup } from '../../../common/i18n/sl';
import type { Duration, Farmer } from '../../lib/db/model';
import { distanceM, type LonLat } from '../../lib/map/geo';

const text = (value: unknown): string => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const day = (value: unknown): string => text(value).slice(0, 10);

export interface SeasonDraft {
  id?: number;
  name: string;
  start: string;
  end: string;
  /** The scheme's deadlines (docs/architecture.md, The review loop): dates, empty for none. */
  submitUntil: string;
  reviewUntil: string;
  /** Whole days after a decision for an appeal, as typed; empty for no limit. */
  appealDays: string;
}

/** The longest appeal period a season may set (a year). */
const MAX_APPEAL_DAYS = 365;

/** The typed appeal period as a number of days: null for none, NaN when it is not a whole number in range. */
export function appealDaysOf(typed: string): number | null {
  const trimmed = typed.trim();
  if (trimmed === '') return null;
  const days = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  return days <= MAX_APPEAL_DAYS ? days : Number.NaN;
}

type SeasonRow = Pick<Duration, 'id' | 'name' | 'filter_start' | 'filter_end' | 'archived' | 'deleted'>;

/** Whether `today` (YYYY-MM-DD) lies in the season's window: the app's rule for "current season". */
export function isCurrentSeason(row: SeasonRow, today: string): boolean {
  const from = day(row.filter_start);
  const to = day(row.filter_end);
  return from !== '' && to !== '' && from <= today && today <= to;
}

/** The Slovenian reason a season cannot be saved, or null. Archived seasons do not count. */
export function seasonProblem(draft: SeasonDraft, seasons: readonly SeasonRow[]): string | null {
  if (!draft.name.trim()) return slSetup.common.required(slSetup.seasons.name);
  if (!draft.start) return slSetup.common.required(slSetup.seasons.start);
  if (!draft.end) return slSetup.common.required(slSetup.seasons.end);
  if (draft.end < draft.start) return slSetup.seasons.badOrder;
  if (draft.submitUntil && draft.reviewUntil && draft.reviewUntil < draft.submitUntil) return slSetup.seasons.reviewBeforeSubmit;
  if (Number.isNaN(appealDaysOf(draft.appealDays))) return slSetup.seasons.appealDaysInvalid;
  for (const other of seasons) {
    if (other.id === draft.id || other.archived || other.deleted) continue;
    const from = day(other.filter_start);
    const to = day(other.filter_end);
    if (from && to && draft.start <= to && from <= draft.end) return slSetup.seasons.overlap(text(other.name));
  }
  return null;
}

export interface FarmerDraft {
  id?: number;
  name: string;
  email: string;
  phone: string;
  kmgMid: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const fold = (value: unknown) => text(value).trim().toLowerCase();

/** The Slovenian reason a farmer cannot be saved, or null (e-mail and KMG-MID unique per project). */
export function farmerProblem(draft: FarmerDraft, farmers: readonly Pick<Farmer, 'id' | 'email' | 'kmg_mid' | 'deleted'>[]): string | null {
  if (!draft.name.trim()) return slSetup.common.required(slSetup.farmers.name);
  if (!draft.email.trim()) return slSetup.common.required(slSetup.farmers.email);
  if (!EMAIL.test(draft.email.trim())) return slSetup.farmers.badEmail;
  const others = farmers.filter((f) => f.id !== draft.id && !f.deleted);
  if (others.some((f) => fold(f.email) === fold(draft.email))) return slSetup.farmers.duplicateEmail;
  const kmg = fold(draft.kmgMid);
  if (kmg && others.some((f) => fold(f.kmg_mid) === kmg)) return slSetup.farmers.duplicateKmg;
  return null;
}

/** A meadow outline's problem in Slovenian, or null when it can be saved. */
export function polygonProblem(geometry: Geometry | null): string | null {
  if (!geometry) return slSetup.areas.noPolygon;
  if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') return slSetup.areas.noPolygon;
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat();
  // A closed ring of three corners has four positions (the first repeated).
  if (rings.some((ring) => new Set(ring.map((p) => `${p[0]},${p[1]}`)).size < 3)) return slSetup.areas.tooFew;
  if (kinks(geometry).features.length > 0) return slSetup.areas.selfIntersecting;
  return null;
}

/**
 * Why a meadow outline that can be saved still looks wrong, in Slovenian, or null: an area outside
 * the scheme's meadows (MEADOW_PLAUSIBLE_MIN_HA..MAX_HA). The screen asks before saving it.
 */
export function meadowDoubt(outline: Polygon | MultiPolygon): string | null {
  const hectares = areaHa(outline);
  if (hectares > MEADOW_PLAUSIBLE_MAX_HA) return slSetup.areas.tooLarge(formatNumber(hectares), formatNumber(MEADOW_PLAUSIBLE_MAX_HA));
  if (hectares < MEADOW_PLAUSIBLE_MIN_HA) return slSetup.areas.tooSmall(formatNumber(hectares), formatNumber(MEADOW_PLAUSIBLE_MIN_HA));
  return null;
}

/**
 * Why a drawn transect looks wrong, in Slovenian, or null: it strays outside its meadow by more
 * than PATH_OUTSIDE_AREA_MARGIN_M, or it is longer than the meadow's perimeter (a line crossing a
 * meadow is shorter than the way round it: a longer one was drawn elsewhere or zig-zags).
 */
export function pathDoubt(line: LineString | MultiLineString, meadow: Polygon | MultiPolygon | null): string | null {
  if (!meadow) return null;
  const outside = metresOutside(line, meadow);
  if (outside > PATH_OUTSIDE_AREA_MARGIN_M) return slSetup.paths.outside(outside, PATH_OUTSIDE_AREA_MARGIN_M);
  const lengthM = length({ type: 'Feature', properties: {}, geometry: line }, { units: 'meters' });
  const perimeterM = length(polygonToLine(meadow) as Feature<LineString | MultiLineString> | FeatureCollection<LineString | MultiLineString>, {
    units: 'meters',
  });
  if (lengthM > perimeterM) return slSetup.paths.tooLong(formatNumber(Math.round(lengthM)), formatNumber(Math.round(perimeterM)));
  return null;
}

/** Area in hectares, rounded to two decimals (GERK areas are given that way). */
export function areaHa(geometry: Polygon | MultiPolygon): number {
  return Math.round(area(geometry) / 100) / 100;
}

/** Points along a line no further apart than `stepM`, so a segment cutting a meadow's corner is seen. */
function densify(line: readonly Position[], stepM: number): LonLat[] {
  const out: LonLat[] = [];
  for (let i = 0; i < line.length; i++) {
    const a = line[i]! as LonLat;
    out.push([a[0], a[1]]);
    const b = line[i + 1] as LonLat | undefined;
    if (!b) break;
    const steps = Math.ceil(distanceM(a, b) / stepM);
    for (let k = 1; k < steps; k++) out.push([a[0] + ((b[0] - a[0]) * k) / steps, a[1] + ((b[1] - a[1]) * k) / steps]);
  }
  return out;
}

/**
 * How far (metres, rounded up) a transect strays outside its meadow at its worst point; 0 when it
 * stays inside. Points are checked every metre along the line.
 */
export function metresOutside(line: LineString | MultiLineString, meadow: Polygon | MultiPolygon): number {
  const lines = line.type === 'LineString' ? [line.coordinates] : line.coordinates;
  const boundary = polygonToLine(meadow);
  const edges: Feature<LineString | MultiLineString>[] = boundary.type === 'FeatureCollection' ? boundary.features : [boundary];
  let worst = 0;
  for (const coordinates of lines) {
    for (const point of densify(coordinates, 1)) {
      if (booleanPointInPolygon(point, meadow)) continue;
      const nearest = Math.min(...edges.map((edge) => nearestEdgeM(point, edge)));
      worst = Math.max(worst, nearest);
    }
  }
  return Math.ceil(worst);
}

function nearestEdgeM(point: LonLat, edge: Feature<LineString | MultiLineString>): number {
  const parts = edge.geometry.type === 'LineString' ? [edge.geometry.coordinates] : edge.geometry.coordinates;
  return Math.min(...parts.map((coordinates) => pointToLineDistance(point, { type: 'LineString', coordinates }, { units: 'meters' })));
}
