/**
 * The mutable board the constructive solver works on, in place: tiles by cell, cells by tile, a lock mask
 * for solved (fixed) cells, and the move buffer every blank move is recorded in.
 *
 * The algorithm is written once for "fill the top row of the free region". Filling a column is the same
 * job on the transposed board, so the board offers a *view*: view (r, c) is real (r, c), or real (c, r)
 * when transposed, and a view move maps to a real move by swapping U↔L and D↔R (`d ^ 2`). This keeps one
 * copy of the row logic instead of a mirrored column copy, and costs nothing but a flag.
 */
import { MoveBuffer } from './move-buffer.ts';

/** Move codes: where the blank goes. `d ^ 1` is the inverse, `d ^ 2` the transposed direction. */
export const UP = 0;
export const DOWN = 1;
export const LEFT = 2;
export const RIGHT = 3;

/** Board state plus the current row/column view. */
export class Board {
  readonly rows: number;
  readonly cols: number;
  /** Real cell → tile (0 = blank). */
  readonly tiles: Int32Array;
  /** Tile → real cell; pos[0] is the blank. */
  readonly pos: Int32Array;
  /** Real cell → 1 when it holds a fixed tile the blank must not disturb. */
  readonly locked: Uint8Array;
  readonly moves: MoveBuffer;
  /** View state: transposed flag and the view's dimensions. */
  transposed = false;
  vRows: number;
  vCols: number;
  /** View row being filled (−1: none); its unplaced tiles are worth keeping close to it. */
  lineRow = -1;
  /** View column the next line will fill (its tiles are worth keeping close too). */
  lineCol = -1;
  /** Per tile: moves saved per cell it is shifted towards its home (drag-weights.ts); 0 outside a line. */
  readonly weight: Float64Array;

  constructor(rows: number, cols: number, tiles: ArrayLike<number>) {
    this.rows = rows;
    this.cols = cols;
    const n = rows * cols;
    this.tiles = Int32Array.from(tiles);
    this.pos = new Int32Array(n);
    for (let i = 0; i < n; i++) this.pos[this.tiles[i]] = i;
    this.locked = new Uint8Array(n);
    this.weight = new Float64Array(n);
    this.moves = new MoveBuffer(Math.min(1 << 24, 4 * n * Math.max(rows, cols) + 64));
    this.vRows = rows;
    this.vCols = cols;
  }

  /** Switches the view (transposed: view rows are real columns). */
  setView(transposed: boolean): void {
    this.transposed = transposed;
    this.vRows = transposed ? this.cols : this.rows;
    this.vCols = transposed ? this.rows : this.cols;
  }

  /** Real cell of view (r, c). */
  cell(r: number, c: number): number {
    return this.transposed ? c * this.cols + r : r * this.cols + c;
  }

  /** View row of a real cell. */
  vr(cell: number): number {
    return this.transposed ? cell % this.cols : (cell / this.cols) | 0;
  }

  /** View column of a real cell. */
  vc(cell: number): number {
    return this.transposed ? (cell / this.cols) | 0 : cell % this.cols;
  }

  /** True when view (r, c) is on the board and not fixed: a cell the blank may enter. */
  free(r: number, c: number): boolean {
    return r >= 0 && c >= 0 && r < this.vRows && c < this.vCols && this.locked[this.cell(r, c)] === 0;
  }

  /** The tile whose goal is view (r, c). */
  goalTile(r: number, c: number): number {
    return this.cell(r, c) + 1;
  }

  /** Moves the blank one step in view direction `d` (caller guarantees legality). */
  moveView(d: number): void {
    this.moveReal(this.transposed ? d ^ 2 : d);
  }

  /** Moves the blank one step in real direction `d` (caller guarantees legality). */
  moveReal(d: number): void {
    const b = this.pos[0];
    const nb = d === UP ? b - this.cols : d === DOWN ? b + this.cols : d === LEFT ? b - 1 : b + 1;
    const t = this.tiles[nb];
    this.tiles[b] = t;
    this.pos[t] = b;
    this.tiles[nb] = 0;
    this.pos[0] = nb;
    this.moves.push(d);
  }

  /** Fixes or frees view (r, c). */
  lock(r: number, c: number, on: boolean): void {
    this.locked[this.cell(r, c)] = on ? 1 : 0;
  }
}

/** View direction of a unit step (dr, dc). */
export function dirOf(dr: number, dc: number): number {
  return dr < 0 ? UP : dr > 0 ? DOWN : dc < 0 ? LEFT : RIGHT;
}
