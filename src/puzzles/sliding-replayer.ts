import type { Rejection, ReplayOutcome, SlidingState, WireMoves } from '../core/types.ts';
import type { Replayer } from './puzzle.ts';
import { showChar } from './sliding-moves.ts';

type IndexedRejection = Rejection & { readonly index: number };

const U = 85; // 'U'
const D = 68; // 'D'
const L = 76; // 'L'
const R = 82; // 'R'

/**
 * Incremental validator for sliding solutions. The board lives in an Int32Array (tiles go up to 999,999);
 * the blank's index and column and the number of misplaced tiles are tracked so each move is a handful of
 * integer operations and isSolved() is O(1). Move indexes in reasons are the same 0-based indexes as `index`.
 */
export class SlidingReplayer implements Replayer {
  private readonly tiles: Int32Array;
  private readonly rows: number;
  private readonly cols: number;
  private blank = 0;
  private blankCol = 0;
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
    this.blankCol = this.blank % this.cols;
  }

  get count(): number {
    return this.applied;
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
        reason: `move ${this.applied}: sliding moves must be a string of U, D, L, R, got an array`,
      };
      return this.dead;
    }
    // Hot loop: everything in locals, written back once.
    const t = this.tiles;
    const w = this.cols;
    const lastCol = w - 1;
    const bottom = t.length - w;
    const len = chunk.length;
    let b = this.blank;
    let c = this.blankCol;
    let mis = this.misplaced;
    let i = 0;
    for (; i < len; i++) {
      const ch = chunk.charCodeAt(i);
      let nb: number;
      if (ch === U) {
        if (b < w) break;
        nb = b - w;
      } else if (ch === D) {
        if (b >= bottom) break;
        nb = b + w;
      } else if (ch === L) {
        if (c === 0) break;
        nb = b - 1;
        c--;
      } else if (ch === R) {
        if (c === lastCol) break;
        nb = b + 1;
        c++;
      } else break;
      const tile = t[nb];
      // The tile slides from nb into the blank's cell b.
      mis += (tile === nb + 1 ? 1 : 0) - (tile === b + 1 ? 1 : 0);
      t[b] = tile;
      t[nb] = 0;
      b = nb;
    }
    this.blank = b;
    this.blankCol = c;
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
    const col = this.blankCol;
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
