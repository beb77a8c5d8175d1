/**
 * Work that can wait: for the page to be idle (what the next start or a later screen needs, never
 * what the user is waiting for), or for the next paint (what may follow the frame that answers a
 * tap). Where the browser has no `requestIdleCallback` or `requestAnimationFrame` (jsdom, old
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

/**
 * Runs `task` once the next frame has painted: a timeout set from that frame's animation callback,
 * which runs before the paint, fires after it. Returns its cancel.
 */
export function afterNextPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(task, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
