/**
 * Douglas–Peucker line simplification in metres. The walk recorder calls it with a tolerance tied
 * to the GPS accuracy of the walk (see toleranceForAccuracy): vertices that deviate less than the
 * fixes' own uncertainty carry no information, so dropping them loses nothing real.
 *
 * Implementation: iterative (an explicit stack, so a 100k-point walk cannot overflow the call
 * stack), on a local metric projection, with squared distances (no sqrt in the inner loop).
 */
import { localProjector, type LonLat } from './geo';

/** Squared distance from p to segment ab (planar). */
function segmentDistanceSq(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let dx = bx - ax;
  let dy = by - ay;
  let x = ax;
  let y = ay;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = px - x;
  dy = py - y;
  return dx * dx + dy * dy;
}

/** Simplify a lon/lat polyline; keeps the first and last point; tolerance in metres. */
export function simplifyLine(points: readonly LonLat[], toleranceM: number): LonLat[] {
  const n = points.length;
  if (n <= 2 || !(toleranceM > 0)) return points.slice();
  const project = localProjector(points[0]![1]);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const [x, y] = project(points[i]!);
    xs[i] = x;
    ys[i] = y;
  }
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const tolSq = toleranceM * toleranceM;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    let maxSq = tolSq;
    let index = -1;
    for (let i = first + 1; i < last; i += 1) {
      const d = segmentDistanceSq(xs[i]!, ys[i]!, xs[first]!, ys[first]!, xs[last]!, ys[last]!);
      if (d > maxSq) {
        maxSq = d;
        index = i;
      }
    }
    if (index !== -1) {
      keep[index] = 1;
      if (index - first > 1) stack.push(first, index);
      if (last - index > 1) stack.push(index, last);
    }
  }
  const out: LonLat[] = [];
  for (let i = 0; i < n; i += 1) if (keep[i]) out.push(points[i]!);
  return out;
}

/**
 * Tolerance (m) for a walk whose accepted fixes had this median accuracy: half the accuracy,
 * clamped to 1..10 m, so a good walk keeps its bends and a poor one sheds its jitter.
 */
export function toleranceForAccuracy(medianAccuracyM: number): number {
  if (!Number.isFinite(medianAccuracyM) || medianAccuracyM <= 0) return 1;
  return Math.min(10, Math.max(1, medianAccuracyM / 2));
}
