/**
 * A fifth puzzle kind that exists only in tests: "flip", one-dimensional Lights Out. A row of n lamps
 * (3 ≤ n ≤ 10), written as a string of '0' (off) and '1' (on); the goal is every lamp off. A move presses
 * lamp i, which toggles lamp i and its neighbours; the wire form names each pressed lamp by its digit
 * ("031"). Presses commute and pressing twice undoes, so the optimum is the fewest presses of any press
 * set that turns the row off, found here by trying all 2^n press sets. test/unit/fifth-kind.test.ts checks
 * that against breadth-first search over the moves.
 *
 * It is registered with registerPuzzle only by the tests that use it: it shows that a kind is one folder's
 * worth of code (this file) and one registration, and that nothing outside src/puzzles needs to know it.
 */
import { z } from 'zod';
import type { Rng } from '../../src/core/rng.ts';
import type { Bound, Rejection, ReplayOutcome, Result, ScrambleSpec, WireMoves } from '../../src/core/types.ts';
import { ok, reject } from '../../src/core/types.ts';
import { textMoves } from '../../src/puzzles/move-form.ts';
import type { Puzzle, Replayer } from '../../src/puzzles/puzzle.ts';

/** A row of lamps. */
export interface FlipState {
  readonly kind: 'flip';
  readonly lamps: string;
}

export const FLIP_MIN = 3;
export const FLIP_MAX = 10;

/** The row as a bit mask (bit i = lamp i on). */
export function lampMask(lamps: string): number {
  let m = 0;
  for (let i = 0; i < lamps.length; i++) if (lamps[i] === '1') m |= 1 << i;
  return m;
}

function lampString(mask: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += mask & (1 << i) ? '1' : '0';
  return s;
}

/** The lamps pressing lamp i toggles. */
export function pressMask(i: number, n: number): number {
  return ((7 << i) >> 1) & ((1 << n) - 1);
}

/** Fewest presses turning `mask` off, or -1 when no press set does (n ≡ 2 mod 3 leaves some rows unsolvable). */
function fewestPresses(mask: number, n: number): number {
  let best = -1;
  for (let presses = 0; presses < 1 << n; presses++) {
    let m = mask;
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (presses & (1 << i)) {
        m ^= pressMask(i, n);
        count++;
      }
    }
    if (m === 0 && (best < 0 || count < best)) best = count;
  }
  return best;
}

function flipState(mask: number, n: number): FlipState {
  return { kind: 'flip', lamps: lampString(mask, n) };
}

function sizeOf(spec: ScrambleSpec<string>): number {
  const n = spec.size;
  if (n === undefined || !Number.isInteger(n) || n < FLIP_MIN || n > FLIP_MAX) throw new RangeError(`flip: spec not normalized (${String(n)})`);
  return n;
}

/** Validates moves as they stream in. */
class FlipReplayer implements Replayer<FlipState> {
  count = 0;
  private mask: number;
  private dead: (Rejection & { readonly index: number }) | null = null;

  constructor(private readonly n: number, start: FlipState) {
    this.mask = lampMask(start.lamps);
  }

  push(chunk: WireMoves): (Rejection & { readonly index: number }) | null {
    if (this.dead) return this.dead;
    if (typeof chunk !== 'string') return this.die('flip moves are a string of lamp digits');
    for (let k = 0; k < chunk.length; k++) {
      const i = chunk.charCodeAt(k) - 48;
      if (!(i >= 0 && i < this.n)) return this.die(`no lamp ${JSON.stringify(chunk[k])} in a row of ${this.n}`);
      this.mask ^= pressMask(i, this.n);
      this.count++;
    }
    return null;
  }

  isSolved(): boolean {
    return this.mask === 0;
  }

  state(): FlipState {
    return flipState(this.mask, this.n);
  }

  finish(): ReplayOutcome {
    if (this.dead) return { verdict: 'invalid', moves: this.count, index: this.dead.index, reason: this.dead.reason };
    return this.mask === 0 ? { verdict: 'solved', moves: this.count } : { verdict: 'invalid', moves: this.count, reason: 'lamps still on after the last move' };
  }

