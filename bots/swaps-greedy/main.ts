/** Bot "swaps-greedy" (seed 004): optimal swap-puzzle answers, n − cycles swaps, streamed in 100k-pair chunks. */
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import { solveSwapsGreedy } from './solve.ts';

void runBot({
  name: 'swaps-greedy',
  version: '1.0.0',
  capabilities: [{ kind: 'swaps' }],
  solve: (puzzle) => solveSwapsGreedy(puzzle),
  // The JIT's first pass in the untimed warm-up (boards up to 500x500).
  prepare: warmUpBySolving((puzzle) => solveSwapsGreedy(puzzle), { maxSize: 500 }),
});
