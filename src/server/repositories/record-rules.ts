/**
 * Business rules of record writes beyond column types and access, per table, called by the
 * writers (write-steps.ts writeInsert/writeUpdate: single, bulk and `full` writes alike) after the policy and
 * type checks, inside the request's transaction:
 *
 * - durations (seasons): filter_start ≤ filter_end, and no overlap with another live (not
 *   deleted, not archived) season — "the current season" (today within the dates) must be one;
 *   the review deadlines: review_until not before submit_until, appeal_days a whole number of
 *   days up to a year (docs/architecture.md, The review loop);
 * - farmers: e-mail (case-insensitive) and KMG-MID unique among the project's farmers that are not
 *   deleted (an archived farmer still owns them: a re-import finds and updates it); a new e-mail
 *   gets a pending sign-in account when accounts are ours (ctx.farmerAccounts);
 * - areas (meadows): a polygon boundary (Polygon or MultiPolygon) that does not cross itself and
 *   has an area; `area_ha` is computed from it (turf, geodesic) and overrides what the client sent.
 *
 * A refusal is a 400 whose detail is the Slovenian text (src/common/i18n/sl.ts): the outbox shows
 * it to the editor as it is, and 409 stays reserved for version conflicts (which offer "take theirs").
 * Uniqueness and overlap look at rows a bulk call still buffers too (the writes are flushed first).
 * Updates check only what they change, so an unrelated edit never fails on older data.
 */
import area from '@turf/area';
import kinks from '@turf/kinks';
import type { Geometry, MultiPolygon, Polygon } from 'geojson';
import { sql } from 'kysely';
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import type { Properties } from '../../common/schemas/wire';
import { invalid } from '../domain-errors';
import type { RepoContext } from './context';
import type { TableInfo } from '../project-schema';
import { parseProperties } from './record-mapper';

const t = slSeasonServer.rules;
/** Square metres per hectare; area_ha keeps four decimals (1 m²). */
const M2_PER_HA = 10_000;
/** Below one square metre (area_ha's last decimal) a boundary encloses nothing. */
const MIN_AREA_M2 = 1;
/** Loose on purpose: the sign-in account needs something@domain; the mail server decides the rest. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface RuleInput {
  /** The row's properties as they will be stored (mutable: computed columns are set here). */
  props: Properties;
  /** Keys of `props` this write sets (insert: all of them). */
  changed: ReadonlySet<string>;
  /** The new geometry when this write sets one (undefined: unchanged). */
  geometry: Geometry | null | undefined;
  /** The row being updated (excluded from uniqueness and overlap). */
  id?: number;
  /** Writes what a bulk call still buffers, before a look-up that must see it. */
  flush: () => Promise<void>;
}

/** Each table's rules (tables not named here have none). */
const RULES: Readonly<Record<string, (ctx: RepoContext, table: TableInfo, input: RuleInput) => Promise<void> | void>> = {
  durations: checkSeason,
  farmers: checkFarmer,
  areas: (_ctx, table, input) => checkMeadow(table, input),
};

/** Whether writes of the table have rules here (most rows, indicators above all, have none: nothing to build the input for). */
export function hasRecordRules(table: TableInfo): boolean {
  return Object.hasOwn(RULES, table.key);
}

export async function applyRecordRules(ctx: RepoContext, table: TableInfo, input: RuleInput): Promise<void> {
  if (hasRecordRules(table)) await RULES[table.key]!(ctx, table, input);
}

