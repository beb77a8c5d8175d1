/** The loading state: 'Nalagam...', announced politely to screen readers. */
import { sl } from '../../../common/i18n/sl';

export function Loading({ text = sl.common.loading, inline = false }: { text?: string; inline?: boolean }) {
  return (
    <div className={inline ? 'loading loading--inline' : 'loading'} role="status" aria-live="polite">
      <span className="loading__spinner" aria-hidden="true" />
      <span className="loading__text">{text}</span>
    </div>
  );
}
