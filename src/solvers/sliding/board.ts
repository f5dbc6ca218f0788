/**
 * Geometry of an R×C sliding board as the search engines need it: cells row-major, tile t's home is cell
 * t − 1, the blank's home is the last cell. A move is named by where the BLANK goes (U/D/L/R), as on the wire.
 */

/** Move directions, indexed 0..3; `DIR_LETTERS[d]` is the wire letter. */
export const DIR_LETTERS = 'UDLR';
/** The direction that undoes direction d (U↔D, L↔R): the search never plays it right after d. */
export const INVERSE_DIR: readonly number[] = [1, 0, 3, 2];

/** Precomputed tables of one board shape. */
export interface Board {
  readonly rows: number;
  readonly cols: number;
  /** Number of cells, rows·cols. */
  readonly size: number;
  /** `neighbor[cell * 4 + d]` = the cell the blank reaches from `cell` in direction d, or −1 off the board. */
  readonly neighbor: Int16Array;
  /** Row / column of each cell. */
  readonly rowOf: Uint8Array;
  readonly colOf: Uint8Array;
}

const boards = new Map<string, Board>();

/** The tables of an R×C board (memoized: boards are immutable). */
export function makeBoard(rows: number, cols: number): Board {
  const key = `${rows}x${cols}`;
  const cached = boards.get(key);
  if (cached) return cached;
  const size = rows * cols;
  const neighbor = new Int16Array(size * 4).fill(-1);
  const rowOf = new Uint8Array(size);
  const colOf = new Uint8Array(size);
  for (let c = 0; c < size; c++) {
    const r = Math.floor(c / cols);
    const k = c % cols;
    rowOf[c] = r;
    colOf[c] = k;
    if (r > 0) neighbor[c * 4 + 0] = c - cols;
    if (r < rows - 1) neighbor[c * 4 + 1] = c + cols;
    if (k > 0) neighbor[c * 4 + 2] = c - 1;
    if (k < cols - 1) neighbor[c * 4 + 3] = c + 1;
  }
  const board: Board = { rows, cols, size, neighbor, rowOf, colOf };
  boards.set(key, board);
  return board;
}

/** True when `tiles` is a permutation of 0..size−1. */
export function isPermutation(size: number, tiles: ArrayLike<number>): boolean {
  if (tiles.length !== size) return false;
  const seen = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const t = tiles[i];
    if (!Number.isInteger(t) || t < 0 || t >= size || seen[t]) return false;
    seen[t] = 1;
  }
  return true;
}

/**
 * Applies a blank-move string to a copy of `tiles`; returns the final tiles, or null at the first illegal move.
 * Used to double-check answers before they leave the bot, and by the tests.
 */
export function applyMoves(board: Board, tiles: ArrayLike<number>, moves: string): Uint8Array | null {
  const t = Uint8Array.from(tiles);
  let blank = t.indexOf(0);
  for (let i = 0; i < moves.length; i++) {
    const d = DIR_LETTERS.indexOf(moves[i]);
    if (d < 0) return null;
    const to = board.neighbor[blank * 4 + d];
    if (to < 0) return null;
    t[blank] = t[to];
    t[to] = 0;
    blank = to;
  }
  return t;
}

/** True when `tiles` is the goal 1..size−1 then the blank. */
export function isGoal(tiles: ArrayLike<number>): boolean {
  const n = tiles.length;
  for (let i = 0; i < n - 1; i++) if (tiles[i] !== i + 1) return false;
  return tiles[n - 1] === 0;
}
