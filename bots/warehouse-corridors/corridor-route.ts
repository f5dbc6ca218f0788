/**
 * Shortest routes along the empty corridors. Between swap-ins the carried tile is the only tile outside the
 * blocks, so every corridor cell is free and a route is at most three straight runs (H, V, H or V, H, V),
 * computed in O(1) instead of a BFS over n² cells.
 */
import type { Floor } from '../shared/warehouse/floor.ts';

/** Corridor line nearest to `x` at or below it, and the next one above (clamped to the board). */
function lines(x: number, m: number, n: number): [number, number] {
  const lo = x - (x % (m + 1));
  return [lo, Math.min(lo + m + 1, n - 1)];
}

/**
 * The turning points of a shortest corridor route from cell `a` to cell `b` (both corridor cells), as a list
 * of cells starting with `a` and ending with `b`; consecutive points share a row or a column.
 */
export function routePoints(a: number, b: number, n: number, m: number): number[] {
  const r1 = (a / n) | 0, c1 = a % n, r2 = (b / n) | 0, c2 = b % n;
  const h1 = r1 % (m + 1) === 0, v1 = c1 % (m + 1) === 0, h2 = r2 % (m + 1) === 0, v2 = c2 % (m + 1) === 0;
  let best: number[] = [];
  let bestCost = Infinity;
  const consider = (cost: number, pts: number[]): void => {
    if (cost < bestCost) {
      bestCost = cost;
      best = pts;
    }
  };
  if (h1 && r1 === r2) consider(Math.abs(c1 - c2), [a, b]);
  if (v1 && c1 === c2) consider(Math.abs(r1 - r2), [a, b]);
  if (h1 && v2) consider(Math.abs(c1 - c2) + Math.abs(r1 - r2), [a, r1 * n + c2, b]);
  if (v1 && h2) consider(Math.abs(c1 - c2) + Math.abs(r1 - r2), [a, r2 * n + c1, b]);
  if (h1 && h2) {
    for (const v of [...lines(c1, m, n), ...lines(c2, m, n)]) {
      consider(Math.abs(c1 - v) + Math.abs(r1 - r2) + Math.abs(v - c2), [a, r1 * n + v, r2 * n + v, b]);
    }
  }
  if (v1 && v2) {
    for (const h of [...lines(r1, m, n), ...lines(r2, m, n)]) {
      consider(Math.abs(r1 - h) + Math.abs(c1 - c2) + Math.abs(h - r2), [a, h * n + c1, h * n + c2, b]);
    }
  }
  if (best.length === 0) throw new Error(`route: ${a} or ${b} is not a corridor cell`);
  return best;
}

/** Length in moves of the route {@link routePoints} would take. */
export function routeLength(a: number, b: number, n: number, m: number): number {
  const pts = routePoints(a, b, n, m);
  let len = 0;
  for (let i = 1; i < pts.length; i++) {
    len += Math.abs(((pts[i] / n) | 0) - ((pts[i - 1] / n) | 0)) + Math.abs((pts[i] % n) - (pts[i - 1] % n));
  }
  return len;
}

/** Walks the tile standing on `a` to `b` along the corridors. */
export function carry(floor: Floor, a: number, b: number, m: number): void {
  const n = floor.n;
  const pts = routePoints(a, b, n, m);
  let cur = a;
  for (let i = 1; i < pts.length; i++) {
    const target = pts[i];
    const step = (target / n | 0) === (cur / n | 0) ? Math.sign(target - cur) : Math.sign(target - cur) * n;
    while (cur !== target) {
      floor.step(cur, cur + step);
      cur += step;
    }
  }
}
