/**
 * Mapbox GL Draw's `direct_select` (correcting a line's or outline's vertices), with one change: the
 * tap that picks a vertex (or a midpoint, or the line itself) does not also drop the correction.
 *
 * Draw selects a vertex when the finger (or button) goes down, re-renders the line's vertices with
 * the new selection, and looks the tapped feature up again when it lifts, to tell a tap on the line
 * from one beside it. MapLibre tiles those re-rendered vertices in a worker: on a busy phone the
 * second look-up can find nothing yet, and Draw then took the tap for one beside the line and left
 * the line unselected (seen in browser tests under load: the vertex selected on mousedown, the line
 * deselected on the mouseup 100 ms later). A press that started on the line's feature is not a
 * press beside it, whatever the look-up on lifting finds.
 */

/** What Draw passes a mode's handlers: the feature under the pointer, when there is one. */
interface DrawEvent {
  featureTarget?: unknown;
}

type DrawState = Record<string, unknown> & { pressedOnFeature?: boolean };
type Handler = (this: unknown, state: DrawState, event: DrawEvent) => unknown;

/** A Draw mode: its handlers by name (onMouseDown, clickNoTarget, …). */
export type DrawMode = Record<string, unknown>;

export function directSelectKeepingTheTap(base: DrawMode): DrawMode {
  const handler = (name: string) => base[name] as Handler;
  const pressing = (name: 'onMouseDown' | 'onTouchStart'): Handler =>
    function (state, event) {
      state.pressedOnFeature = event.featureTarget !== undefined;
      return handler(name).call(this, state, event);
    };
  return {
    ...base,
    onMouseDown: pressing('onMouseDown'),
    onTouchStart: pressing('onTouchStart'),
    clickNoTarget(this: unknown, state: DrawState, event: DrawEvent) {
      if (state.pressedOnFeature) return undefined;
      return handler('clickNoTarget').call(this, state, event);
    },
  };
}
