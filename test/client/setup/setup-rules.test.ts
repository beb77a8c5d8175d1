/**
 * The set-up checks on their own: how far a transect strays from its meadow (including a straight
 * segment that cuts across a concave meadow's notch with both ends inside), meadow outlines, and
 * season windows touching at a day.
 */
import { describe, expect, it } from '@jest/globals';
import type { Polygon } from 'geojson';
import { appealDaysOf, areaHa, meadowDoubt, metresOutside, pathDoubt, polygonProblem, seasonProblem } from '../../../src/client/features/setup/setup-rules';
import { formatNumber } from '../../../src/common/format';
import { PATH_OUTSIDE_AREA_MARGIN_M } from '../../../src/common/constants';
import { slSetup } from '../../../src/common/i18n/sl';

// A "U": 0.002° wide, 0.002° tall, with a notch 0.001° wide from the top down to half height.
const u: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [14.5, 46.05],
      [14.502, 46.05],
      [14.502, 46.052],
      [14.5015, 46.052],
      [14.5015, 46.051],
      [14.5005, 46.051],
      [14.5005, 46.052],
      [14.5, 46.052],
      [14.5, 46.05],
    ],
  ],
};

describe('metresOutside', () => {
  it('is 0 for a line inside, and sees a segment crossing the notch although both its ends are inside', () => {
    expect(
      metresOutside(
        {
          type: 'LineString',
          coordinates: [
            [14.5002, 46.0505],
            [14.5018, 46.0505],
          ],
        },
        u,
      ),
    ).toBe(0);
    // Across the notch, 0.0005° above its floor: its middle is half the notch's width from the
    // nearest side (0.0005° of longitude at 46° N ≈ 39 m; the floor is 0.0005° of latitude ≈ 56 m).
    const across = metresOutside(
      {
        type: 'LineString',
        coordinates: [
          [14.5002, 46.0515],
          [14.5018, 46.0515],
        ],
      },
      u,
    );
    expect(across).toBeGreaterThan(35);
    expect(across).toBeLessThan(45);
  });
});

/** A square of `side` degrees of latitude and longitude at 46° N. */
const square = (side: number): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [14.5, 46],
      [14.5 + side, 46],
      [14.5 + side, 46 + side],
      [14.5, 46 + side],
      [14.5, 46],
    ],
  ],
});

describe('meadowDoubt and pathDoubt: saved only after asking', () => {
  it('a meadow of thousands of hectares (four taps at the wrong zoom) or of a few square metres; a real one is no doubt', () => {
    const huge = square(0.06);
    expect(areaHa(huge)).toBeGreaterThan(2000);
    expect(meadowDoubt(huge)).toBe(slSetup.areas.tooLarge(formatNumber(areaHa(huge)), '50'));
    // Slovenian numbers: a dot between thousands, a decimal comma.
    expect(meadowDoubt(huge)).toMatch(/Travnik meri \d\.\d{3},\d{1,2} ha/);
    const tiny = square(0.0001);
    expect(meadowDoubt(tiny)).toBe(slSetup.areas.tooSmall(formatNumber(areaHa(tiny)), '0,05'));
    expect(areaHa(u)).toBeGreaterThan(1);
    expect(meadowDoubt(u)).toBeNull();
  });

  it('a path outside its meadow, or longer than the way round it; a line across it is no doubt', () => {
    expect(
      pathDoubt(
        {
          type: 'LineString',
          coordinates: [
            [14.5002, 46.0505],
            [14.5018, 46.0505],
          ],
        },
        u,
      ),
    ).toBeNull();
    const outside = pathDoubt(
      {
        type: 'LineString',
        coordinates: [
          [14.5002, 46.0515],
          [14.5018, 46.0515],
        ],
      },
      u,
    );
    expect(outside).toMatch(new RegExp(`zunaj travnika \\(dovoljeno je ${PATH_OUTSIDE_AREA_MARGIN_M} m\\)`));
    // Zig-zagging inside the bottom of the U, back and forth ten times.
    const zigzag = Array.from({ length: 21 }, (_, i) => [i % 2 === 0 ? 14.5002 : 14.5018, 46.0502 + i * 0.00003]);
    const long = pathDoubt({ type: 'LineString', coordinates: zigzag }, u)!;
    expect(long).toMatch(/^Pot je dolga \d\.\d{3} m, obod travnika pa meri le \d{3} m\./);
    expect(pathDoubt({ type: 'LineString', coordinates: zigzag }, null)).toBeNull();
  });
});

