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
  }

  export default class MapboxDraw {
    constructor(options?: DrawOptions);
    static constants: { classes: Record<string, string>; sources: { COLD: string; HOT: string } };
    add(geojson: Feature | FeatureCollection | Geometry): string[];
    getAll(): FeatureCollection;
    deleteAll(): this;
    changeMode(mode: string, options?: object): this;
    getMode(): string;
    trash(): this;
    onAdd(map: unknown): HTMLElement;
    onRemove(map: unknown): void;
  }
}
