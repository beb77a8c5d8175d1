import { formatNumber } from '../../../../common/format';

/** Display formats of the recorder (Slovenian decimal comma, via formatNumber; a distance: common/format's formatDistance). */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

export function formatPercent(share: number): string {
  return `${formatNumber(share * 100, 0)} %`;
}
