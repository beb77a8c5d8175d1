import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../src/client/app/store';
import { LocalLayersPanel } from '../../../src/client/features/map/components/local-layers-panel';
import { listLocalLayers } from '../../../src/client/features/map/local-layers/local-layers-store';
import { LayerParseError, MAX_LAYER_FILE_BYTES, parseLayerFile } from '../../../src/client/features/map/local-layers/parse-layer';
import { openOfflineDb, type OfflineDb } from '../../../src/client/lib/db';
import { slLocalLayers } from '../../../src/common/i18n/sl';

const t = slLocalLayers.localLayers;

const GPX = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Druga aplikacija" xmlns="http://www.topografix.com/GPX/1/1">
  <wpt lat="46.8010" lon="16.2010"><name>Izvir</name></wpt>
  <trk><name>Lanska pot</name>
    <trkseg><trkpt lat="46.8000" lon="16.2000"/><trkpt lat="46.8005" lon="16.2010"/><trkpt lat="46.8010" lon="16.2020"/></trkseg>
    <trkseg><trkpt lat="46.8020" lon="16.2030"/><trkpt lat="46.8025" lon="16.2040"/></trkseg>
  </trk>
</gpx>`;

const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Placemark><name>Parcela 123</name><Polygon><outerBoundaryIs><LinearRing><coordinates>
    16.20,46.80,0 16.21,46.80,0 16.21,46.81,0 16.20,46.81,0 16.20,46.80,0
  </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
  <Placemark><name>Točka</name><Point><coordinates>16.205,46.805</coordinates></Point></Placemark>
</Document></kml>`;

describe('parseLayerFile', () => {
  it('reads GPX tracks (segments kept apart), routes and waypoints', () => {
    const fc = parseLayerFile('pot.gpx', GPX);
    expect(fc.features.map((f) => f.geometry.type)).toEqual(['MultiLineString', 'Point']);
    expect(fc.features[0]!.properties).toEqual({ name: 'Lanska pot' });
    expect(fc.features[1]!.geometry).toEqual({ type: 'Point', coordinates: [16.201, 46.801] });
  });

  it('reads KML polygons and points', () => {
    const fc = parseLayerFile('meje.kml', KML);
    expect(fc.features.map((f) => [f.properties?.name, f.geometry.type])).toEqual([
      ['Parcela 123', 'Polygon'],
      ['Točka', 'Point'],
    ]);
  });

  it('reads GeoJSON collections, single features and bare geometries', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [16.2, 46.8],
        [16.3, 46.9],
      ],
    };
    expect(
      parseLayerFile('a.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { a: 1 }, geometry: line }] }))
        .features,
    ).toHaveLength(1);
    expect(parseLayerFile('b.json', JSON.stringify({ type: 'Feature', properties: null, geometry: line })).features[0]!.properties).toEqual({});
    expect(parseLayerFile('c', JSON.stringify(line)).features[0]!.geometry).toEqual(line);
  });

  it('rejects bad files with a Slovenian message', () => {
    const error = (name: string, text: string, size?: number) => {
      try {
        parseLayerFile(name, text, size);
      } catch (e) {
        expect(e).toBeInstanceOf(LayerParseError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(error('x.geojson', '{ not json')).toBe(t.errorUnreadable);
    expect(error('x.gpx', '<gpx><trk>')).toBe(t.errorUnreadable);
    expect(error('x.txt', 'hello')).toBe(t.errorUnreadable);
    expect(error('x.geojson', JSON.stringify({ type: 'Polygon', coordinates: 5 }))).toBe(t.errorUnreadable);
    expect(error('x.geojson', JSON.stringify({ type: 'FeatureCollection', features: [] }))).toBe(t.errorEmpty);
    // Projected metres (e.g. Slovenian D96/TM) instead of degrees.
    expect(error('x.geojson', JSON.stringify({ type: 'Point', coordinates: [550000, 150000] }))).toBe(t.errorCoordinates);
    expect(error('x.kml', '<kml><Placemark><Point><coordinates>abc,def</coordinates></Point></Placemark></kml>')).toBe(t.errorCoordinates);
    expect(error('x.gpx', GPX, MAX_LAYER_FILE_BYTES + 1)).toBe(t.errorTooLarge.replace('{max}', '10 MB'));
  });
});

const dbs: OfflineDb[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) {
    db.close();
    await db.delete();
  }
});

describe('LocalLayersPanel', () => {
  it('adds a GPX file as a layer on the device and refuses a bad file without storing anything', async () => {
    const db = openOfflineDb({ name: `layers-${Date.now()}` });
    dbs.push(db);
    render(
      <Provider store={makeStore(undefined, { extra: { db } })}>
        <LocalLayersPanel />
      </Provider>,
    );
    expect(screen.getByText(t.empty)).toBeTruthy();
    const input = screen.getByLabelText(t.fileLabel);
    fireEvent.change(input, { target: { files: [new File(['{ broken'], 'slabo.geojson', { type: 'application/geo+json' })] } });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(t.errorUnreadable));
    expect(await listLocalLayers(db)).toHaveLength(0);

    fireEvent.input(screen.getByLabelText(t.name), { target: { value: 'Lanski sprehod' } });
    fireEvent.change(input, { target: { files: [new File([GPX], 'pot.gpx', { type: 'application/gpx+xml' })] } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(t.added.replace('{count}', '2')));
    const [layer] = await listLocalLayers(db);
    expect(layer).toMatchObject({ name: 'Lanski sprehod', color: 'red', visible: true });
    await waitFor(() => expect(screen.getByTestId(`local-layer-${layer!.id}`).textContent).toContain('Lanski sprehod'));

    fireEvent.click(screen.getByRole('checkbox'));
    await waitFor(async () => expect((await listLocalLayers(db))[0]!.visible).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: t.delete }));
    await waitFor(() => expect(screen.getByText(t.empty)).toBeTruthy());
    expect(await listLocalLayers(db)).toHaveLength(0);
  });
});
