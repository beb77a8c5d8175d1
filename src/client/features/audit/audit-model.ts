/** Pure helpers of the audit screen: the editor's local days as the server's instants. */

/**
 * The window of days `from`..`to` ('YYYY-MM-DD', both included, on the device's calendar) as
 * ISO instants: from the start of `from` to the start of the day after `to`.
 */
export function dayWindow(from: string, to: string): { from?: string; to?: string } {
  const start = (day: string, plusDays = 0) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return new Date(y, m - 1, d + plusDays).toISOString();
  };
  return { ...(from ? { from: start(from) } : {}), ...(to ? { to: start(to, 1) } : {}) };
}
