/**
 * How much the constructive solver cares, per cell, about where an unplaced tile is pushed while the blank
 * walks past it: shifting a tile one cell towards its home now saves about a carry step later, if nothing
 * pushes it back first. Tiles of the row being filled weigh {@link LINE_WEIGHT}; every other tile weighs
 * less the later it is needed: {@link LAYER_WEIGHT} / (1 + {@link LAYER_DECAY}·k/m) for a home k lines into
 * a free region of side m. The decay is relative to the region because what matters is how much shuffling
 * the tile will go through before its turn, which grows with the board: a decay in absolute lines (the
 * first version, 1/(1 + k)) left large boards 5% longer (measured, moves/n³: 1.89 vs 1.79 at n = 100,
 * 1.87 vs 1.81 at n = 50, the same at n = 20).
 * Computed once per line into the board's `weight` table (the view and the line fix them), so the ring
 * walks (tile-mover.ts) and the blank's approach paths (approach.ts) read one number per tile.
 */
import type { Board } from './board.ts';

/** Weight, in moves per cell, of pushing an unplaced tile of the current line. */
export const LINE_WEIGHT = 2;
/** Weight of pushing a tile of the next line. Both tuned on random boards with n = 20, 50, 100. */
export const LAYER_WEIGHT = 2;
/** How fast the weight falls with the share of the free region still to be filled before a tile's turn. */
export const LAYER_DECAY = 6;

/** Starts filling view row r0 from column c0: records the line and fills `bd.weight`. */
export function beginLine(bd: Board, r0: number, c0: number): void {
  bd.lineRow = r0;
  bd.lineCol = c0;
  const w = bd.weight;
  const decay = LAYER_DECAY / Math.max(1, bd.vRows - r0, bd.vCols - c0);
  w[0] = 0;
  for (let t = 1; t < w.length; t++) {
    const gr = bd.vr(t - 1);
    const gc = bd.vc(t - 1);
    // Placed tiles (homes above or left of the free region) never move; their weight is never read.
    w[t] = gr < r0 || gc < c0 ? 0 : gr === r0 ? LINE_WEIGHT : LAYER_WEIGHT / (1 + decay * Math.min(gr - r0, gc - c0));
  }
}

/** The line is done: nothing is weighed until the next one begins. */
export function endLine(bd: Board): void {
  bd.lineRow = -1;
  bd.weight.fill(0);
}

/**
 * Weighted gain of tile t sliding from view (r, c) to view (nr, nc): its weight times how much closer to
 * its home it gets (negative when it moves away). 0 for the blank.
 */
export function shiftGain(bd: Board, t: number, r: number, c: number, nr: number, nc: number): number {
  if (t === 0) return 0;
  const gr = bd.vr(t - 1);
  const gc = bd.vc(t - 1);
  return bd.weight[t] * (Math.abs(r - gr) + Math.abs(c - gc) - Math.abs(nr - gr) - Math.abs(nc - gc));
}
