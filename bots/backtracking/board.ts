/**
 * Board helpers for the backtracking bot: the Manhattan table and per-shape depth caps (solvability is the
 * puzzle's own rule, src/puzzles/sliding/parity.ts).
 * Boards are typed arrays of 0..n−1 in row-major order, 0 = blank; the goal is 1..n−1 then the blank.
 */

/** Blank moves in index order (U, D, L, R = where the blank goes); index ^ 1 is the opposite move. */
export const MOVE_LETTERS = 'UDLR';

/**
 * Longest optimal solution of each shape (God's number, known from exhaustive search; the dijkstra bot's
 * graph reproduces 6, 21 and 31). The search's depth cap is this + 1, which gives seed 003's cap of 32 on 3×3.
 */
const GODS_NUMBER: Readonly<Record<string, number>> = { '2x2': 6, '2x3': 21, '3x2': 21, '2x4': 36, '4x2': 36, '3x3': 31 };

/** Depth cap for a shape: God's number + 1 (32 on 3×3, as in seed 003); a line of k cells needs ≤ k − 1. */
export function depthCap(rows: number, cols: number): number {
  const known = GODS_NUMBER[`${rows}x${cols}`];
  if (known !== undefined) return known + 1;
  if (rows === 1 || cols === 1) return rows * cols;
  return 64; // not reached for shapes of ≤ 9 cells, kept so the function is total
}

/** Moves the blank at `b` in direction `d` if the board edge allows; returns the new blank index or −1. */
export function stepBlank(b: number, d: number, rows: number, cols: number): number {
  const r = (b / cols) | 0;
  const c = b - r * cols;
  if (d === 0) return r > 0 ? b - cols : -1;
  if (d === 1) return r < rows - 1 ? b + cols : -1;
  if (d === 2) return c > 0 ? b - 1 : -1;
  return c < cols - 1 ? b + 1 : -1;
}

/**
 * `table[v * n + p]` = Manhattan distance of value v standing on cell p from its home cell (value 0, the blank,
 * is at home on the last cell). Tiles only ever use v ≥ 1; the blank row serves seed 003's blank-included sum.
 */
export function manhattanTable(rows: number, cols: number): Uint8Array {
  const n = rows * cols;
  const t = new Uint8Array(n * n);
  for (let v = 0; v < n; v++) {
    const home = v === 0 ? n - 1 : v - 1;
    for (let p = 0; p < n; p++) {
      t[v * n + p] = Math.abs(((home / cols) | 0) - ((p / cols) | 0)) + Math.abs((home % cols) - (p % cols));
    }
  }
  return t;
}

/** Sum of the tiles' Manhattan distances (blank excluded: the admissible heuristic). */
export function tileManhattan(board: Uint8Array, table: Uint8Array): number {
  const n = board.length;
  let h = 0;
  for (let p = 0; p < n; p++) if (board[p] !== 0) h += table[board[p] * n + p];
  return h;
}

/** Checks that `tiles` is a permutation of 0..rows·cols−1 and copies it into a typed array. */
export function toBoard(rows: number, cols: number, tiles: ArrayLike<number>): Uint8Array | null {
  const n = rows * cols;
  if (tiles.length !== n) return null;
  const board = new Uint8Array(n);
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (!(Number.isInteger(t) && t >= 0 && t < n) || seen[t]) return null;
    seen[t] = 1;
    board[i] = t;
  }
  return board;
}

