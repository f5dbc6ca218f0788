import type { Bound, PuzzleState, Result, ScrambleSpec } from '../../core/types.ts';
import { puzzleOf } from '../../puzzles/index.ts';
import { generateScrambles } from '../../referee/scrambles/scrambles.ts';

/** One generated scramble with what people read about it. */
export interface DescribedScramble {
  readonly state: PuzzleState;
  readonly puzzleClass: string;
  readonly bound: Bound;
  /** A multi-line picture for terminals. */
  readonly picture: string;
}

/** Generates `count` scrambles from a seed (the same on every machine) and describes each. */
export function describeScrambles(spec: ScrambleSpec, count: number, seed: string, walk?: number): Result<DescribedScramble[]> {
  const states = generateScrambles(spec, count, seed, walk);
  if (!states.ok) return states;
  return {
    ok: true,
    value: states.value.map((state) => {
      const p = puzzleOf(state);
      return { state, puzzleClass: p.className(state), bound: p.bound(state), picture: p.describe(state) };
    }),
  };
}
