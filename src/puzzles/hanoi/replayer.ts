import type { HanoiState, Rejection, ReplayOutcome, WireMoves } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { Replayer } from '../puzzle.ts';

type IndexedRejection = Rejection & { readonly index: number };

const PEG_LETTERS = 'ABC';

/**
 * Incremental Hanoi validator. Per-peg stacks live in one Uint8Array (peg p's discs at p·n … p·n+height−1,
 * bottom first, disc 0 = smallest) and the peg of every disc in another, so each move is O(1). A chunk may
 * end between the two letters of a move; the first letter is kept until the next chunk completes the pair.
 */
export class HanoiReplayer implements Replayer<HanoiState> {
  private readonly n: number;
  private readonly stacks: Uint8Array;
  private readonly heights = new Int32Array(3);
  private readonly pegOf: Uint8Array;
  private readonly goalPeg: Uint8Array;
  private readonly goal: string;
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
    this.goal = state.goal;
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

  state(): HanoiState {
    return { kind: 'hanoi', pegs: 3, start: this.current(), goal: this.goal };
  }

  isSolved(): boolean {
    return this.failure === null && this.misplaced === 0;
  }

  push(chunk: WireMoves): IndexedRejection | null {
    if (this.failure) return this.failure;
    if (typeof chunk !== 'string') {
      return this.fail(this.moves, 'bad-moves', 'hanoi moves must be a string of peg-letter pairs like "ACAB"');
    }
    const len = chunk.length;
    let i = 0;
    // A pair left open by the previous chunk completes with this chunk's first letter.
    if (this.pendingFrom >= 0 && len > 0) {
      const rejection = this.applyOne(PEG_LETTERS[this.pendingFrom], chunk[0]);
      if (rejection) return rejection;
      this.pendingFrom = -1;
      i = 1;
    }
    const { n, stacks, heights, pegOf, goalPeg } = this;
    let count = this.moves;
    let misplaced = this.misplaced;
    // Hot loop: a whole pair per iteration; anything unusual drops to diagnose() for the reason.
    for (const last = len - 1; i < last; i += 2) {
      const from = chunk.charCodeAt(i) - 65;
      const to = chunk.charCodeAt(i + 1) - 65;
      if (from >= 0 && from <= 2 && to >= 0 && to <= 2 && from !== to) {
        const hf = heights[from];
        if (hf !== 0) {
          const disc = stacks[from * n + hf - 1];
          const ht = heights[to];
          if (ht === 0 || stacks[to * n + ht - 1] > disc) {
            stacks[to * n + ht] = disc;
            heights[to] = ht + 1;
            heights[from] = hf - 1;
            const g = goalPeg[disc];
            if (from === g) misplaced++;
            else if (to === g) misplaced--;
            pegOf[disc] = to;
            count++;
            continue;
          }
        }
      }
      this.moves = count;
      this.misplaced = misplaced;
      return this.diagnose(chunk[i], chunk[i + 1]);
    }
    this.moves = count;
    this.misplaced = misplaced;
    if (i < len) {
      const p = chunk.charCodeAt(i) - 65;
      if (p < 0 || p > 2) return this.diagnose(chunk[i], 'A');
      this.pendingFrom = p;
    }
    return null;
  }

  /** Applies one move given as two letters, or returns why it is illegal (slow path, chunk boundaries only). */
  private applyOne(fromLetter: string, toLetter: string): IndexedRejection | null {
    const from = PEG_LETTERS.indexOf(fromLetter);
    const to = PEG_LETTERS.indexOf(toLetter);
    if (from < 0 || to < 0 || from === to) return this.diagnose(fromLetter, toLetter);
    const { n, stacks, heights } = this;
    const hf = heights[from];
    const ht = heights[to];
    if (hf === 0 || (ht > 0 && stacks[to * n + ht - 1] < stacks[from * n + hf - 1])) return this.diagnose(fromLetter, toLetter);
    const disc = stacks[from * n + hf - 1];
    stacks[to * n + ht] = disc;
    heights[to] = ht + 1;
    heights[from] = hf - 1;
    if (from === this.goalPeg[disc]) this.misplaced++;
    else if (to === this.goalPeg[disc]) this.misplaced--;
    this.pegOf[disc] = to;
    this.moves++;
    return null;
  }

  /** Records and returns the rejection for the illegal move `fromLetter toLetter` at index `count`. */
  private diagnose(fromLetter: string, toLetter: string): IndexedRejection {
    const index = this.moves;
    this.pendingFrom = -1;
    for (const letter of [fromLetter, toLetter]) {
      if (letter.length !== 1 || !PEG_LETTERS.includes(letter)) {
        return this.fail(index, 'bad-notation', `move ${index}: unknown peg letter ${JSON.stringify(letter)} (pegs are A, B, C)`);
      }
    }
    const from = PEG_LETTERS.indexOf(fromLetter);
    const to = PEG_LETTERS.indexOf(toLetter);
    const { n, stacks, heights } = this;
    let reason: string;
    if (from === to) reason = `peg ${fromLetter} onto itself`;
    else if (heights[from] === 0) reason = `peg ${fromLetter} is empty`;
    else {
      const disc = stacks[from * n + heights[from] - 1];
      const below = stacks[to * n + heights[to] - 1];
      reason = `disc ${disc + 1} cannot go onto disc ${below + 1}`;
    }
    return this.fail(index, 'illegal-move', `move ${index} '${fromLetter}${toLetter}': ${reason}`);
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
