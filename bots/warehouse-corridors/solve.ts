/** The solve callback of warehouse-corridors, separate from main.ts so tests can call it without a socket. */
import type { PuzzleState } from '../../src/core/types.ts';
import type { Capability } from '../../src/protocol/messages.ts';
import type { SolveAnswer } from '../../src/sdk/types.ts';
import { corridorsSolution } from './corridors.ts';
import { warehouseProblem } from '../shared/warehouse/validate.ts';

/** Largest board (n) this bot accepts: n = 400 is ~1.4e5 tiles and ~5e7 moves, streamed lazily. */
export const MAX_SIZE = 400;

/** What the bot announces. */
export const CAPABILITIES: readonly Capability[] = [{ kind: 'warehouse', maxSize: MAX_SIZE }];

/** Answers one solve request. The moves are a lazy iterable of ≤ 1 MB string chunks. */
export function solveCorridorsRequest(puzzle: PuzzleState): SolveAnswer {
  if (puzzle.kind !== 'warehouse') return { unsupported: 'warehouse-corridors only solves warehouse boards' };
  const problem = warehouseProblem(puzzle, MAX_SIZE);
  if (problem) return { giveUp: problem };
  return {
    moves: corridorsSolution(puzzle.size, puzzle.cells),
    optimal: false,
    note: 'blocks and corridors (UNAM thesis ch. 4): permutation cycles, 2x2 work area swap-in/out',
  };
}