describe('formatNumber', () => {
  it('writes Slovenian numbers: decimal comma, dot between thousands, no trailing zeros', () => {
    expect([formatNumber(2347.86), formatNumber(7.5), formatNumber(1234567), formatNumber(0.05), formatNumber(3.14159, 3)]).toEqual([
      '2.347,86',
      '7,5',
      '1.234.567',
      '0,05',
      '3,142',
    ]);
  });
});

describe('polygonProblem', () => {
  it('refuses nothing drawn, fewer than three corners and a crossing outline; accepts the U', () => {
    expect(polygonProblem(null)).toBe(slSetup.areas.noPolygon);
    expect(
      polygonProblem({
        type: 'Polygon',
        coordinates: [
          [
            [14.5, 46.05],
            [14.501, 46.05],
            [14.5, 46.05],
            [14.5, 46.05],
          ],
        ],
      }),
    ).toBe(slSetup.areas.tooFew);
    expect(
      polygonProblem({
        type: 'Polygon',
        coordinates: [
          [
            [14.5, 46.05],
            [14.502, 46.052],
            [14.502, 46.05],
            [14.5, 46.052],
            [14.5, 46.05],
          ],
        ],
      }),
    ).toBe(slSetup.areas.selfIntersecting);
    expect(polygonProblem(u)).toBeNull();
  });
});

const NO_DEADLINES = { submitUntil: '', reviewUntil: '', appealDays: '' };

describe('seasonProblem', () => {
  const season = (name: string, start: string, end: string, archived = false) => ({
    id: Math.random(),
    name,
    filter_start: start,
    filter_end: end,
    archived,
    deleted: false,
  });

  it('windows sharing a day overlap; the day after does not; archived seasons do not count', () => {
    const seasons = [season('2026', '2026-01-01', '2026-12-31'), season('Stara', '2027-01-01', '2027-12-31', true)];
    expect(seasonProblem({ ...NO_DEADLINES, name: 'X', start: '2026-12-31', end: '2027-06-30' }, seasons)).toBe(slSetup.seasons.overlap('2026'));
    expect(seasonProblem({ ...NO_DEADLINES, name: 'X', start: '2027-01-01', end: '2027-06-30' }, seasons)).toBeNull();
  });

  it('the review deadline is not before the submission deadline; the appeal period is a whole number of days up to a year, or empty', () => {
    const draft = { ...NO_DEADLINES, name: 'X', start: '2028-01-01', end: '2028-12-31' };
    expect(seasonProblem({ ...draft, submitUntil: '2028-10-31', reviewUntil: '2028-10-30' }, [])).toBe(slSetup.seasons.reviewBeforeSubmit);
    expect(seasonProblem({ ...draft, submitUntil: '2028-10-31', reviewUntil: '2028-10-31' }, [])).toBeNull();
    for (const bad of ['-1', '2.5', '15 dni', '366']) expect(seasonProblem({ ...draft, appealDays: bad }, [])).toBe(slSetup.seasons.appealDaysInvalid);
    expect(seasonProblem({ ...draft, appealDays: ' 15 ' }, [])).toBeNull();
    expect([appealDaysOf(''), appealDaysOf('0'), appealDaysOf('365')]).toEqual([null, 0, 365]);
  });
});
