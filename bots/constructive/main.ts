/**
 * Bot "constructive": the thesis's (n²−1)-puzzle algorithm (seed 000, chapter 3) for sliding boards of
 * any shape, streaming long solutions in chunks. Logs go to stderr only (the SDK's concern).
 */
import { runBot } from '../../src/sdk/index.ts';
import { constructiveAnswer } from './solve.ts';

await runBot({
  name: 'constructive',
  version: '1.0.0',
  capabilities: [{ kind: 'sliding', maxSize: 1_000_000 }],
  solve: (puzzle, ctx) => constructiveAnswer(puzzle, ctx),
});
