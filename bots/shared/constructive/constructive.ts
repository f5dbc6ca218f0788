/**
 * The constructive solver (thesis chapter 3, n²−1_Puzzle) for any R×C board with R, C ≥ 2: pure, no I/O.
 *
 * While the free region has more than 9 cells, fill its top row (when it has at least as many rows as
 * columns) or its left column (otherwise), so the longer side shrinks first and a square board alternates
 * row, column as in the thesis. The last ≤ 9-cell block (3×3, 2×3, 3×2, 2×4, 4×2, 2×2) is solved optimally
 * from the exact table, where the thesis uses brute force on the 3×3. Moves that cancel are dropped as they
 * are recorded (see move-buffer.ts).
 */
import { slidingTable } from '../../../src/puzzles/sliding/table.ts';
import { Board } from './board.ts';
import { fillTopRow } from './fill-line.ts';

const LETTER_DIR: Record<string, number> = { U: 0, D: 1, L: 2, R: 3 };

/** Options of {@link solveConstructive}. */
export interface ConstructiveOptions {
  /** Polled between rows/columns; returning true abandons the solve (the result is then null). */
  readonly shouldStop?: () => boolean;
}

/**
 * Solves the R×C board `tiles` (row-major, 0 = blank, goal 1..R·C−1 then the blank). Returns the solved
 * board's move buffer, or null when stopped. Throws RangeError for an unsolvable or malformed board.
 */
export function solveConstructive(
  rows: number,
  cols: number,
  tiles: ArrayLike<number>,
  opts: ConstructiveOptions = {},
): Board | null {
  const r = reduceConstructive(rows, cols, tiles, 3, 3, opts);
  if (!r) return null;
  solveLastBlock(r.board, r.top, r.left);
  return r.board;
}

/** A board filled line by line down to a free block in its bottom-right corner. */
export interface Reduction {
  readonly board: Board;
  /** The free block: rows top.., columns left.. (real coordinates); every other tile is home. */
  readonly top: number;
  readonly left: number;
}

/**
 * Fills lines, as {@link solveConstructive} does, until the free region is at most `maxRows`×`maxCols` (or
 * at most 9 cells); the hybrid bot takes over from there on big boards. Null when stopped.
 */
export function reduceConstructive(
  rows: number,
  cols: number,
  tiles: ArrayLike<number>,
  maxRows: number,
  maxCols: number,
  opts: ConstructiveOptions = {},
): Reduction | null {
  if (!(rows >= 2 && cols >= 2) || tiles.length !== rows * cols) {
    throw new RangeError(`constructive: need an R×C board with R, C ≥ 2, got ${rows}x${cols}`);
  }
  const bd = new Board(rows, cols, tiles);
  let top = 0;
  let left = 0;
  while ((rows - top) * (cols - left) > 9 && (rows - top > maxRows || cols - left > maxCols)) {
    if (opts.shouldStop?.()) return null;
    if (rows - top >= cols - left) {
      bd.setView(false);
      fillTopRow(bd, top, left);
      top++;
    } else {
      bd.setView(true);
      fillTopRow(bd, left, top);
      left++;
    }
  }
  return { board: bd, top, left };
}

/** Solves the free block rows top.., columns left.. optimally with the exact table (real coordinates). */
function solveLastBlock(bd: Board, top: number, left: number): void {
  const h = bd.rows - top;
  const w = bd.cols - left;
  const local = new Int32Array(h * w);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const t = bd.tiles[(top + r) * bd.cols + left + c];
      if (t === 0) continue;
      const g = t - 1;
      const gr = (g / bd.cols) | 0;
      const gc = g % bd.cols;
      // Every tile still free has its home in the block, since all others are fixed in place.
      local[r * w + c] = (gr - top) * w + (gc - left) + 1;
    }
  }
  const moves = slidingTable(h, w).solve(local);
  for (let i = 0; i < moves.length; i++) bd.moveReal(LETTER_DIR[moves[i]]);
}
