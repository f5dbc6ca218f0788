import type { Board } from './board.ts';
import type { IncrementalHeuristic } from './heuristic.ts';

/**
 * Linear-conflict penalty of one line. Tiles that sit in their goal line but in reversed order must leave the
 * line to pass each other; the fewest tiles that must leave is (tiles in their goal line) − (longest
 * increasing run of their goal offsets), each costing 2 extra moves. Using the LIS, rather than Korf's greedy
 * "remove the most conflicted tile", keeps it exact for the line and therefore admissible.
 *
 * `isRow` picks a row (goal offsets are columns) or a column (goal offsets are rows). `scratch` must hold
 * max(rows, cols) entries.
 */
export function lineConflict(board: Board, tiles: ArrayLike<number>, isRow: boolean, line: number, scratch: Int32Array): number {
  const { rows, cols } = board;
  const len = isRow ? cols : rows;
  const step = isRow ? 1 : cols;
  const start = isRow ? line * cols : line;
  let inLine = 0;
  let lis = 0;
  for (let i = 0, c = start; i < len; i++, c += step) {
    const t = tiles[c];
    if (t === 0) continue;
    const home = t - 1;
    let offset: number;
    if (isRow) {
      if (((home / cols) | 0) !== line) continue;
      offset = home % cols;
    } else {
      if (home % cols !== line) continue;
      offset = (home / cols) | 0;
    }
    inLine++;
    lis = extendRun(scratch, lis, offset);
  }
  return 2 * (inLine - lis);
}

/**
 * One step of patience sorting: `scratch[0..lis)` holds the smallest tail of an increasing run of each
 * length; `offset` replaces the first tail not below it (or extends the longest run). Returns the new length
 * of the longest increasing run.
 */
export function extendRun(scratch: Int32Array, lis: number, offset: number): number {
  let lo = 0;
  let hi = lis;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (scratch[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  scratch[lo] = offset;
  return lo === lis ? lis + 1 : lis;
}

/** Sum of the tiles' Manhattan distances to their homes (blank excluded). */
export function manhattan(board: Board, tiles: ArrayLike<number>): number {
  const { cols, rowOf, colOf } = board;
  let h = 0;
  for (let c = 0; c < board.size; c++) {
    const t = tiles[c];
    if (t === 0) continue;
    const home = t - 1;
    h += Math.abs(rowOf[c] - ((home / cols) | 0)) + Math.abs(colOf[c] - (home % cols));
  }
  return h;
}

/** Manhattan distance plus linear conflicts of every row and column, from scratch. */
export function manhattanLc(board: Board, tiles: ArrayLike<number>): number {
  const scratch = new Int32Array(Math.max(board.rows, board.cols));
  let h = manhattan(board, tiles);
  for (let r = 0; r < board.rows; r++) h += lineConflict(board, tiles, true, r, scratch);
  for (let c = 0; c < board.cols; c++) h += lineConflict(board, tiles, false, c, scratch);
  return h;
}

/**
 * Manhattan + linear conflict, updated per move: a tile sliding sideways changes its Manhattan term by ±1
 * and can only change the conflicts of the two columns it leaves and enters (its row keeps the same order,
 * since the blank is not a tile); a vertical slide likewise touches two rows.
 */
export class ManhattanLcHeuristic implements IncrementalHeuristic {
  readonly name: string;
  private readonly board: Board;
  private readonly useLc: boolean;
  private readonly scratch: Int32Array;
  /** Conflict penalty per line: rows first, then columns. */
  private readonly lc: Int32Array;
  private h = 0;
  /** Undo stack, 5 ints per depth: h, line a, old lc a, line b, old lc b. */
  private stack: Int32Array;

  constructor(board: Board, useLc = true) {
    this.board = board;
    this.useLc = useLc;
    this.name = useLc ? 'manhattan+lc' : 'manhattan';
    this.scratch = new Int32Array(Math.max(board.rows, board.cols));
    this.lc = new Int32Array(board.rows + board.cols);
    this.stack = new Int32Array(5 * 256);
  }

  reset(tiles: Uint8Array): number {
    const b = this.board;
    let h = manhattan(b, tiles);
    this.lc.fill(0);
    if (this.useLc) {
      for (let r = 0; r < b.rows; r++) h += this.lc[r] = lineConflict(b, tiles, true, r, this.scratch);
      for (let c = 0; c < b.cols; c++) h += this.lc[b.rows + c] = lineConflict(b, tiles, false, c, this.scratch);
    }
    this.h = h;
    return h;
  }

  move(tiles: Uint8Array, tile: number, from: number, to: number, depth: number): number {
    const b = this.board;
    const home = tile - 1;
    const cols = b.cols;
    let s = depth * 5;
    if (s + 5 > this.stack.length) {
      const grown = new Int32Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    const st = this.stack;
    st[s] = this.h;
    let h = this.h;
    const fromRow = b.rowOf[from];
    const toRow = b.rowOf[to];
    let la: number;
    let lb: number;
    let isRow: boolean;
    if (fromRow === toRow) {
      const hc = home % cols;
      h += Math.abs(b.colOf[to] - hc) - Math.abs(b.colOf[from] - hc);
      isRow = false;
      la = b.colOf[from];
      lb = b.colOf[to];
    } else {
      const hr = (home / cols) | 0;
      h += Math.abs(toRow - hr) - Math.abs(fromRow - hr);
      isRow = true;
      la = fromRow;
      lb = toRow;
    }
    if (this.useLc) {
      const off = isRow ? 0 : b.rows;
      const ia = off + la;
      const ib = off + lb;
      const na = lineConflict(b, tiles, isRow, la, this.scratch);
      const nb = lineConflict(b, tiles, isRow, lb, this.scratch);
      st[++s] = ia;
      st[++s] = this.lc[ia];
      st[++s] = ib;
      st[++s] = this.lc[ib];
      h += na - this.lc[ia] + nb - this.lc[ib];
      this.lc[ia] = na;
      this.lc[ib] = nb;
    }
    this.h = h;
    return h;
  }

  undo(depth: number): void {
    const st = this.stack;
    const s = depth * 5;
    this.h = st[s];
    if (this.useLc) {
      this.lc[st[s + 3]] = st[s + 4];
      this.lc[st[s + 1]] = st[s + 2];
    }
  }
}
