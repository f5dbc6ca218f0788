/** The solve callback of warehouse-simple, separate from main.ts so tests can call it without a socket. */
import type { PuzzleState } from '../../src/core/types.ts';
import type { Capability } from '../../src/protocol/messages.ts';
import type { SolveAnswer } from '../../src/sdk/types.ts';
import { warehouseProblem } from '../shared/warehouse/validate.ts';
import { simpleSolution } from './greedy-swaps.ts';

/** Largest board (n) accepted: BFS routing per trip is O(corridor cells), fine up to n = 100. */
export const MAX_SIZE = 100;

/** What the bot announces. */
export const CAPABILITIES: readonly Capability[] = [{ kind: 'warehouse', maxSize: MAX_SIZE }];

/** Answers one solve request with a lazy iterable of ≤ 1 MB string chunks. */
export function solveSimpleRequest(puzzle: PuzzleState): SolveAnswer {
  if (puzzle.kind !== 'warehouse') return { unsupported: 'warehouse-simple only solves warehouse boards' };
  const problem = warehouseProblem(puzzle, MAX_SIZE);
  if (problem) return { giveUp: problem };
  return {
    moves: simpleSolution(puzzle.size, puzzle.cells),
    optimal: false,
    note: 'baseline: greedy swaps in goal order, straight tunnels into blocks, BFS corridor routes',
  };
}
