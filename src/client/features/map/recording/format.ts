/** Display formats of the recorder (Slovenian decimal comma). */
export function formatDistance(metres: number): string {
  if (!Number.isFinite(metres) || metres < 0) return '0 m';
  if (metres < 1000) return `${Math.round(metres)} m`;
  return `${(metres / 1000).toFixed(2).replace('.', ',')} km`;
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)} %`;
}
