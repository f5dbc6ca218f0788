import type { Rejection, ReplayOutcome, SlidingState, WireMoves } from '../../core/types.ts';
import type { Replayer } from '../puzzle.ts';
import { showChar } from './moves.ts';

type IndexedRejection = Rejection & { readonly index: number };

/** Direction of each UTF-16 code unit: 0 U, 1 D, 2 L, 3 R, 4 anything else (never legal). */
const DIRECTION_OF = new Uint8Array(65536).fill(4);
DIRECTION_OF[85] = 0;
DIRECTION_OF[68] = 1;
DIRECTION_OF[76] = 2;
DIRECTION_OF[82] = 3;

/** Bit d set when direction d is legal from each cell of an R×C board; cached for the last shape used. */
let maskCache: { rows: number; cols: number; legal: Uint8Array } | null = null;

function legalMask(rows: number, cols: number): Uint8Array {
  if (maskCache && maskCache.rows === rows && maskCache.cols === cols) return maskCache.legal;
  const legal = new Uint8Array(rows * cols);
  for (let r = 0, i = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++, i++) {
      legal[i] = (r > 0 ? 1 : 0) | (r < rows - 1 ? 2 : 0) | (c > 0 ? 4 : 0) | (c < cols - 1 ? 8 : 0);
    }
  }
  maskCache = { rows, cols, legal };
  return legal;
}

/**
 * Incremental validator for sliding solutions. The board lives in an Int32Array (tiles go up to 999,999);
 * the blank's index and the number of misplaced tiles are tracked so each move is a handful of
 * integer operations and isSolved() is O(1). Move indexes in reasons are the same 0-based indexes as `index`.
 */
export class SlidingReplayer implements Replayer<SlidingState> {
  private readonly tiles: Int32Array;
  private readonly rows: number;
  private readonly cols: number;
  private readonly legal: Uint8Array;
  /** Index offset of a blank move, by direction (the fifth entry is for unknown letters, never used). */
  private readonly delta: Int32Array;
  private blank = 0;
  /** Non-blank tiles not on their home cell (tile k's home is index k−1); 0 exactly at the goal. */
  private misplaced = 0;
  private applied = 0;
  private dead: IndexedRejection | null = null;

  /** `start` must be a parsed (valid) state; the replayer copies it. */
  constructor(start: SlidingState) {
    this.rows = start.rows;
    this.cols = start.cols;
    const n = start.rows * start.cols;
    this.tiles = Int32Array.from(start.tiles);
    for (let i = 0; i < n; i++) {
      const t = this.tiles[i];
      if (t === 0) this.blank = i;
      else if (t !== i + 1) this.misplaced++;
    }
    this.legal = legalMask(this.rows, this.cols);
    this.delta = Int32Array.of(-this.cols, this.cols, -1, 1, 0);
  }

  get count(): number {
    return this.applied;
  }

  state(): SlidingState {
    return { kind: 'sliding', rows: this.rows, cols: this.cols, tiles: Array.from(this.tiles) };
  }

  isSolved(): boolean {
    return this.misplaced === 0;
  }

  push(chunk: WireMoves): IndexedRejection | null {
    if (this.dead) return this.dead;
    if (typeof chunk !== 'string') {
      this.dead = {
        ok: false,
        code: 'bad-chunk',
        index: this.applied,
        reason: `move ${this.applied}: sliding moves must be a string of U, D, L, R, got ${Array.isArray(chunk) ? 'an array' : typeof chunk}`,
      };
      return this.dead;
    }
    // Hot loop: everything in locals, written back once. A random walk's letters are unpredictable, so
    // rather than branching on the letter, look up its direction and test it against the cell's mask of
    // legal directions: the only branch left is "illegal", which a valid solution never takes.
    const t = this.tiles;
    const legal = this.legal;
    const delta = this.delta;
    const len = chunk.length;
    let b = this.blank;
    let mis = this.misplaced;
    let i = 0;
    for (; i < len; i++) {
      const d = DIRECTION_OF[chunk.charCodeAt(i)];
      if (((legal[b] >> d) & 1) === 0) break;
      const nb = b + delta[d];
      const tile = t[nb];
      // The tile slides from nb into the blank's cell b.
      mis += (tile === nb + 1 ? 1 : 0) - (tile === b + 1 ? 1 : 0);
      t[b] = tile;
      t[nb] = 0;
      b = nb;
    }
    this.blank = b;
    this.misplaced = mis;
    const index = this.applied + i;
    this.applied = index;
    if (i === len) return null;
    this.dead = this.rejection(chunk[i], index);
    return this.dead;
  }

  finish(): ReplayOutcome {
    if (this.dead) return { verdict: 'invalid', moves: this.applied, index: this.dead.index, reason: this.dead.reason };
    if (this.misplaced === 0) return { verdict: 'solved', moves: this.applied };
    return { verdict: 'invalid', moves: this.applied, reason: 'not solved after the last move' };
  }

  private rejection(ch: string, index: number): IndexedRejection {
    const row = Math.floor(this.blank / this.cols);
    const col = this.blank % this.cols;
    const at = `move ${index} '${ch}'`;
    let reason: string;
    switch (ch) {
      case 'U': reason = `${at}: blank at row 0 cannot go up`; break;
      case 'D': reason = `${at}: blank at row ${row} (the bottom row) cannot go down`; break;
      case 'L': reason = `${at}: blank at column 0 cannot go left`; break;
      case 'R': reason = `${at}: blank at column ${col} (the last column) cannot go right`; break;
      default:
        return {
          ok: false,
          code: 'bad-move',
          index,
          reason: `move ${index}: unknown move letter ${showChar(ch)}; expected U, D, L or R`,
        };
    }
    return { ok: false, code: 'illegal-move', index, reason };
  }
}
