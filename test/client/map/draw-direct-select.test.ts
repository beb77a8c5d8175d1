/**
 * Correcting a line with Draw: the tap that picks a vertex must not also drop the correction when
 * Draw's second look-up, as the finger lifts, finds nothing under it (the vertices were just drawn
 * again in MapLibre's worker; on a busy phone they are not back yet). Draw's own direct_select
 * handlers run here, with the mode's context (what Draw's ModeInterface gives them) noted.
 */
import { describe, expect, it } from '@jest/globals';
import MapboxDraw from '@mapbox/mapbox-gl-draw';
import { directSelectKeepingTheTap } from '../../../src/client/lib/map/draw-direct-select';

type Handler = (this: unknown, state: Record<string, unknown>, event: object) => unknown;

/** The mode as Draw runs it: its handlers on a context that notes mode changes and selections. */
function runMode() {
  const mode = directSelectKeepingTheTap(MapboxDraw.modes.direct_select!);
  const changes: string[] = [];
  const context = {
    ...mode,
    changeMode: (name: string) => void changes.push(name),
    startDragging: () => undefined,
    stopDragging: () => undefined,
    pathsToCoordinates: (featureId: string, paths: string[]) => paths.map((coord_path) => ({ feature_id: featureId, coord_path })),
    setSelectedCoordinates: () => undefined,
    fireUpdate: () => undefined,
  };
  const state: Record<string, unknown> = { featureId: 'line', selectedCoordPaths: [], dragMoving: false };
  const call = (name: string, event: object) => (mode[name] as Handler).call(context, state, event);
  return { call, changes, state };
}

const vertex = { featureTarget: { properties: { meta: 'vertex', coord_path: '4', parent: 'line' } } };
const nothing = {};

describe('correcting a line with Draw', () => {
  it('keeps the line and the vertex selected when the lift finds nothing under the tap that picked the vertex', () => {
    const { call, changes, state } = runMode();
    call('onMouseDown', vertex);
    expect(state.selectedCoordPaths).toEqual(['4']);
    call('onMouseUp', nothing);
    call('onClick', nothing);
    expect(changes).toEqual([]);
    expect(state.selectedCoordPaths).toEqual(['4']);
  });

  it('does the same for a finger', () => {
    const { call, changes } = runMode();
    call('onTouchStart', vertex);
    call('onTouchEnd', nothing);
    call('onTap', nothing);
    expect(changes).toEqual([]);
  });

  it('still leaves the correction for a tap beside the line, as Draw does', () => {
    const { call, changes } = runMode();
    call('onMouseDown', vertex);
    call('onClick', vertex);
    call('onMouseDown', nothing);
    call('onMouseUp', nothing);
    call('onClick', nothing);
    expect(changes).toEqual(['simple_select']);
  });
});
