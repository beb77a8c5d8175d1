/**
 * Work that can wait for the page to be idle: what the next start or a later screen needs, never
 * what the user is waiting for. Where the browser has no `requestIdleCallback` (jsdom, old
 * WebKit) the task runs after a plain timeout instead.
 */

/** Runs `task` when the page is next idle, at the latest after `timeoutMs`; returns its cancel. */
export function whenIdle(task: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(task, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 0);
  return () => clearTimeout(timer);
}
