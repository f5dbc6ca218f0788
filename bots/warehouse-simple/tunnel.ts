/**
 * The baseline's way into a block: dig a straight tunnel. From the nearest corridor, the tiles above the
 * destination D = P(k) file out one by one and park on the corridor, X (the tile on D) comes out, the
 * carried tile FD goes down the tunnel onto D, and the parked tiles file back in, last out first in.
 * Corridor cells Q(t) = P(0) − inward + t·along; FD waits on Q(−1), the tunnel tiles park on Q(2..k+1),
 * X steps aside onto Q(1) while FD passes, then moves to Q(−1) (free by then) so the parked tiles can return.
 * Moves: 2k(k+2) + 2k + 6 — below the thesis work area's 12(k+1) for 1 ≤ k ≤ 3, above it from k = 4 on.
 * A missing FD or X (a hole) is a tile that never moves: Floor.step skips it, the rest stays legal.
 */
import type { Floor } from '../shared/warehouse/floor.ts';

/** Where to dig: edge cell, inward/along index steps, depth, and FD's waiting cell (= X's exit). */
export interface Tunnel {
  readonly p0: number;
  readonly inward: number;
  readonly along: number;
  readonly k: number;
  readonly wait: number;
}

/** The tunnel from the nearest block side, with a parking direction that stays on the board. */
export function tunnelTo(d: number, n: number, m: number): Tunnel {
  const r = (d / n) | 0, c = d % n;
  const lr = (r % (m + 1)) - 1, lc = (c % (m + 1)) - 1;
  const sides: [number, number, number, number, number][] = [
    [r - lr, c, 1, 0, lr],
    [r + (m - 1 - lr), c, -1, 0, m - 1 - lr],
    [r, c - lc, 0, 1, lc],
    [r, c + (m - 1 - lc), 0, -1, m - 1 - lc],
  ];
  sides.sort((x, y) => x[4] - y[4]);
  for (const [er, ec, dr, dc, k] of sides) {
    for (const s of [1, -1]) {
      const ar = dc === 0 ? 0 : s, ac = dc === 0 ? s : 0;
      const qr = er - dr, qc = ec - dc;
      const lo = [qr - ar, qc - ac], hi = [qr + (k + 1) * ar, qc + (k + 1) * ac];
      if ([...lo, ...hi].some((x) => x < 0 || x >= n)) continue;
      const p0 = er * n + ec, inward = dr * n + dc, along = ar * n + ac;
      return { p0, inward, along, k, wait: p0 - inward - along };
    }
  }
  throw new Error(`no tunnel reaches cell ${d}`);
}

/** Walks whatever stands on `from` cell by cell by `step` for `count` steps; returns the end cell. */
function walk(floor: Floor, from: number, step: number, count: number): number {
  let cur = from;
  for (let i = 0; i < count; i++, cur += step) floor.step(cur, cur + step);
  return cur;
}

/** FD (on t.wait, if any) onto D; X (on D, if any) onto t.wait; every other tile back where it was. */
export function tunnelSwap(floor: Floor, t: Tunnel): void {
  const { p0, inward, along, k } = t;
  const q0 = p0 - inward;
  for (let i = 0; i < k; i++) {
    walk(floor, p0 + i * inward, -inward, i + 1); // up the tunnel and out onto Q0
    walk(floor, q0, along, k + 1 - i); // park on Q(k+1−i)
  }
  walk(floor, p0 + k * inward, -inward, k + 1); // X out onto Q0
  floor.step(q0, q0 + along); // X aside onto Q1
  floor.step(t.wait, q0); // FD in
  walk(floor, q0, inward, k + 1);
  walk(floor, q0 + along, -along, 2); // X onto Q(−1)
  for (let i = k - 1; i >= 0; i--) {
    walk(floor, q0 + (k + 1 - i) * along, -along, k + 1 - i); // back to Q0
    walk(floor, q0, inward, i + 1); // down the tunnel to P(i)
  }
}
