/** The hanoi-recursive bot's solve callback: plan once (O(discs)), then stream the moves in chunks. */
import type { PuzzleState } from '../../src/core/types.ts';
import type { SolveAnswer } from '../../src/sdk/types.ts';
import { DEFAULT_CHUNK_CHARS, planChunks } from './chunks.ts';
import { parsePegs, planHanoi } from './plan.ts';

/** Most discs accepted (the referee's Hanoi limit). */
export const MAX_DISCS = 24;

/** Solves any legal start → any legal goal optimally; moves are a generator of text chunks. */
export function solveHanoiRecursive(puzzle: PuzzleState, chunkChars = DEFAULT_CHUNK_CHARS): SolveAnswer {
  if (puzzle.kind !== 'hanoi') return { unsupported: `hanoi-recursive solves hanoi only, not ${puzzle.kind}` };
  if (puzzle.pegs !== 3) return { unsupported: `only 3 pegs, got ${String(puzzle.pegs)}` };
  const n = puzzle.start.length;
  if (n > MAX_DISCS) return { unsupported: `at most ${MAX_DISCS} discs, got ${n}` };
  const start = parsePegs(puzzle.start);
  const goal = parsePegs(puzzle.goal);
  if (!start || !goal || goal.length !== n) return { giveUp: 'start and goal must be equal-length strings of A, B, C' };
  const t0 = performance.now();
  const plan = planHanoi(start, goal);
  return {
    moves: planChunks(plan, chunkChars),
    optimal: true,
    computeMs: Math.round(performance.now() - t0),
    note: `${plan.moves} moves: largest differing disc moved once or twice, whichever is shorter`,
  };
}
