// @mapbox/mapbox-gl-draw ships no types; this declares the part lib/map uses.
declare module '@mapbox/mapbox-gl-draw' {
  import type { Feature, FeatureCollection, Geometry } from 'geojson';

  interface DrawOptions {
    displayControlsDefault?: boolean;
    controls?: Record<string, boolean>;
    defaultMode?: string;
    userProperties?: boolean;
    styles?: object[];
    touchBuffer?: number;
    clickBuffer?: number;
    /** The modes by name (Draw's own, `MapboxDraw.modes`, with any replaced). */
    modes?: Record<string, Record<string, unknown>>;
  }

  export default class MapboxDraw {
    constructor(options?: DrawOptions);
    static constants: { classes: Record<string, string>; sources: { COLD: string; HOT: string } };
    /** Draw's modes by name: objects of event handlers (onMouseDown, onClick, clickNoTarget, …). */
    static modes: Record<string, Record<string, unknown>>;
    add(geojson: Feature | FeatureCollection | Geometry): string[];
    getAll(): FeatureCollection;
    /** The selected vertices (direct_select), as points. */
    getSelectedPoints(): FeatureCollection;
    deleteAll(): this;
    changeMode(mode: string, options?: object): this;
    getMode(): string;
    trash(): this;
    onAdd(map: unknown): HTMLElement;
    onRemove(map: unknown): void;
  }
}
