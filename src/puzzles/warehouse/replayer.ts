import type { Rejection, ReplayOutcome, WarehouseState, WireMoves } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { Replayer } from '../puzzle.ts';
import type { WarehouseLayout } from './layout.ts';
import { warehouseLayout } from './layout.ts';

type IndexedRejection = Rejection & { readonly index: number };

const DIR_WORDS = ['up', 'down', 'left', 'right'];
const DIR_LETTERS = 'UDLR';
/** Tile numbers beyond this cannot be real (max 400² cells) and would lose precision if we kept multiplying. */
const NUMBER_CAP = 1e9;

/** The offending token quoted for a reason, e.g. '17U'. Built only on failure, never in the hot path. */
function tokenOf(num: number, dir: number): string {
  return `'${num < 0 ? '' : num}${DIR_LETTERS[dir]}'`;
}

/**
 * Incremental warehouse validator. Moves are "<tile><U|D|L|R>" tokens, the letter being the direction the
 * tile moves, optionally separated by whitespace. Because the wire string is chunked verbatim, a chunk may
 * end inside a number: the partial number is carried into the next push(). Board and tile→cell arrays are
 * Int32Arrays, so each move is O(1); a misplaced-tile counter makes isSolved O(1).
 */
export class WarehouseReplayer implements Replayer<WarehouseState> {
  private readonly layout: WarehouseLayout;
  private readonly cells: Int32Array;
  private readonly pos: Int32Array;
  private misplaced = 0;
  /** Digits read so far of a tile number whose direction letter has not arrived yet, or −1. */
  private pending = -1;
  private failure: IndexedRejection | null = null;
  private moves = 0;

  constructor(state: WarehouseState) {
    this.layout = warehouseLayout(state.size);
    this.cells = Int32Array.from(state.cells);
    this.pos = new Int32Array(this.layout.tiles + 1).fill(-1);
    for (let c = 0; c < this.cells.length; c++) {
      const t = this.cells[c];
      if (t === 0) continue;
      this.pos[t] = c;
      if (this.layout.homeOf[t] !== c) this.misplaced++;
    }
  }

  get count(): number {
    return this.moves;
  }

  /** The current board, row-major (a copy; for tests and debugging). */
  current(): number[] {
    return Array.from(this.cells);
  }

  state(): WarehouseState {
    return { kind: 'warehouse', size: this.layout.size, cells: Array.from(this.cells) };
  }

  isSolved(): boolean {
    return this.failure === null && this.misplaced === 0;
  }

  push(chunk: WireMoves): IndexedRejection | null {
    if (this.failure) return this.failure;
    if (typeof chunk !== 'string') {
      return this.fail(this.moves, 'bad-moves', 'warehouse moves must be a string of tile-number + direction tokens like "17U 4L"');
    }
    const { cells, pos } = this;
    const { size: n, tiles: tileCount, homeOf } = this.layout;
    const last = n * n - n;
    let num = this.pending;
    let count = this.moves;
    let misplaced = this.misplaced;
    let reason: string | null = null;
    const len = chunk.length;
    for (let i = 0; i < len; i++) {
      const ch = chunk.charCodeAt(i);
      if (ch >= 48 && ch <= 57) {
        num = (num < 0 ? 0 : num * 10) + (ch - 48);
        if (num > NUMBER_CAP) {
          reason = `move ${count}: tile number ${num}... is far too large (tiles are 1..${tileCount})`;
          break;
        }
        continue;
      }
      let dir = -1;
      if (ch === 85) dir = 0;
      else if (ch === 68) dir = 1;
      else if (ch === 76) dir = 2;
      else if (ch === 82) dir = 3;
      if (dir < 0) {
        if (ch === 32 || ch === 10 || ch === 13 || ch === 9) {
          if (num >= 0) {
            reason = `move ${count}: tile ${num} has no direction letter (U, D, L or R must follow the number)`;
            break;
          }
          continue;
        }
        reason = `move ${count}: unexpected character ${JSON.stringify(chunk[i])} (moves look like "17U 4L", directions U D L R)`;
        break;
      }
      if (num < 0) {
        reason = `move ${count} ${tokenOf(num, dir)}: direction without a tile number`;
        break;
      }
      if (num === 0 || num > tileCount) {
        reason = `move ${count} ${tokenOf(num, dir)}: ${num === 0 ? 'tile 0 is not a tile (0 marks an empty cell)' : `unknown tile ${num}`} (tiles are 1..${tileCount})`;
        break;
      }
      const from = pos[num];
      let to = -1;
      if (dir === 0) to = from >= n ? from - n : -1;
      else if (dir === 1) to = from < last ? from + n : -1;
      else if (dir === 2) to = from % n !== 0 ? from - 1 : -1;
      else to = (from + 1) % n !== 0 ? from + 1 : -1;
      if (to < 0) {
        reason = `move ${count} ${tokenOf(num, dir)}: tile ${num} cannot move ${DIR_WORDS[dir]} off the board`;
        break;
      }
      if (cells[to] !== 0) {
        reason = `move ${count} ${tokenOf(num, dir)}: tile ${num} cannot move ${DIR_WORDS[dir]} onto tile ${cells[to]}`;
        break;
      }
      cells[to] = num;
      cells[from] = 0;
      pos[num] = to;
      const home = homeOf[num];
      if (from === home) misplaced++;
      else if (to === home) misplaced--;
      count++;
      num = -1;
    }
    this.moves = count;
    this.misplaced = misplaced;
    this.pending = num;
    if (reason !== null) return this.fail(count, 'illegal-move', reason);
    return null;
  }

  finish(): ReplayOutcome {
    if (!this.failure && this.pending >= 0) {
      this.fail(this.moves, 'bad-notation', `move ${this.moves}: dangling tile number ${this.pending} at the end (no direction letter)`);
    }
    const f = this.failure;
    if (f) return { verdict: 'invalid', moves: this.moves, index: f.index, reason: f.reason };
    if (this.misplaced === 0) return { verdict: 'solved', moves: this.moves };
    return { verdict: 'invalid', moves: this.moves, reason: `not solved after the last move: ${this.misplaced} tile(s) off their home cell` };
  }

  private fail(index: number, code: string, reason: string): IndexedRejection {
    this.failure = { ...reject(code, reason), index };
    return this.failure;
  }
}
