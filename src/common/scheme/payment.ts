/**
 * The informative payment preview of a meadow's form (docs/architecture.md, The review loop): the
 * band the score falls in, the band's rate × the meadow's hectares, and what the form still needs
 * to reach the next band — in indicator plants when ticking more of them gets there (counted by
 * rescoring with the most rewarding unticked plants first, so the number is the rule's own), else
 * in points. An estimate for the farmer and the adviser, never a decision: pure, no clock.
 */
import type { FormKind, PaymentBand } from '../schemas/config';
import { computeScore, normalizeValue, type FormValues } from './scoring';

export interface PaymentPreview {
  score: number;
  band: PaymentBand;
  areaHa: number;
  /** Rounded to whole cents. */
  amountEur: number;
  next: {
    band: PaymentBand;
    /** Score points still missing. */
    points: number;
    /** Indicator plants still to find to get there, or null when plants alone do not reach it. */
    plants: number | null;
  } | null;
}

/** The band of `score` among the kind's bands (lowest first). */
function paymentBandOf(bands: readonly PaymentBand[], score: number): PaymentBand | undefined {
  let found: PaymentBand | undefined;
  for (const band of bands) if (band.above === undefined || score > band.above) found = band;
  return found;
}

/** The preview for a form of `kind` with `values` on a meadow of `areaHa`; null when the kind is not paid by result. */
export function paymentPreview(kind: FormKind, values: FormValues, areaHa: number | null): PaymentPreview | null {
  const bands = kind.payment?.bands;
  if (!bands?.length) return null;
  const { score, total } = computeScore(kind, values);
  const band = paymentBandOf(bands, score)!;
  const hectares = areaHa !== null && Number.isFinite(areaHa) && areaHa > 0 ? areaHa : 0;
  const higher = bands.slice(bands.indexOf(band) + 1).find((candidate) => candidate.above !== undefined);
  // From the unclamped total: a meadow far below 0 needs more than the clamped score shows.
  const next = higher ? { band: higher, points: pointsToReach(total, higher.above!), plants: plantsToReach(kind, values, higher.above!) } : null;
  return { score, band, areaHa: hectares, amountEur: Math.round(band.eurPerHa * hectares * 100) / 100, next };
}

/** Whole points the total still needs for a score (the total rounded half up) above `above`. */
function pointsToReach(total: number, above: number): number {
  return Math.max(1, Math.ceil(above + 0.5 - total));
}

/** How many more plants (presence indicators with a Latin name) lift the score above `above`, or null. */
function plantsToReach(kind: FormKind, values: FormValues, above: number): number | null {
  const gains = kind.scoring.contributions
    .filter((contribution) => (contribution.points ?? 0) > 0)
    .map((contribution) => ({ contribution, definition: kind.indicators.find((d) => d.key === contribution.key) }))
    .filter(({ definition }) => definition?.valueKind === 'presence' && definition.latin !== undefined)
    .filter(({ definition }) => {
      const value = normalizeValue(definition!, values[definition!.key]);
      return !(value.ok && value.value === true);
    })
    .sort((a, b) => b.contribution.points! - a.contribution.points!);
  const trial: FormValues = { ...values };
  for (let count = 1; count <= gains.length; count++) {
    trial[gains[count - 1]!.contribution.key] = true;
    if (computeScore(kind, trial).score > above) return count;
  }
  return null;
}
