/**
 * Numbers for reads made once (`readNo` in a query's argument, never sent): a new number is a new
 * RTK Query cache entry, so the request leaves now even while an identical one is in flight (RTK
 * Query hands a caller the in-flight answer otherwise, forceRefetch or not), and an endpoint gives
 * a numbered read no tag: a write's invalidation removes an unsubscribed entry, and RTK Query
 * answers a query from its entry, so a write answered while the read was in flight would leave
 * its caller with neither data nor an error.
 */
let reads = 0;

export function nextReadNo(): number {
  reads += 1;
  return reads;
}
