/** Bot "swaps-adjacent": a naive baseline, insertion sort by adjacent swaps; gives up past the move limit. */
import { runBot } from '../../src/sdk/index.ts';
import { MAX_PIECES, solveSwapsAdjacent } from './solve.ts';

await runBot({
  name: 'swaps-adjacent',
  version: '1.0.0',
  capabilities: [{ kind: 'swaps', maxSize: MAX_PIECES }],
  solve: (puzzle, ctx) => solveSwapsAdjacent(puzzle, ctx),
});
