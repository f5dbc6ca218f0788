/**
 * Bot "hanoi-iterative" (seed 002's iterative method): standard Towers of Hanoi only, a whole tower from one
 * peg to another, up to 24 discs, streamed in ~1 MB chunks. Other starts/goals are declined.
 */
import { runBot } from '../../src/sdk/index.ts';
import { MAX_DISCS, solveHanoiIterative } from './solve.ts';

await runBot({
  name: 'hanoi-iterative',
  version: '1.0.0',
  capabilities: [{ kind: 'hanoi', maxSize: MAX_DISCS }],
  solve: (puzzle) => solveHanoiIterative(puzzle),
});
