import { beforeEach, describe, expect, it } from '@jest/globals';
import { loadBaseStyle, rasterStyle } from '../../../src/client/lib/map/base-style';
import { OWN_BASEMAP, ownBaseMapStyle } from '../../../src/common/basemap';

const offline = (async () => {
  throw new TypeError('Failed to fetch');
}) as unknown as typeof fetch;
const serving = (body: unknown) => (async () => ({ ok: true, status: 200, json: async () => body })) as unknown as typeof fetch;

beforeEach(() => localStorage.clear());

describe('base styles', () => {
  it('falls back to the locally built own style offline, with tiles through the offline protocol', async () => {
    const style = await loadBaseStyle(OWN_BASEMAP, offline);
    expect(style.layers).toEqual(ownBaseMapStyle().layers);
    const source = style.sources.basemap as { tiles: string[] };
    expect(source.tiles).toEqual(['mtoffline://http://localhost/basemap/tiles/{z}/{x}/{y}.pbf']);
  });

  it('remembers a configured style and uses it offline; without a copy it fails honestly', async () => {
    const remote = { id: 'ortho', name: 'Ortofoto', style: 'https://maps.example/style.json' };
    const body = {
      version: 8,
      sources: { o: { type: 'raster', tiles: ['https://maps.example/{z}/{x}/{y}.jpg'] } },
      layers: [{ id: 'o', type: 'raster', source: 'o' }],
    };
    await expect(loadBaseStyle(remote, offline)).rejects.toThrow('Failed to fetch');
    await loadBaseStyle(remote, serving(body));
    const again = await loadBaseStyle(remote, offline);
    expect((again.sources.o as { tiles: string[] }).tiles).toEqual(['mtoffline://https://maps.example/{z}/{x}/{y}.jpg']);
  });

  it('turns a raster template into a raster style', () => {
    const style = rasterStyle({ id: 'dof', name: 'DOF', tiles: ['https://x/{z}/{x}/{y}.jpg'], maxZoom: 19, attribution: 'GURS' });
    expect(style.sources.raster).toMatchObject({ type: 'raster', tileSize: 256, maxzoom: 19, attribution: 'GURS' });
  });
});
