/**
 * The informative payment preview of a form ("Informativni izračun plačila"): the band its score
 * falls in, the amount (the meadow's hectares × the band's rate) and what is still needed for the
 * next band (src/common/scheme/payment.ts). Clearly an estimate, never a decision.
 */
import { formatNumber } from '../../../common/format';
import { slReview, slReviewFarmer } from '../../../common/i18n/sl';
import type { FormKind } from '../../../common/schemas/config';
import { paymentPreview } from '../../../common/scheme/payment';
import type { FormValues } from '../../../common/scheme/scoring';
import { InfoIcon } from '../../components/icons/icons';

const euros = new Intl.NumberFormat('sl-SI', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1234.5 → '1.234,50' (Slovenian). */
export function formatEuros(amount: number): string {
  return euros.format(amount);
}

export interface PaymentCardProps {
  kind: FormKind;
  values: FormValues;
  /** The meadow's area (areas.area_ha), null when unknown. */
  areaHa: number | null;
}

/** Null when the kind is not paid by result. */
export function PaymentCard({ kind, values, areaHa }: PaymentCardProps) {
  const preview = paymentPreview(kind, values, areaHa);
  if (!preview) return null;
  const p = slReview.payment;
  const t = slReviewFarmer.payment;
  const known = areaHa !== null && areaHa > 0;
  return (
    <section className="card payment-card" aria-labelledby="payment-title" data-testid="payment-card">
      <h2 id="payment-title">{p.title}</h2>
      <p className="payment-card__estimate">
        <InfoIcon size={18} aria-hidden="true" /> {t.estimate}
      </p>
      <p data-testid="payment-band">{p.band(preview.band.name)}</p>
      <p className="payment-card__amount" data-testid="payment-amount">
        {known ? p.amount(formatEuros(preview.amountEur), formatNumber(preview.areaHa), formatEuros(preview.band.eurPerHa)) : t.noArea}
      </p>
      <p data-testid="payment-next">
        {preview.next === null
          ? p.top
          : preview.next.plants !== null
            ? p.plantsToNext(preview.next.plants, preview.next.band.name)
            : p.pointsToNext(preview.next.points, preview.next.band.name)}
      </p>
      <p className="muted small">{p.note}</p>
    </section>
  );
}
