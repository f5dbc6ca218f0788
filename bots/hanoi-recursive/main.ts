/**
 * Bot "hanoi-recursive" (seed 002): optimal Towers of Hanoi answers from any legal start to any legal goal,
 * up to 24 discs, streamed in ~1 MB chunks.
 */
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import { MAX_DISCS, solveHanoiRecursive } from './solve.ts';

void runBot({
  name: 'hanoi-recursive',
  version: '1.0.0',
  capabilities: [{ kind: 'hanoi', maxSize: MAX_DISCS }],
  solve: (puzzle) => solveHanoiRecursive(puzzle),
  // The move generator compiled by the JIT in the untimed warm-up (towers over 20 discs take long anyway).
  prepare: warmUpBySolving((puzzle) => solveHanoiRecursive(puzzle), { maxSize: 20 }),
});
