/**
 * pdb-beam's answer to one request, without the protocol: the anytime beam (bots/shared/anytime-beam.ts)
 * ranked by the additive pattern databases of the board's shape when they are loaded (5×5: 6-6-6-6, 4×4:
 * 6-6-3, each with the reflection), by Manhattan + linear conflict otherwise, until shortly before the
 * deadline. The answer is optimal, and says so, only when its length meets the lower bound.
 */
import type { SlidingState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { isSolvable } from '../../src/puzzles/sliding/parity.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/types.ts';
import { isPermutation, makeBoard } from '../../src/solvers/sliding/board.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { PatternValues } from '../../src/solvers/sliding/pdb-values.ts';
import { anytimeBeam, ManhattanEvaluator } from '../shared/anytime-beam.ts';
import type { StateEvaluator } from '../shared/layer-beam.ts';

/**
 * Largest board accepted, in cells: the beam keeps whole layers of whole states and its answers are as long
 * as its depth cap allows (1,000 moves), which suits boards up to 5×5; bigger ones are `unsupported`.
 */
export const MAX_CELLS = 25;

/** Tables by shape ("5x5"), or null while they are missing or being built. */
export type TableSource = (rows: number, cols: number) => readonly PatternTable[] | null;

/** The evaluator a board is searched with, and whether it came from pattern databases. */
export function evaluatorFor(rows: number, cols: number, tables: TableSource): StateEvaluator {
  const board = makeBoard(rows, cols);
  const t = tables(rows, cols);
  return t ? new PatternValues(board, t) : new ManhattanEvaluator(board);
}

/** Answers one sliding board by the deadline; `onAnswer` hears each better answer's length. */
export async function solvePdbBeam(state: SlidingState, ctx: SolveContext, tables: TableSource, onAnswer?: (length: number) => void): Promise<SolveAnswer> {
  const t0 = Date.now();
  const { rows, cols, tiles } = state;
  if (rows * cols > MAX_CELLS) return { unsupported: `boards of at most ${MAX_CELLS} cells` };
  if (!isPermutation(rows * cols, tiles)) return { giveUp: 'not a permutation of 0..R·C−1' };
  const board = makeBoard(rows, cols);
  if (!isSolvable(tiles, rows, cols)) return { giveUp: 'unsolvable (wrong parity)' };
  const ev = evaluatorFor(rows, cols, tables);
  // The lower bound: the evaluator's h of the start (both are admissible).
  const lowerBound = ev.full(Uint8Array.from({ length: rows * cols }, (_, t) => tiles.indexOf(t)), new Uint8Array(ev.width));
  // Stop 10% of the limit early (at least 20 ms, at most 1 s): the last run is abandoned, not awaited.
  const margin = Math.min(1000, Math.max(20, ctx.timeLimitMs * 0.1));
  const r = await anytimeBeam(board, tiles, ev, { deadline: ctx.deadline - margin, signal: ctx.signal, lowerBound, ...(onAnswer ? { onAnswer } : {}) });
  if (ctx.signal.aborted) return { giveUp: 'cancelled' };
  if (!r) return { giveUp: 'no answer found in time' };
  // Never send a wrong answer: the puzzle kind's own validator replays it first (cheap next to the search).
  if (sliding.replay(state, r.moves).verdict !== 'solved') throw new Error('pdb-beam: internal error, answer does not reach the goal');
  if (r.moves.length > ctx.maxMoves) return { giveUp: `answer of ${r.moves.length} moves exceeds maxMoves ${ctx.maxMoves}` };
  return {
    moves: r.moves,
    optimal: r.provedOptimal,
    nodes: r.nodes,
    computeMs: Date.now() - t0,
    note: `anytime beam, ${r.runs} runs up to width ${r.width}, ranked by ${ev.name}; lower bound ${lowerBound}${r.provedOptimal ? ', met: optimal' : ', not proved optimal'}`,
  };
}
