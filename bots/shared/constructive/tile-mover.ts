/**
 * Carrying one target tile ("ficha destino") to a destination cell ("localidad destino") in the current
 * view, the thesis's sections 3.1–3.2, without disturbing locked (fixed) cells.
 *
 * 1. Bring the blank next to the tile, strongly or *weakly* (diagonally): the thesis starts working as soon
 *    as the blank touches a corner of the tile, which is what beats Parberry's strong-adjacency start.
 * 2. Repeatedly push the tile one cell closer. The blank travels around the tile on its 8-cell ring, CW or
 *    CCW, to the cell ahead of the tile, then steps into the tile. With the blank weakly adjacent this is the
 *    thesis's 2×2 table (the 2×2 area holding both is a 12-state cycle; walking the ring is walking that
 *    cycle); otherwise it is the CW/CCW hierarchy. Which of the (at most two) improving cells to push into
 *    is chosen by ring cost plus the open-board look-ahead of step-cost.ts, so the tile follows the cheap
 *    3-moves-per-step staircase, plus the weighted displacement of the tiles the ring walk drags (drag()). Thesis vagueness: its hierarchy fixes one direction per case (up → CCW,
 *    right → CCW, left → CW, down → CW) and its 20 special cases (figures lost) cover the cases where that
 *    direction runs into a fixed tile or the edge. Here the shorter *unblocked* ring direction is taken,
 *    the hierarchy only breaking ties; that covers the "CW"/"CCW" special cases 1–10 generically, and the
 *    fixed-list cases 11–20 are the stuck cases the caller hands to an exact local search (local-search.ts).
 */
import { Board, dirOf, DOWN, LEFT, RIGHT, UP } from './board.ts';
import { approachAlongBestPath } from './approach.ts';
import { shiftGain } from './drag-weights.ts';
import { carryCost } from './step-cost.ts';

/** Ring around a tile, clockwise from north: N NE E SE S SW W NW. */
const RING_DR = [-1, -1, 0, 1, 1, 1, 0, -1];
const RING_DC = [0, 1, 1, 1, 0, -1, -1, -1];
/** Ring index of offset (dr, dc), indexed by (dr + 1) * 3 + (dc + 1); −1 for the centre. */
const RING_INDEX = [7, 0, 1, 6, -1, 2, 5, 4, 3];
const NO_ROUTE = 1 << 20;

/** Ring index of the blank relative to the tile at (tr, tc), or −1 when it is not on the ring. */
function ringIndexOf(bd: Board, tr: number, tc: number): number {
  const b = bd.pos[0];
  const dr = bd.vr(b) - tr;
  const dc = bd.vc(b) - tc;
  if (dr < -1 || dr > 1 || dc < -1 || dc > 1) return -1;
  return RING_INDEX[(dr + 1) * 3 + dc + 1];
}

/** True when every ring cell strictly after `from` up to `to`, walking `step` (±1), is free. */
function ringClear(bd: Board, tr: number, tc: number, from: number, to: number, step: number): boolean {
  for (let i = from; i !== to; ) {
    i = (i + step + 8) & 7;
    if (!bd.free(tr + RING_DR[i], tc + RING_DC[i])) return false;
  }
  return true;
}

/**
 * Weighted harm of walking the blank `steps` ring cells from `from`: minus the weighted gain
 * (drag-weights.ts) of the tiles the walk shifts. Without this the ring direction is blind to the tiles it
 * drags (the thesis picks it by a fixed hierarchy), and random boards take about 15% more moves on large n
 * (measured: 2.49 vs 2.10 n³ at n = 60).
 */
function drag(bd: Board, tr: number, tc: number, from: number, steps: number): number {
  if (bd.lineRow < 0) return 0;
  const step = steps > 0 ? 1 : -1;
  let sum = 0;
  let i = from;
  for (let k = Math.abs(steps); k > 0; k--) {
    const j = (i + step + 8) & 7;
    // The tile on ring cell j moves to ring cell i.
    const t = bd.tiles[bd.cell(tr + RING_DR[j], tc + RING_DC[j])];
    sum -= shiftGain(bd, t, tr + RING_DR[j], tc + RING_DC[j], tr + RING_DR[i], tc + RING_DC[i]);
    i = j;
  }
  return sum;
}

/** Drag of the route last returned by {@link ringRoute}. */
let routeDrag = 0;

/**
 * Signed number of ring steps from `from` to `to` (positive = clockwise), or NO_ROUTE when both ways are
 * blocked. Of two open ways the one with the lower length + weighted drag wins; on a full tie the thesis
 * hierarchy's preference (`preferCw`). Sets {@link routeDrag}.
 */
function ringRoute(bd: Board, tr: number, tc: number, from: number, to: number, preferCw: boolean): number {
  routeDrag = 0;
  if (from === to) return 0;
  const cw = (to - from + 8) & 7;
  const ccw = 8 - cw;
  const cwOk = ringClear(bd, tr, tc, from, to, 1);
  const ccwOk = ringClear(bd, tr, tc, from, to, -1);
  if (cwOk && ccwOk) {
    const dCw = drag(bd, tr, tc, from, cw);
    const dCcw = drag(bd, tr, tc, from, -ccw);
    const a = cw + dCw;
    const b = ccw + dCcw;
    if (a < b || (a === b && preferCw)) {
      routeDrag = dCw;
      return cw;
    }
    routeDrag = dCcw;
    return -ccw;
  }
  if (cwOk) {
    routeDrag = drag(bd, tr, tc, from, cw);
    return cw;
  }
  if (ccwOk) {
    routeDrag = drag(bd, tr, tc, from, -ccw);
    return -ccw;
  }
  return NO_ROUTE;
}