  private die(reason: string): Rejection & { readonly index: number } {
    this.dead = { ...reject('illegal-move', reason), index: this.count };
    return this.dead;
  }
}

function parseFlip(json: unknown): Result<FlipState> {
  const lamps = (json as { lamps?: unknown } | null)?.lamps;
  if (typeof lamps !== 'string' || !/^[01]+$/.test(lamps) || lamps.length < FLIP_MIN || lamps.length > FLIP_MAX) {
    return reject('bad-state', `flip lamps must be ${FLIP_MIN} to ${FLIP_MAX} characters 0/1`);
  }
  if (fewestPresses(lampMask(lamps), lamps.length) < 0) return reject('bad-state', 'no presses turn this row off');
  return ok({ kind: 'flip', lamps });
}

/** The test-only kind. */
export const flip: Puzzle<FlipState> = {
  kind: 'flip',
  wireShape: z.object({ kind: z.literal('flip'), lamps: z.string() }),
  parse: parseFlip,
  sizeOptions: { size: 'lamps' },
  defaultSpec: { kind: 'flip', size: 6 },
  normalizeSpec(spec) {
    if (spec.kind !== 'flip') return reject('bad-spec', `expected kind "flip", got ${JSON.stringify(spec.kind)}`);
    const n = spec.size;
    if (n === undefined || !Number.isInteger(n) || n < FLIP_MIN || n > FLIP_MAX) return reject('bad-spec', `flip size must be ${FLIP_MIN}..${FLIP_MAX}`);
    return ok({ kind: 'flip', size: n });
  },
  compliance: { specs: [{ kind: 'flip', size: 4 }], fixed: [{ kind: 'flip', lamps: '1111' }] },
  sizeMeasure: (s) => s.lamps.length,
  moves: textMoves,
  goal: (spec) => flipState(0, sizeOf(spec)),
  isSolved: (s) => !s.lamps.includes('1'),
  scramble(spec: ScrambleSpec<string>, rng: Rng): FlipState {
    const n = sizeOf(spec);
    for (;;) {
      // Pressing a uniform random set of lamps reaches every solvable row equally often (a linear map).
      let mask = 0;
      for (let i = 0; i < n; i++) if (rng.int(2) === 1) mask ^= pressMask(i, n);
      if (fewestPresses(mask, n) >= 2) return flipState(mask, n);
    }
  },
  walk(spec: ScrambleSpec<string>, k: number, rng: Rng): FlipState {
    const n = sizeOf(spec);
    let mask = 0;
    let last = -1;
    for (let s = 0; s < k; s++) {
      let i = last < 0 ? rng.int(n) : rng.int(n - 1);
      if (last >= 0 && i >= last) i++;
      mask ^= pressMask(i, n);
      last = i;
    }
    return flipState(mask, n);
  },
  parseMoves: (text) => {
    const moves = text.replace(/\s+/g, '');
    return /^\d*$/.test(moves) ? ok(moves) : reject('bad-notation', 'flip moves are lamp digits');
  },
  formatMoves: (moves) => String(moves),
  replayer: (start) => new FlipReplayer(start.lamps.length, start),
  replay(start, moves) {
    const r = new FlipReplayer(start.lamps.length, start);
    r.push(moves);
    return r.finish();
  },
  bound(s: FlipState): Bound {
    const d = fewestPresses(lampMask(s.lamps), s.lamps.length);
    return { optimal: d, lowerBound: d };
  },
  specOf: (s) => ({ kind: 'flip', size: s.lamps.length }),
  className: (s) => `flip ${s.lamps.length}`,
  describe: (s) => s.lamps.replace(/0/g, '.').replace(/1/g, '#'),
  render: (s) => [s.lamps.replace(/0/g, '.').replace(/1/g, '#')],
  // Lit lamps as pieces away from home, dark ones at home: a one-row grid any viewer can draw.
  scene: (s) => ({ layout: 'grid', rows: 1, cols: s.lamps.length, labels: [...s.lamps].map(Number), tones: [...s.lamps].map((c) => (c === '1' ? 1 : 2)) }),
};
