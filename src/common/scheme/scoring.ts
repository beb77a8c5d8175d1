/**
 * The score of a form (docs/architecture.md, Data model): 0–100 from the form kind's scoring rule, classified by
 * score.ts and explained indicator by indicator. The client shows it live while the farmer fills
 * the form and the server recomputes it on save, so this module is pure and deterministic: no
 * clock, no locale, no randomness, the same numbers on every machine.
 *
 * Values come from indicators rows (`key`, `value`), so they arrive as JSON of any shape: every
 * value is normalised against its definition first. An invalid value never throws here; it counts
 * as not given for the score and validateForm reports it in Slovenian.
 */
import { formatDay } from '../format';
import { sl } from '../i18n/sl';
import type { FormKind, IndicatorDefinition, ScoringRule } from '../schemas/config';
import { classifyScore, type ScoreClass } from '../score';

type IndicatorValue = boolean | number | string;
/** Indicator values of one form keyed by indicator key, as they come from storage or the UI. */
export type FormValues = Record<string, unknown>;

const SCORE_MIN = 0;
const SCORE_MAX = 100;
/** Longest free text an indicator note may hold. */
const TEXT_VALUE_MAX_LENGTH = 2000;
/** Upper bound of a count when its definition sets none. */
const COUNT_VALUE_MAX = 1_000_000;

interface ScoreExplanationItem {
  key: string;
  /** Slovenian name of the indicator. */
  name: string;
  /** Points this indicator added (positive) or took away (negative), after its own bounds. */
  points: number;
  /** Slovenian: why, e.g. 'zabeleženo na poti', '3 × 5 točk, omejeno na 15 točk'. */
  reason: string;
}

export interface ScoreResult {
  /** Integer 0..100. */
  score: number;
  class: ScoreClass;
  ruleVersion: string;
  base: number;
  /** Base plus all points before rounding and clamping (shows when 0 or 100 was a limit). */
  total: number;
  /** Indicators that raised the score (most first), then those that lowered it (most first). */
  explanation: ScoreExplanationItem[];
}

export interface ValidationError {
  key: string;
  message: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: ValidationError[];
}

type Normalised = { ok: true; value: IndicatorValue | undefined } | { ok: false };

const MISSING: Normalised = { ok: true, value: undefined };

const definitionsByKey = new WeakMap<FormKind, Map<string, IndicatorDefinition>>();

/** A form kind's indicator definition by key (a form is scored from tens of rows, the server scores thousands of forms). */
function definitionOf(kind: FormKind, key: string): IndicatorDefinition | undefined {
  let byKey = definitionsByKey.get(kind);
  if (!byKey) {
    byKey = new Map();
    // The first definition of a key wins, as a search from the start of the list would find.
    for (const definition of kind.indicators) if (!byKey.has(definition.key)) byKey.set(definition.key, definition);
    definitionsByKey.set(kind, byKey);
  }
  return byKey.get(key);
}
const INVALID: Normalised = { ok: false };

function isBlank(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

function toNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  return undefined;
}

/** A real calendar date written as YYYY-MM-DD. */
function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The value as its definition expects it: presence → boolean, count → integer ≥ 0, percent →
 * 0..100, choice → one of the choice values, date → 'YYYY-MM-DD', text → string. Blank → undefined.
 */
