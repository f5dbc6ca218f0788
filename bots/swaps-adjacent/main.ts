/** Bot "swaps-adjacent": a naive baseline, insertion sort by adjacent swaps; gives up past the move limit. */
import { runBot, sideWithin, warmUpBySolving } from '../../src/sdk/index.ts';
import { MAX_PIECES, solveSwapsAdjacent } from './solve.ts';

void runBot({
  name: 'swaps-adjacent',
  version: '1.0.0',
  capabilities: [{ kind: 'swaps', maxSize: sideWithin(MAX_PIECES) }],
  solve: (puzzle, ctx) => solveSwapsAdjacent(puzzle, ctx),
  // The JIT's first pass in the untimed warm-up; bubble sort grows with the square of the pieces, so only up to 50x50.
  prepare: warmUpBySolving((puzzle, ctx) => solveSwapsAdjacent(puzzle, ctx), { maxSize: 50 }),
});
