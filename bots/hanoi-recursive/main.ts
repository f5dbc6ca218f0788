/**
 * Bot "hanoi-recursive" (seed 002): optimal Towers of Hanoi answers from any legal start to any legal goal,
 * up to 24 discs, streamed in ~1 MB chunks.
 */
import { runBot } from '../../src/sdk/index.ts';
import { MAX_DISCS, solveHanoiRecursive } from './solve.ts';

await runBot({
  name: 'hanoi-recursive',
  version: '1.0.0',
  capabilities: [{ kind: 'hanoi', maxSize: MAX_DISCS }],
  solve: (puzzle) => solveHanoiRecursive(puzzle),
});