/** Walks the blank `steps` ring cells around the tile at (tr, tc) (sign = direction). */
function walkRing(bd: Board, tr: number, tc: number, from: number, steps: number): void {
  const step = steps > 0 ? 1 : -1;
  let i = from;
  for (let k = Math.abs(steps); k > 0; k--) {
    const j = (i + step + 8) & 7;
    bd.moveView(dirOf(RING_DR[j] - RING_DR[i], RING_DC[j] - RING_DC[i]));
    i = j;
  }
}

/**
 * Brings the blank onto the ring of the tile at (tr, tc) by a shortest path: to the ring cell nearest the
 * blank (its coordinate-wise clamp into the 3×3 box), which on an open board also makes every further ring
 * cell reachable in a shortest way. Of the shortest paths, the one that shifts other tiles best
 * (approach.ts). Should fixed cells block them all, the thesis's order: locked cells inside the free region
 * only ever sit in its top row (the row being filled), so going down before sideways and sideways before up
 * never touches one.
 */
function approach(bd: Board, tr: number, tc: number): void {
  const b = bd.pos[0];
  let br = bd.vr(b);
  let bc = bd.vc(b);
  let row = Math.min(Math.max(br, tr - 1), tr + 1);
  const col = Math.min(Math.max(bc, tc - 1), tc + 1);
  // The clamp lands on a fixed cell only when the blank is in the top row beyond the fixed prefix and the
  // tile lies below that prefix: enter the ring one row lower instead (still on the ring, still free).
  if (!bd.free(row, col)) row++;
  if (approachAlongBestPath(bd, row, col)) return;
  for (; br < row; br++) bd.moveView(DOWN);
  for (; bc < col; bc++) bd.moveView(RIGHT);
  for (; bc > col; bc--) bd.moveView(LEFT);
  for (; br > row; br--) bd.moveView(UP);
}

/**
 * Moves the blank to ring cell `target` (0..7, clockwise from N) of the tile at view (tr, tc) without
 * moving that tile or any locked cell. Returns false when the ring is blocked both ways (the caller then
 * needs a local search).
 */
export function blankToRing(bd: Board, tr: number, tc: number, target: number): boolean {
  let i = ringIndexOf(bd, tr, tc);
  if (i < 0) {
    approach(bd, tr, tc);
    i = ringIndexOf(bd, tr, tc);
  }
  const steps = ringRoute(bd, tr, tc, i, target, false);
  if (steps === NO_ROUTE) return false;
  walkRing(bd, tr, tc, i, steps);
  return true;
}

/**
 * Carries tile `t` to view cell (gr, gc) through free cells. Returns false, with the tile somewhere on the
 * way, when no improving push is reachable around the tile (only next to fixed tiles: the caller falls
 * back to an exact local search).
 */
export function moveTile(bd: Board, t: number, gr: number, gc: number): boolean {
  for (;;) {
    const p = bd.pos[t];
    const tr = bd.vr(p);
    const tc = bd.vc(p);
    const dr = gr - tr;
    const dc = gc - tc;
    if (dr === 0 && dc === 0) return true;
    let i = ringIndexOf(bd, tr, tc);
    if (i < 0) {
      approach(bd, tr, tc);
      i = ringIndexOf(bd, tr, tc);
    }
    let bestCost = NO_ROUTE;
    let bestSteps = 0;
    let bestDir = -1;
    // Horizontal push.
    if (dc !== 0) {
      const sc = dc > 0 ? 1 : -1;
      if (bd.free(tr, tc + sc)) {
        const ahead = sc > 0 ? 2 : 6;
        // Hierarchy: destination to the right → CCW, to the left → CW.
        const steps = ringRoute(bd, tr, tc, i, ahead, sc < 0);
        if (steps !== NO_ROUTE) {
          const cost = Math.abs(steps) + 1 + carryCost(Math.abs(dc) - 1, Math.abs(dr), 1) + routeDrag;
          if (cost < bestCost) {
            bestCost = cost;
            bestSteps = steps;
            bestDir = sc > 0 ? RIGHT : LEFT;
          }
        }
      }
    }
    // Vertical push.
    if (dr !== 0) {
      const sr = dr > 0 ? 1 : -1;
      if (bd.free(tr + sr, tc)) {
        const ahead = sr > 0 ? 4 : 0;
        // Hierarchy: destination up → CCW, down → CW.
        const steps = ringRoute(bd, tr, tc, i, ahead, sr > 0);
        if (steps !== NO_ROUTE) {
          const cost = Math.abs(steps) + 1 + carryCost(Math.abs(dc), Math.abs(dr) - 1, 3) + routeDrag;
          if (cost < bestCost) {
            bestCost = cost;
            bestSteps = steps;
            bestDir = sr > 0 ? DOWN : UP;
          }
        }
      }
    }
    if (bestDir < 0) return false;
    walkRing(bd, tr, tc, i, bestSteps);
    // The blank is now ahead of the tile; stepping into the tile pushes it forward.
    bd.moveView(bestDir ^ 1);
  }
}
