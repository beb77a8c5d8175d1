/**
 * The drawing tool keeps a correction under way when the screen gets the same geometry again: a
 * season refresh (the device's copy, then the server's; a first visit's season from the answers,
 * then from the device) brings every row as a new object, and restarting the drawing then threw
 * away the vertices the user had moved or deleted. A geometry that did change restarts it.
 */
import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { LineString } from 'geojson';
import { slSetup } from '../../../src/common/i18n/sl';
import { GeometryEditor } from '../../../src/client/features/map/components/geometry-editor';
import type { MapEngine } from '../../../src/client/lib/map/map-engine';
import { Provider } from 'react-redux';
import { makeStore } from '../../../src/client/app/store';
import { openTestDb } from '../data-layer/helpers';

/** The drawing side of a map engine, noting what the editor asks of it; `select(n)` selects n vertices as a tap would. */
function recordingEngine() {
  const calls: string[] = [];
  let selectedVertices = 0;
  const selectionListeners = new Set<() => void>();
  const drawing = {
    editLine: (line: LineString) => void calls.push(`edit ${line.coordinates.length}`),
    startLine: () => void calls.push('start'),
    stopDrawing: () => void calls.push('stop'),
    drawnGeometry: () => null,
    whenDrawReady: () => Promise.resolve(),
    onDrawChange: () => () => undefined,
    deleteSelectedVertices: () => void calls.push('delete'),
    selectedVertexCount: () => selectedVertices,
    onSelectionChange: (listener: () => void) => {
      selectionListeners.add(listener);
      return () => void selectionListeners.delete(listener);
    },
  };
  const select = (count: number) => {
    selectedVertices = count;
    for (const listener of selectionListeners) listener();
  };
  return { calls, select, engine: { drawing } as unknown as MapEngine };
}

const line = (points: number): LineString => ({ type: 'LineString', coordinates: Array.from({ length: points }, (_, i) => [16 + i / 1000, 46.8]) });

describe('the drawing tool', () => {
  it('goes on drawing when the same geometry comes again as a new object, and restarts for a changed one', () => {
    const store = makeStore(undefined, { extra: { db: openTestDb() } });
    const { calls, engine } = recordingEngine();
    const editor = (initial: LineString) => (
      <Provider store={store}>
        <GeometryEditor engine={engine} mode="line" initial={initial} />
      </Provider>
    );
    const view = render(editor(line(5)));
    expect(calls).toEqual(['edit 5']);

    view.rerender(editor(line(5)));
    expect(calls).toEqual(['edit 5']);

    view.rerender(editor(line(4)));
    expect(calls).toEqual(['edit 5', 'stop', 'edit 4']);
    view.unmount();
  });

  it('offers to delete a vertex only while one is selected (a tap on the button with none selected did nothing)', () => {
    const store = makeStore(undefined, { extra: { db: openTestDb() } });
    const { calls, select, engine } = recordingEngine();
    render(
      <Provider store={store}>
        <GeometryEditor engine={engine} mode="line" initial={line(5)} />
      </Provider>,
    );
    const button = screen.getByRole('button', { name: slSetup.paths.deleteVertex }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);

    act(() => select(1));
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(calls).toContain('delete');

    act(() => select(0));
    expect(button.disabled).toBe(true);
  });
});
