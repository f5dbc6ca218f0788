/** The hanoi-iterative bot's solve callback: standard towers only (all discs on one peg → all on another). */
import type { PuzzleState } from '../../src/core/types.ts';
import type { SolveAnswer } from '../../src/sdk/types.ts';
import { DEFAULT_CHUNK_CHARS, iterativeChunks } from './iterative.ts';

/** Most discs accepted (the referee's Hanoi limit). */
export const MAX_DISCS = 24;

/** The single peg (0..2) holding every disc of `state`, or −1 when the discs are spread or a letter is bad. */
function towerPeg(state: string): number {
  const p = state.charCodeAt(0) - 65;
  if (!(p >= 0 && p <= 2)) return -1;
  for (let i = 1; i < state.length; i++) if (state.charCodeAt(i) - 65 !== p) return -1;
  return p;
}

/** Solves a tower → tower puzzle in exactly 2^n − 1 moves; anything else is `unsupported` with a reason. */
export function solveHanoiIterative(puzzle: PuzzleState, chunkChars = DEFAULT_CHUNK_CHARS): SolveAnswer {
  if (puzzle.kind !== 'hanoi') return { unsupported: `hanoi-iterative solves hanoi only, not ${puzzle.kind}` };
  if (puzzle.pegs !== 3) return { unsupported: `only 3 pegs, got ${String(puzzle.pegs)}` };
  const n = puzzle.start.length;
  if (n === 0 || n > MAX_DISCS) return { unsupported: `1 to ${MAX_DISCS} discs, got ${n}` };
  const from = towerPeg(puzzle.start);
  const to = towerPeg(puzzle.goal);
  if (from < 0) return { unsupported: `the iterative method needs every disc on one peg at the start, got ${puzzle.start}` };
  if (to < 0 || puzzle.goal.length !== n) {
    return { unsupported: `the iterative method needs every disc on one peg in the goal, got ${puzzle.goal}` };
  }
  if (from === to) return { moves: '', optimal: true, note: 'already solved' };
  return {
    moves: iterativeChunks(n, from, to, chunkChars),
    optimal: true,
    note: `seed 002 iterative method: 2^${n} - 1 = ${2 ** n - 1} moves (the unique optimum)`,
  };
}
