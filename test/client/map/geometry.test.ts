import { describe, expect, it } from '@jest/globals';
import { bboxAreaM2, distanceM, lineLengthM, type LonLat } from '../../../src/client/lib/map/geo';
import { simplifyLine, toleranceForAccuracy } from '../../../src/client/lib/map/simplify';

describe('geo', () => {
  it('measures great-circle distances in metres', () => {
    // One degree of latitude is ~111.2 km.
    expect(distanceM([16.2, 46], [16.2, 47])).toBeCloseTo(111_195, -2);
    expect(distanceM([16.2, 46.8], [16.2, 46.8])).toBe(0);
    expect(
      lineLengthM([
        [0, 0],
        [0, 1],
        [0, 2],
      ]),
    ).toBeCloseTo(2 * 111_195, -2);
    expect(lineLengthM([])).toBe(0);
  });

  it('measures a bbox area', () => {
    const a = bboxAreaM2(16.2, 46.8, 16.2 + 1 / 76_200, 46.8 + 1 / 111_200);
    expect(a).toBeGreaterThan(0.9);
    expect(a).toBeLessThan(1.1);
  });
});

describe('Douglas–Peucker simplification', () => {
  const M = 1 / 111_320;
  it('keeps end points and drops vertices within the tolerance', () => {
    const line: LonLat[] = Array.from({ length: 11 }, (_, i) => [i * 10 * M, (i % 2 ? 1 : 0) * M]);
    const out = simplifyLine(line, 2);
    expect(out).toEqual([line[0], line[10]]);
  });

  it('keeps a corner larger than the tolerance', () => {
    const line: LonLat[] = [
      [0, 0],
      [50 * M, 1 * M],
      [100 * M, 0],
      [100 * M, 50 * M],
      [101 * M, 100 * M],
    ];
    expect(simplifyLine(line, 3)).toEqual([line[0], line[2], line[4]]);
    // With a tolerance of 0 nothing is dropped; short lines come back unchanged.
    expect(simplifyLine(line, 0)).toEqual(line);
    expect(simplifyLine(line.slice(0, 2), 5)).toEqual(line.slice(0, 2));
  });

  it('handles a 100k-point walk without recursion limits', () => {
    const line: LonLat[] = Array.from({ length: 100_000 }, (_, i) => [16 + i * M * 0.5, 46 + Math.sin(i / 500) * 100 * M]);
    const out = simplifyLine(line, 1);
    expect(out.length).toBeGreaterThan(10);
    expect(out.length).toBeLessThan(line.length / 10);
    expect(out[0]).toBe(line[0]);
    expect(out[out.length - 1]).toBe(line[line.length - 1]);
  });

  it('ties the tolerance to accuracy, clamped to 1..10 m', () => {
    expect(toleranceForAccuracy(6)).toBe(3);
    expect(toleranceForAccuracy(0.5)).toBe(1);
    expect(toleranceForAccuracy(60)).toBe(10);
    expect(toleranceForAccuracy(NaN)).toBe(1);
  });
});
