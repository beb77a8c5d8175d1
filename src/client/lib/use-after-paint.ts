/**
 * What React's `useDeferredValue` is meant to do, for the runtime the farmers get: on Preact
 * (scripts/react-on-preact.mjs) it returns its value as it is, and `startTransition` runs its
 * update at once, so a render they were meant to put after a tap's frame would run inside it
 * (the lint rules refuse both; a later slice of work goes through lib/idle.ts `afterNextPaint`).
 */
import { useLayoutEffect, useState } from 'react';
import { afterNextPaint } from './idle';

/**
 * `value` as it was at the last paint: a new value comes back in a render of its own once the
 * frame that showed the change has painted. What reads it (a score, a summary) then stays out of
 * the frame that answers a tap. Taps faster than frames are taken together.
 */
export function useValueAfterPaint<T>(value: T): T {
  const [painted, setPainted] = useState(value);
  // Scheduled before the paint (a layout effect), so the render follows the very next frame.
  useLayoutEffect(() => {
    if (Object.is(painted, value)) return undefined;
    return afterNextPaint(() => setPainted(() => value));
  }, [painted, value]);
  return painted;
}
