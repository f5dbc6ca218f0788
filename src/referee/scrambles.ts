import { createRng } from '../core/rng.ts';
import type { PuzzleState, Result, ScrambleSpec } from '../core/types.ts';
import { getPuzzle } from '../puzzles/index.ts';

/**
 * Generates `count` scrambles for a spec from one seed. Scramble i depends only on (seed, i) through a
 * forked stream per scramble, so a match replays exactly and a longer match extends a shorter one.
 */
export function generateScrambles(
  spec: ScrambleSpec<string>,
  count: number,
  seed: string,
  walk?: number,
): Result<PuzzleState[]> {
  const found = getPuzzle(spec.kind);
  if (!found.ok) return found;
  const puzzle = found.value;
  const norm = puzzle.normalizeSpec(spec);
  if (!norm.ok) return norm;
  const root = createRng(seed);
  const out: PuzzleState[] = [];
  for (let i = 0; i < count; i++) {
    const rng = root.fork();
    out.push(walk === undefined ? puzzle.scramble(norm.value, rng) : puzzle.walk(norm.value, walk, rng));
  }
  return { ok: true, value: out };
}
