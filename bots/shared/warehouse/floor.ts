/**
 * The board being solved, as a typed array, plus the one primitive every script uses: step a tile from one
 * cell into an adjacent empty cell and write the move.
 */
import type { MoveWriter } from './move-writer.ts';

const U = 85, D = 68, L = 76, R = 82;

/** Mutable board: cells row-major (0 = empty) and where each tile is. */
export class Floor {
  readonly cells: Int32Array;
  readonly pos: Int32Array;

  constructor(
    readonly n: number,
    cells: ArrayLike<number>,
    tiles: number,
    private readonly out: MoveWriter,
  ) {
    this.cells = Int32Array.from(cells);
    this.pos = new Int32Array(tiles + 1).fill(-1);
    for (let i = 0; i < this.cells.length; i++) if (this.cells[i] > 0) this.pos[this.cells[i]] = i;
  }

  /**
   * Moves whatever stands on `from` to the adjacent cell `to`. An empty `from` is a no-op: scripts are
   * written for a full block, and a hole simply plays the part of a tile that never moves (see
   * swap-script.ts for why the rest of the script stays legal). Throws on a broken script.
   */
  step(from: number, to: number): void {
    const v = this.cells[from];
    if (v === 0) return;
    if (this.cells[to] !== 0) throw new Error(`script bug: tile ${v} ${from}→${to} into occupied cell`);
    const d = to - from;
    let dir: number;
    if (d === -this.n) dir = U;
    else if (d === this.n) dir = D;
    else if (d === -1 && to % this.n !== this.n - 1) dir = L;
    else if (d === 1 && to % this.n !== 0) dir = R;
    else throw new Error(`script bug: ${from}→${to} is not a step`);
    this.cells[to] = v;
    this.cells[from] = 0;
    this.pos[v] = to;
    this.out.push(v, dir);
  }

  /** Plays a list of (from, to) cell pairs. */
  play(script: Int32Array | readonly number[], length = script.length): void {
    for (let i = 0; i < length; i += 2) this.step(script[i], script[i + 1]);
  }
}
