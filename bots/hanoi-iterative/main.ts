/**
 * Bot "hanoi-iterative" (seed 002's iterative method): standard Towers of Hanoi only, a whole tower from one
 * peg to another, up to 24 discs, streamed in ~1 MB chunks. Other starts/goals are declined.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import { MAX_DISCS, solveHanoiIterative } from './solve.ts';

/** The warm-up's throwaway: the one kind of state this bot takes, a whole tower, A to C (up to 20 discs). */
function tower(puzzleClass: string): PuzzleState | undefined {
  const m = /^hanoi (\d+)$/.exec(puzzleClass);
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= 20 ? { kind: 'hanoi', pegs: 3, start: 'A'.repeat(n), goal: 'C'.repeat(n) } : undefined;
}

void runBot({
  name: 'hanoi-iterative',
  version: '1.0.0',
  capabilities: [{ kind: 'hanoi', maxSize: MAX_DISCS }],
  solve: (puzzle) => solveHanoiIterative(puzzle),
  // The move generator compiled by the JIT in the untimed warm-up (towers over 20 discs take long anyway).
  prepare: warmUpBySolving((puzzle) => solveHanoiIterative(puzzle), { puzzle: tower }),
});
