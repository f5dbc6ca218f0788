import { createRng } from '../../core/rng.ts';
import type { PuzzleState, Result, ScrambleSpec } from '../../core/types.ts';
import { getPuzzle } from '../../puzzles/index.ts';

/**
 * The scrambles of a spec and seed, from index `from` on, one at a time. Scramble i depends only on
 * (seed, i) through a forked stream per scramble, so a match replays exactly, a longer match extends a
 * shorter one, and a huge match can generate its scrambles batch by batch (skipping to `from` costs one
 * fork per skipped scramble, never a scramble).
 */
export function scrambleStream(spec: ScrambleSpec<string>, seed: string, walk: number | undefined, from = 0): Result<() => PuzzleState> {
  const found = getPuzzle(spec.kind);
  if (!found.ok) return found;
  const puzzle = found.value;
  const norm = puzzle.normalizeSpec(spec);
  if (!norm.ok) return norm;
  const root = createRng(seed);
  for (let i = 0; i < from; i++) root.fork();
  return {
    ok: true,
    value: () => {
      const rng = root.fork();
      return walk === undefined ? puzzle.scramble(norm.value, rng) : puzzle.walk(norm.value, walk, rng);
    },
  };
}

/** Generates `count` scrambles for a spec from one seed (see {@link scrambleStream}). */
export function generateScrambles(spec: ScrambleSpec<string>, count: number, seed: string, walk?: number): Result<PuzzleState[]> {
  const next = scrambleStream(spec, seed, walk);
  if (!next.ok) return next;
  return { ok: true, value: Array.from({ length: count }, () => next.value()) };
}
