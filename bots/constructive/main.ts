/**
 * Bot "constructive": the thesis's (n²−1)-puzzle algorithm (seed 000, chapter 3) for sliding boards of
 * any shape, streaming long solutions in chunks. Logs go to stderr only (the SDK's concern).
 */
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import type { BotDefinition } from '../../src/sdk/index.ts';
import { constructiveAnswer } from './solve.ts';

const solve: BotDefinition['solve'] = (puzzle, ctx) => constructiveAnswer(puzzle, ctx);

void runBot({
  name: 'constructive',
  version: '1.0.0',
  capabilities: [{ kind: 'sliding', maxSize: 1000 }],
  solve,
  // A cold process took 230-480 ms on its first 3x3 against ~2 ms after: the JIT. One throwaway solve of the
  // class in the untimed warm-up pays that; boards over 100x100 take seconds anyway, and are not warmed.
  prepare: warmUpBySolving(solve, { maxSize: 100 }),
});
