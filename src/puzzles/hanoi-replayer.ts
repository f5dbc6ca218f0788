import type { HanoiState, Rejection, ReplayOutcome, WireMoves } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { Replayer } from './puzzle.ts';

type IndexedRejection = Rejection & { readonly index: number };

const PEG_LETTERS = 'ABC';

/**
 * Incremental Hanoi validator. Per-peg stacks live in one Uint8Array (peg p's discs at p·n … p·n+height−1,
 * bottom first, disc 0 = smallest) and the peg of every disc in another, so each move is O(1). A chunk may
 * end between the two letters of a move; the first letter is kept until the next chunk completes the pair.
 */
export class HanoiReplayer implements Replayer {
  private readonly n: number;
  private readonly stacks: Uint8Array;
  private readonly heights = new Int32Array(3);
  private readonly pegOf: Uint8Array;
  private readonly goalPeg: Uint8Array;
  private misplaced = 0;
  /** Peg index of a first letter waiting for its partner across a chunk boundary, or −1. */
  private pendingFrom = -1;
  private failure: IndexedRejection | null = null;
  private moves = 0;

  constructor(state: HanoiState) {
    const n = state.start.length;
    this.n = n;
    this.stacks = new Uint8Array(3 * n);
    this.pegOf = new Uint8Array(n);
    this.goalPeg = new Uint8Array(n);
    // Largest disc first so every stack is built bottom-up in size order.
    for (let d = n - 1; d >= 0; d--) {
      const p = state.start.charCodeAt(d) - 65;
      const g = state.goal.charCodeAt(d) - 65;
      this.pegOf[d] = p;
      this.goalPeg[d] = g;
      this.stacks[p * n + this.heights[p]++] = d;
      if (p !== g) this.misplaced++;
    }
  }

  get count(): number {
    return this.moves;
  }

  /** The current position as peg letters, smallest disc first (for tests and debugging). */
  current(): string {
    let s = '';
    for (let d = 0; d < this.n; d++) s += PEG_LETTERS[this.pegOf[d]];
    return s;
  }

  isSolved(): boolean {
    return this.failure === null && this.misplaced === 0;
  }

  push(chunk: WireMoves): IndexedRejection | null {
    if (this.failure) return this.failure;
    if (typeof chunk !== 'string') {
      return this.fail(this.moves, 'bad-moves', 'hanoi moves must be a string of peg-letter pairs like "ACAB"');
    }
    const { n, stacks, heights, pegOf, goalPeg } = this;
    let from = this.pendingFrom;
    let count = this.moves;
    let misplaced = this.misplaced;
    const len = chunk.length;
    for (let i = 0; i < len; i++) {
      const p = chunk.charCodeAt(i) - 65;
      if (p < 0 || p > 2) {
        this.moves = count;
        this.misplaced = misplaced;
        return this.fail(count, 'bad-notation', `move ${count}: unknown peg letter ${JSON.stringify(chunk[i])} (pegs are A, B, C)`);
      }
      if (from < 0) {
        from = p;
        continue;
      }
      const to = p;
      const hf = heights[from];
      let reason: string | null = null;
      if (from === to) reason = `peg ${PEG_LETTERS[from]} onto itself`;
      else if (hf === 0) reason = `peg ${PEG_LETTERS[from]} is empty`;
      else {
        const disc = stacks[from * n + hf - 1];
        const ht = heights[to];
        if (ht > 0 && stacks[to * n + ht - 1] < disc) {
          reason = `disc ${disc + 1} cannot go onto disc ${stacks[to * n + ht - 1] + 1}`;
        } else {
          stacks[to * n + ht] = disc;
          heights[to] = ht + 1;
          heights[from] = hf - 1;
          if (from === goalPeg[disc]) misplaced++;
          else if (to === goalPeg[disc]) misplaced--;
          pegOf[disc] = to;
        }
      }
      if (reason !== null) {
        this.moves = count;
        this.misplaced = misplaced;
        this.pendingFrom = -1;
        return this.fail(count, 'illegal-move', `move ${count} '${PEG_LETTERS[from]}${PEG_LETTERS[to]}': ${reason}`);
      }
      count++;
      from = -1;
    }
    this.pendingFrom = from;
    this.moves = count;
    this.misplaced = misplaced;
    return null;
  }

  finish(): ReplayOutcome {
    if (!this.failure && this.pendingFrom >= 0) {
      this.fail(this.moves, 'bad-notation', `move ${this.moves}: dangling peg letter '${PEG_LETTERS[this.pendingFrom]}' at the end (a move is two letters)`);
    }
    const f = this.failure;
    if (f) return { verdict: 'invalid', moves: this.moves, index: f.index, reason: f.reason };
    if (this.misplaced === 0) return { verdict: 'solved', moves: this.moves };
    return { verdict: 'invalid', moves: this.moves, reason: `not solved after the last move: ${this.misplaced} disc(s) off their goal peg` };
  }

  private fail(index: number, code: string, reason: string): IndexedRejection {
    this.failure = { ...reject(code, reason), index };
    return this.failure;
  }
}
