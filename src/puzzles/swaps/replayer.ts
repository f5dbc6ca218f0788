import type { Rejection, ReplayOutcome, SwapsState, WireMoves } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { Replayer } from '../puzzle.ts';

type IndexedRejection = Rejection & { readonly index: number };

/** A short, never-throwing rendering of an untrusted value for a one-line reason. */
export function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Incremental swap-puzzle validator: cell → piece and piece → cell in Int32Arrays, so each swap is O(1), and
 * a running count of misplaced pieces makes isSolved O(1). Chunks are arrays of [a, b] piece pairs.
 */
export class SwapsReplayer implements Replayer<SwapsState> {
  private readonly n: number;
  private readonly rows: number;
  private readonly cols: number;
  private readonly tiles: Int32Array;
  private readonly pos: Int32Array;
  private misplaced = 0;
  private failure: IndexedRejection | null = null;
  private moves = 0;

  constructor(state: SwapsState) {
    const n = state.tiles.length;
    this.n = n;
    this.rows = state.rows;
    this.cols = state.cols;
    this.tiles = Int32Array.from(state.tiles);
    this.pos = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      this.pos[this.tiles[i]] = i;
      if (this.tiles[i] !== i + 1) this.misplaced++;
    }
  }

  get count(): number {
    return this.moves;
  }

  /** The current tiles, row-major (a copy; for tests and debugging). */
  current(): number[] {
    return Array.from(this.tiles);
  }

  state(): SwapsState {
    return { kind: 'swaps', rows: this.rows, cols: this.cols, tiles: Array.from(this.tiles) };
  }

  isSolved(): boolean {
    return this.failure === null && this.misplaced === 0;
  }

  push(chunk: WireMoves): IndexedRejection | null {
    if (this.failure) return this.failure;
    if (!Array.isArray(chunk)) {
      return this.fail(this.moves, 'bad-moves', 'swaps moves must be an array of piece-number pairs like [[6,7],[2,4]]');
    }
    const { n, tiles, pos } = this;
    let count = this.moves;
    let misplaced = this.misplaced;
    for (let i = 0; i < chunk.length; i++) {
      const m: unknown = chunk[i];
      let reason: string | null = null;
      if (!Array.isArray(m) || m.length !== 2) reason = `expected a pair of piece numbers [a,b], got ${preview(m)}`;
      else {
        const a: unknown = m[0];
        const b: unknown = m[1];
        if (!Number.isInteger(a) || !Number.isInteger(b)) reason = `${preview(m)}: piece numbers must be integers`;
        else if ((a as number) < 1 || (a as number) > n) reason = `${preview(m)}: unknown piece ${a as number} (pieces are 1..${n})`;
        else if ((b as number) < 1 || (b as number) > n) reason = `${preview(m)}: unknown piece ${b as number} (pieces are 1..${n})`;
        else if (a === b) reason = `${preview(m)}: a piece cannot be swapped with itself`;
        else {
          const pa = a as number;
          const pb = b as number;
          const ca = pos[pa];
          const cb = pos[pb];
          // Before: pa on ca, pb on cb. After: pa on cb, pb on ca. Home of piece p is cell p − 1.
          misplaced += (cb !== pa - 1 ? 1 : 0) + (ca !== pb - 1 ? 1 : 0) - (ca !== pa - 1 ? 1 : 0) - (cb !== pb - 1 ? 1 : 0);
          tiles[ca] = pb;
          tiles[cb] = pa;
          pos[pa] = cb;
          pos[pb] = ca;
        }
      }
      if (reason !== null) {
        this.moves = count;
        this.misplaced = misplaced;
        return this.fail(count, 'illegal-move', `move ${count}: ${reason}`);
      }
      count++;
    }
    this.moves = count;
    this.misplaced = misplaced;
    return null;
  }

  finish(): ReplayOutcome {
    const f = this.failure;
    if (f) return { verdict: 'invalid', moves: this.moves, index: f.index, reason: f.reason };
    if (this.misplaced === 0) return { verdict: 'solved', moves: this.moves };
    return { verdict: 'invalid', moves: this.moves, reason: `not solved after the last move: ${this.misplaced} piece(s) misplaced` };
  }

  private fail(index: number, code: string, reason: string): IndexedRejection {
    this.failure = { ...reject(code, reason), index };
    return this.failure;
  }
}
