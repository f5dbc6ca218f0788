import type { Board } from '../../src/solvers/sliding/board.ts';
import { extendRun } from '../../src/solvers/sliding/manhattan-lc.ts';

/**
 * Manhattan distance + linear conflict over a subset of the tiles, `counted[t]` = 1 for the tiles that
 * count (all of them for the whole goal; the tiles placed so far for a sub-goal): the others weigh nothing,
 * as if indistinguishable, so h = 0 exactly when every counted tile is home. A tile number past the
 * array (the searches mark uncounted tiles {@link ANY_TILE}) never counts.
 */

/** What a search writes for a tile that does not count, so states differing only in such tiles are one. */
export const ANY_TILE = 255;

/**
 * Conflict penalty of one line among the counted tiles standing in their goal line: the fewest that must
 * leave the line is their number minus the longest increasing run of their goal offsets (as in
 * src/solvers/sliding/manhattan-lc.ts), two moves each. `scratch` holds max(rows, cols) entries.
 */
export function countedConflict(board: Board, tiles: ArrayLike<number>, isRow: boolean, line: number, counted: Uint8Array, scratch: Int32Array): number {
  const { rows, cols } = board;
  const len = isRow ? cols : rows;
  const step = isRow ? 1 : cols;
  let inLine = 0;
  let lis = 0;
  for (let i = 0, c = isRow ? line * cols : line; i < len; i++, c += step) {
    const t = tiles[c];
    if (counted[t] !== 1) continue;
    const home = t - 1;
    const hr = (home / cols) | 0;
    const hc = home - hr * cols;
    if ((isRow ? hr : hc) !== line) continue;
    const offset = isRow ? hc : hr;
    inLine++;
    lis = extendRun(scratch, lis, offset);
  }
  return 2 * (inLine - lis);
}

/** Manhattan + linear conflict of the counted tiles, from scratch. */
export function countedManhattanLc(board: Board, tiles: ArrayLike<number>, counted: Uint8Array): number {
  const scratch = new Int32Array(Math.max(board.rows, board.cols));
  let h = 0;
  for (let c = 0; c < board.size; c++) {
    const t = tiles[c];
    if (counted[t] !== 1) continue;
    const home = t - 1;
    h += Math.abs(board.rowOf[c] - ((home / board.cols) | 0)) + Math.abs(board.colOf[c] - (home % board.cols));
  }
  for (let r = 0; r < board.rows; r++) h += countedConflict(board, tiles, true, r, counted, scratch);
  for (let c = 0; c < board.cols; c++) h += countedConflict(board, tiles, false, c, counted, scratch);
  return h;
}

/** Every tile counts (the blank never does). */
export function allTiles(size: number): Uint8Array {
  const counted = new Uint8Array(size).fill(1);
  counted[0] = 0;
  return counted;
}