const columnKey = (table: TableInfo, name: string): string | undefined => {
  const column = table.columnsByName.get(name);
  return column ? String(column.id) : undefined;
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** The calendar day of an ISO date or date-time (seasons are whole days). */
const day = (value: unknown): string | undefined => text(value)?.slice(0, 10);

/** Other rows of the table that are not deleted (optionally not archived either), with their properties. */
async function otherRows(ctx: RepoContext, table: TableInfo, input: RuleInput, where?: { key: string; value: string; lower?: boolean }, live = false) {
  await input.flush();
  let query = ctx.db
    .selectFrom('records')
    .select(['records.id', 'records.properties'])
    .where('records.project_id', '=', ctx.schema.id)
    .where('records.table_id', '=', table.id)
    .where('records.deleted', '=', 0);
  if (live) query = query.where('records.archived', '=', 0);
  if (input.id !== undefined) query = query.where('records.id', '<>', input.id);
  if (where) {
    const prop = ctx.dialect.propAsText(Number(where.key));
    query = where.lower
      ? query.where(sql<boolean>`${ctx.dialect.lower(prop)} = ${where.value.toLowerCase()}`)
      : query.where(sql<boolean>`${prop} = ${where.value}`);
  }
  const rows = await query.orderBy('records.id').execute();
  return rows.map((row) => ({ id: row.id, props: parseProperties(row.properties) }));
}

/** The longest appeal period a season may set (a year). */
const MAX_APPEAL_DAYS = 365;

function checkSeasonDeadlines(table: TableInfo, input: RuleInput): void {
  const submitKey = columnKey(table, 'submit_until');
  const reviewKey = columnKey(table, 'review_until');
  const appealKey = columnKey(table, 'appeal_days');
  if (appealKey && input.changed.has(appealKey)) {
    const days = input.props[appealKey];
    if (days !== null && days !== undefined && !(typeof days === 'number' && Number.isInteger(days) && days >= 0 && days <= MAX_APPEAL_DAYS)) {
      throw invalid(fillText(t.seasonAppealDays, { max: MAX_APPEAL_DAYS, value: String(days) }));
    }
  }
  if (!submitKey || !reviewKey || (!input.changed.has(submitKey) && !input.changed.has(reviewKey))) return;
  const submit = day(input.props[submitKey]);
  const review = day(input.props[reviewKey]);
  if (submit && review && review < submit) throw invalid(fillText(t.seasonReviewBeforeSubmit, { submit, review }));
}

async function checkSeason(ctx: RepoContext, table: TableInfo, input: RuleInput): Promise<void> {
  checkSeasonDeadlines(table, input);
  const startKey = columnKey(table, 'filter_start');
  const endKey = columnKey(table, 'filter_end');
  if (!startKey || !endKey) return;
  if (!input.changed.has(startKey) && !input.changed.has(endKey)) return;
  const start = day(input.props[startKey]);
  const end = day(input.props[endKey]);
  if (start && end && start > end) throw invalid(fillText(t.seasonDatesOrder, { start, end }));
  // An open end reaches forever, an open start back to the beginning.
  const from = start ?? '0000-00-00';
  const to = end ?? '9999-99-99';
  const nameKey = columnKey(table, 'name');
  for (const other of await otherRows(ctx, table, input, undefined, true)) {
    const otherFrom = day(other.props[startKey]) ?? '0000-00-00';
    const otherTo = day(other.props[endKey]) ?? '9999-99-99';
    if (from <= otherTo && otherFrom <= to) {
      throw invalid(
        fillText(t.seasonOverlap, {
          name: (nameKey && text(other.props[nameKey])) || String(other.id),
          start: day(other.props[startKey]) ?? '…',
          end: day(other.props[endKey]) ?? '…',
        }),
      );
    }
  }
}

async function checkFarmer(ctx: RepoContext, table: TableInfo, input: RuleInput): Promise<void> {
  const nameKey = columnKey(table, 'name');
  const nameOf = (props: Properties, id: number) => (nameKey && text(props[nameKey])) || String(id);
  const emailKey = columnKey(table, 'email');
  if (emailKey && input.changed.has(emailKey)) {
    const email = text(input.props[emailKey]);
    if (email !== undefined) {
      if (!EMAIL.test(email)) throw invalid(fillText(t.farmerEmailInvalid, { email }));
      const [taken] = await otherRows(ctx, table, input, { key: emailKey, value: email, lower: true });
      if (taken) throw invalid(fillText(t.farmerEmailTaken, { email, name: nameOf(taken.props, taken.id) }));
      await ctx.farmerAccounts?.(ctx.db, email, (nameKey && text(input.props[nameKey])) || email);
    }
  }
  const kmgKey = columnKey(table, 'kmg_mid');
  if (kmgKey && input.changed.has(kmgKey)) {
    const kmgMid = text(input.props[kmgKey]);
    if (kmgMid !== undefined) {
      const [taken] = await otherRows(ctx, table, input, { key: kmgKey, value: kmgMid });
      if (taken) throw invalid(fillText(t.farmerKmgMidTaken, { kmgMid, name: nameOf(taken.props, taken.id) }));
    }
  }
}

/**
 * A meadow boundary: Polygon or MultiPolygon that does not cross itself and encloses an area.
 * Answers the area in hectares. Ring structure (closed, ≥ 4 positions, coordinates in range) is
 * geometry.ts's normalizeGeometry, which runs before.
 */
export function meadowAreaHa(geometry: Geometry): number {
  if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') throw invalid(fillText(t.meadowNotPolygon, { type: geometry.type }));
  const crossing = kinks(geometry as Polygon | MultiPolygon).features[0];
  if (crossing) {
    const [lon, lat] = crossing.geometry.coordinates as [number, number];
    throw invalid(fillText(t.meadowSelfIntersects, { lon: lon.toFixed(6), lat: lat.toFixed(6) }));
  }
  const m2 = area(geometry);
  // A flat ring (all points on one line) comes out as a rounding error, not as 0.
  if (!(m2 >= MIN_AREA_M2)) throw invalid(t.meadowNoArea);
  return Math.round((m2 / M2_PER_HA) * 10_000) / 10_000;
}

function checkMeadow(table: TableInfo, input: RuleInput): void {
  if (!input.geometry) return;
  const hectares = meadowAreaHa(input.geometry);
  const areaKey = columnKey(table, 'area_ha');
  if (areaKey) input.props[areaKey] = hectares;
}
