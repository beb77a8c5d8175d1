/**
 * GeoJSON validation of every GeoJSON geometry type with clear messages, bbox computation
 * and the exact intersection test behind the bbox prefilter.
 */
import { describe, expect, it } from '@jest/globals';
import { bboxOf, intersects, normalizeGeometry } from '../../src/server/repositories/geometry';

const square = [
  [
    [16.1, 46.8],
    [16.2, 46.8],
    [16.2, 46.9],
    [16.1, 46.9],
    [16.1, 46.8],
  ],
];

describe('normalizeGeometry accepts every GeoJSON geometry type', () => {
  const valid: Array<[string, unknown]> = [
    ['Point', { type: 'Point', coordinates: [16.15, 46.83] }],
    ['Point with elevation', { type: 'Point', coordinates: [16.15, 46.83, 250] }],
    [
      'MultiPoint',
      {
        type: 'MultiPoint',
        coordinates: [
          [16.15, 46.83],
          [16.16, 46.84],
        ],
      },
    ],
    [
      'LineString',
      {
        type: 'LineString',
        coordinates: [
          [16.15, 46.83],
          [16.16, 46.84],
        ],
      },
    ],
    [
      'MultiLineString',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [16.15, 46.83],
            [16.16, 46.84],
          ],
          [
            [16.1, 46.8],
            [16.2, 46.9],
          ],
        ],
      },
    ],
    ['Polygon', { type: 'Polygon', coordinates: square }],
    ['MultiPolygon', { type: 'MultiPolygon', coordinates: [square, square] }],
    [
      'GeometryCollection',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [16, 46] },
          { type: 'Polygon', coordinates: square },
        ],
      },
    ],
  ];
  it.each(valid)('%s', (_name, geometry) => {
    expect(normalizeGeometry(geometry)).toEqual(geometry);
  });

  it('unwraps a Feature and a FeatureCollection', () => {
    expect(normalizeGeometry({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [16, 46] } })).toEqual({
      type: 'Point',
      coordinates: [16, 46],
    });
    expect(normalizeGeometry({ type: 'Feature', properties: {}, geometry: null })).toBeNull();
    expect(
      normalizeGeometry({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [16, 46] } },
          {
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'LineString',
              coordinates: [
                [16, 46],
                [16.1, 46.1],
              ],
            },
          },
        ],
      }),
    ).toEqual({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [16, 46] },
        {
          type: 'LineString',
          coordinates: [
            [16, 46],
            [16.1, 46.1],
          ],
        },
      ],
    });
    expect(normalizeGeometry(undefined)).toBeUndefined();
    expect(normalizeGeometry(null)).toBeNull();
  });
});

describe('normalizeGeometry rejects invalid GeoJSON with a 400 naming the position', () => {
  const invalid: Array<[string, unknown, RegExp]> = [
    ['unknown type', { type: 'Circle', coordinates: [16, 46] }, /unknown geometry type "Circle"/],
    ['not an object', 'POINT(16 46)', /must be a GeoJSON object/],
    ['longitude out of range', { type: 'Point', coordinates: [200, 46] }, /longitude 200 out of range/],
    ['latitude out of range', { type: 'Point', coordinates: [16, -95] }, /latitude -95 out of range/],
    ['a string coordinate', { type: 'Point', coordinates: ['16', 46] }, /coordinates\[0\]: must be a finite number/],
    ['NaN as text', { type: 'Point', coordinates: [16, 'NaN'] }, /must be a finite number/],
    ['one-number position', { type: 'Point', coordinates: [16] }, /2 to 4 numbers/],
    ['one-point line', { type: 'LineString', coordinates: [[16, 46]] }, /at least 2 positions/],
    [
      'unclosed ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [16, 46],
            [17, 46],
            [17, 47],
            [16, 47],
          ],
        ],
      },
      /coordinates\[0\]: ring is not closed/,
    ],
    [
      'ring of three positions',
      {
        type: 'Polygon',
        coordinates: [
          [
            [16, 46],
            [17, 46],
            [16, 46],
          ],
        ],
      },
      /at least 4 positions/,
    ],
    ['empty polygon', { type: 'Polygon', coordinates: [] }, /at least one ring/],
    [
      'bad member of a multipolygon',
      {
        type: 'MultiPolygon',
        coordinates: [
          square,
          [
            [
              [16, 46],
              [17, 46],
              [17, 47],
              [16, 47],
            ],
          ],
        ],
      },
      /coordinates\[1\]\[0\]: ring is not closed/,
    ],
    ['empty collection', { type: 'GeometryCollection', geometries: [] }, /non-empty array/],
    [
      'bad collection member',
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [16, 91] }] },
      /geometries\[0\]\.coordinates: latitude 91/,
    ],
    ['feature inside a collection', { type: 'GeometryCollection', geometries: [{ type: 'Feature', geometry: null }] }, /not allowed inside a geometry/],
    ['collection without geometry', { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: {} }] }, /has no geometry/],
    ['missing coordinates', { type: 'LineString' }, /must be an array/],
  ];
  it.each(invalid)('%s', (_name, geometry, message) => {
    expect(() => normalizeGeometry(geometry)).toThrow(message);
    try {
      normalizeGeometry(geometry);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'invalid' });
    }
  });
});

describe('bbox and intersection', () => {
  it('computes the bounding box of nested geometries', () => {
    expect(
      bboxOf({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [15, 45] },
          { type: 'Polygon', coordinates: square },
        ],
      }),
    ).toEqual([15, 45, 16.2, 46.9]);
  });

  it('tests exact intersection beyond the bbox', () => {
    // An L-shaped line whose bbox covers the point but which does not touch it.
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [0, 0],
        [10, 0],
        [10, 10],
      ],
    };
    expect(intersects(line, { type: 'Point', coordinates: [2, 8] })).toBe(false);
    expect(intersects(line, { type: 'Point', coordinates: [10, 5] })).toBe(true);
    expect(
      intersects(
        { type: 'GeometryCollection', geometries: [line] },
        {
          type: 'Polygon',
          coordinates: [
            [
              [9, 4],
              [11, 4],
              [11, 6],
              [9, 6],
              [9, 4],
            ],
          ],
        },
      ),
    ).toBe(true);
  });
});