export function normalizeValue(definition: IndicatorDefinition, raw: unknown): Normalised {
  if (isBlank(raw)) return MISSING;
  switch (definition.valueKind) {
    case 'presence':
      if (raw === true || raw === 'true' || raw === 1 || raw === '1') return { ok: true, value: true };
      if (raw === false || raw === 'false' || raw === 0 || raw === '0') return { ok: true, value: false };
      return INVALID;
    case 'count': {
      const n = toNumber(raw);
      const max = definition.max ?? COUNT_VALUE_MAX;
      return n !== undefined && Number.isInteger(n) && n >= 0 && n <= max ? { ok: true, value: n } : INVALID;
    }
    case 'percent': {
      const n = toNumber(raw);
      return n !== undefined && n >= 0 && n <= 100 ? { ok: true, value: n } : INVALID;
    }
    case 'choice':
      return typeof raw === 'string' && (definition.choices ?? []).some((c) => c.value === raw) ? { ok: true, value: raw } : INVALID;
    case 'date':
      return typeof raw === 'string' && isIsoDate(raw) ? { ok: true, value: raw } : INVALID;
    case 'text':
      return typeof raw === 'string' && raw.length <= TEXT_VALUE_MAX_LENGTH ? { ok: true, value: raw } : INVALID;
    default:
      return INVALID;
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase('sl') + text.slice(1);
}

/** 'MM-DD' → '15. 6.' */
function formatMonthDay(value: string): string {
  const [month, day] = value.split('-').map(Number);
  return `${day}. ${month}.`;
}

/** Rounds away floating-point noise (0.1 + 0.2) so explanations and totals are exact decimals. */
function tidy(n: number): number {
  return Math.round(n * 100) / 100 + 0;
}

type Contribution = ScoringRule['contributions'][number];

function bounded(points: number, contribution: Contribution): { points: number; capped: boolean } {
  let result = points;
  if (contribution.max !== undefined && result > contribution.max) result = contribution.max;
  if (contribution.min !== undefined && result < contribution.min) result = contribution.min;
  return { points: tidy(result), capped: result !== points };
}

function contributionOf(definition: IndicatorDefinition, contribution: Contribution, value: IndicatorValue): { points: number; reason: string } {
  const r = sl.scheme.reason;
  const pts = sl.scheme.points;
  let raw = 0;
  let reason = '';
  switch (definition.valueKind) {
    case 'presence':
      raw = value === true ? (contribution.points ?? 0) : 0;
      reason = r.present;
      break;
    case 'count':
    case 'percent': {
      const each = contribution.points ?? 0;
      raw = (value as number) * each;
      reason = definition.valueKind === 'count' ? r.count(value as number, pts(each)) : r.percent(value as number, pts(each));
      break;
    }
    case 'choice': {
      raw = contribution.perChoice?.[value as string] ?? 0;
      const label = definition.choices?.find((c) => c.value === value)?.label ?? String(value);
      reason = r.choice(label);
      break;
    }
    case 'date': {
      if (contribution.dateFrom === undefined) break;
      // 'YYYY-MM-DD'.slice(5) is 'MM-DD'; zero-padded strings compare like the dates they name.
      const onOrAfter = (value as string).slice(5) >= contribution.dateFrom;
      raw = onOrAfter ? (contribution.points ?? 0) : (contribution.pointsBefore ?? 0);
      const date = formatDay(value as string);
      const from = formatMonthDay(contribution.dateFrom);
      reason = onOrAfter ? r.dateFrom(date, from) : r.dateBefore(date, from);
      break;
    }
    case 'text':
      break;
  }
  const { points, capped } = bounded(raw, contribution);
  return { points, reason: capped ? reason + r.capped(pts(points)) : reason };
}

/**
 * The score of a form of this kind with these indicator values. Missing and invalid values count
 * as not observed. The result is clamped to 0..100 and rounded half up to an integer.
 */
export function computeScore(kind: FormKind, values: FormValues): ScoreResult {
  const rule = kind.scoring;
  let total = rule.base;
  const items: Array<ScoreExplanationItem & { order: number }> = [];
  rule.contributions.forEach((contribution, order) => {
    const definition = definitionOf(kind, contribution.key);
    if (!definition) return;
    const normalised = normalizeValue(definition, values[contribution.key]);
    if (!normalised.ok || normalised.value === undefined) return;
    const { points, reason } = contributionOf(definition, contribution, normalised.value);
    if (points === 0) return;
    total += points;
    items.push({ key: definition.key, name: definition.name, points, reason, order });
  });
  total = tidy(total);
  const score = Math.min(SCORE_MAX, Math.max(SCORE_MIN, Math.round(total))) + 0;
  // Raised first, then lowered; within each the largest effect first; ties in rule order.
  items.sort((a, b) => {
    const sideA = a.points > 0 ? 0 : 1;
    const sideB = b.points > 0 ? 0 : 1;
    if (sideA !== sideB) return sideA - sideB;
    if (Math.abs(a.points) !== Math.abs(b.points)) return Math.abs(b.points) - Math.abs(a.points);
    return a.order - b.order;
  });
  return {
    score,
    class: classifyScore(score),
    ruleVersion: rule.version,
    base: rule.base,
    total,
    explanation: items.map(({ key, name, points, reason }) => ({ key, name, points, reason })),
  };
}

function invalidMessage(definition: IndicatorDefinition): string {
  const v = sl.scheme.validation;
  const name = capitalise(definition.name);
  switch (definition.valueKind) {
    case 'presence':
      return v.presence(name);
    case 'count':
      return v.count(name, definition.max ?? COUNT_VALUE_MAX);
    case 'percent':
      return v.percent(name);
    case 'choice':
      return v.choice(name);
    case 'date':
      return v.date(name);
    case 'text':
      return v.text(name, TEXT_VALUE_MAX_LENGTH);
    default:
      return v.unknownKey(definition.key);
  }
}

/**
 * Checks the values of a form: every required indicator has a value, every value fits its
 * definition, and no value names an indicator the form kind does not have. Errors are in the
 * order of the form's indicators, unknown keys last.
 */
export function validateForm(kind: FormKind, values: FormValues): ValidationResult {
  const errors: ValidationError[] = [];
  for (const definition of kind.indicators) {
    const normalised = normalizeValue(definition, values[definition.key]);
    if (!normalised.ok) errors.push({ key: definition.key, message: invalidMessage(definition) });
    else if (normalised.value === undefined && definition.required) {
      errors.push({ key: definition.key, message: sl.scheme.validation.required(definition.name) });
    }
  }
  for (const key of Object.keys(values)) {
    if (!kind.indicators.some((d) => d.key === key)) errors.push({ key, message: sl.scheme.validation.unknownKey(key) });
  }
  return { valid: errors.length === 0, errors };
}

/** An indicators row as far as the score needs it. */
export interface IndicatorRowValue {
  key: string;
  value: unknown;
  deleted?: boolean;
  archived?: boolean;
}

/**
 * Form values from the indicators rows of one form. A form may hold several rows with the same
 * key (e.g. orchids recorded at two spots, each with its location and photo): counts add up,
 * presence is true if any row says so, a percent takes the largest estimate, and other kinds take
 * the last valid row (callers pass rows oldest first). Deleted and archived rows are left out,
 * and so are invalid values, unless no valid value exists (then validation reports it).
 */
export function valuesFromIndicators(kind: FormKind, rows: IndicatorRowValue[]): FormValues {
  const values: FormValues = {};
  for (const row of rows) {
    if (row.deleted || row.archived) continue;
    const definition = definitionOf(kind, row.key);
    if (!definition) {
      values[row.key] = row.value;
      continue;
    }
    const normalised = normalizeValue(definition, row.value);
    if (!normalised.ok) {
      if (!(row.key in values)) values[row.key] = row.value;
      continue;
    }
    if (normalised.value === undefined) continue;
    const next = normalised.value;
    const current = normalizeValue(definition, values[row.key]);
    const previous = current.ok ? current.value : undefined;
    if (previous === undefined) values[row.key] = next;
    else if (definition.valueKind === 'count') {
      values[row.key] = Math.min((previous as number) + (next as number), definition.max ?? COUNT_VALUE_MAX);
    } else if (definition.valueKind === 'presence') values[row.key] = previous === true || next === true;
    else if (definition.valueKind === 'percent') values[row.key] = Math.max(previous as number, next as number);
    else values[row.key] = next;
  }
  return values;
}
