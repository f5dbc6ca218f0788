/**
 * Bot "warehouse-corridors": the thesis's blocks-and-corridors algorithm for the warehouse puzzle
 * (see corridors.ts and swap-script.ts). No flags. Logs only to stderr (through the SDK).
 */
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import { CAPABILITIES, solveCorridorsRequest } from './solve.ts';

void runBot({
  name: 'warehouse-corridors',
  version: '1.0.0',
  capabilities: CAPABILITIES,
  solve: solveCorridorsRequest,
  // The JIT's first pass in the untimed warm-up (n up to 100).
  prepare: warmUpBySolving(solveCorridorsRequest, { maxSize: 100 }),
});
