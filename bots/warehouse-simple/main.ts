/**
 * Bot "warehouse-simple": a baseline for the warehouse puzzle to play against warehouse-corridors
 * (see greedy-swaps.ts). No flags. Logs only to stderr (through the SDK).
 */
import { runBot, warmUpBySolving } from '../../src/sdk/index.ts';
import { CAPABILITIES, solveSimpleRequest } from './solve.ts';

void runBot({
  name: 'warehouse-simple',
  version: '1.0.0',
  capabilities: CAPABILITIES,
  solve: solveSimpleRequest,
  // The JIT's first pass in the untimed warm-up (n up to 100).
  prepare: warmUpBySolving(solveSimpleRequest, { maxSize: 100 }),
});
