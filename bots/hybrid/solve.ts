/**
 * The bot's solve callback without the protocol: checks the request, gives the solver its time budget and
 * shapes the answer.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/types.ts';
import type { HybridSolver } from './hybrid.ts';

/** Largest board accepted, in cells (as the constructive bot, which starts the big ones). */
export const MAX_CELLS = 1_000_000;

/** Answers one request with `solver`; other puzzle kinds are unsupported. */
export async function hybridAnswer(solver: HybridSolver, puzzle: PuzzleState, ctx: SolveContext): Promise<SolveAnswer> {
  if (puzzle.kind !== 'sliding') return { unsupported: `hybrid solves sliding puzzles only, not ${puzzle.kind}` };
  const parsed = sliding.parse(puzzle);
  if (!parsed.ok) return { giveUp: parsed.reason };
  const { rows, cols, tiles } = parsed.value;
  if (rows * cols > MAX_CELLS) return { unsupported: `boards of at most ${MAX_CELLS} cells` };
  const started = Date.now();
  // Aim to answer within 60% of the limit (at most 8 s): room for the final block and for a busy machine.
  const budgetMs = Math.min(8000, ctx.timeLimitMs * 0.6);
  const margin = Math.min(500, Math.max(20, ctx.timeLimitMs * 0.05));
  const r = await solver.solve(rows, cols, tiles, { deadline: ctx.deadline - margin, budgetMs, signal: ctx.signal });
  if ('giveUp' in r) return r;
  if (r.moves.length > ctx.maxMoves) return { giveUp: `solution of ${r.moves.length} moves exceeds maxMoves ${ctx.maxMoves}` };
  return { moves: r.moves, optimal: r.optimal, nodes: r.nodes, computeMs: Date.now() - started, note: r.note };
}
