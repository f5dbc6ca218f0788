/**
 * The bot's solve callback without the protocol: validates the puzzle, runs the constructive solver and
 * shapes the answer (one string when short, ≤ 1 MB string chunks when long).
 */
import type { PuzzleState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/types.ts';
import { solveConstructive } from '../shared/constructive/constructive.ts';

/** Longest chunk streamed, in moves (one character each). */
export const CHUNK_MOVES = 1 << 20;
const NOTE = 'constructive (thesis ch. 3), not optimal';

/** Solves a sliding puzzle constructively; other kinds are unsupported. */
export function constructiveAnswer(puzzle: PuzzleState, ctx: Pick<SolveContext, 'deadline' | 'maxMoves' | 'signal'>): SolveAnswer {
  if (puzzle.kind !== 'sliding') return { unsupported: `constructive solves sliding puzzles only, not ${puzzle.kind}` };
  const parsed = sliding.parse(puzzle);
  if (!parsed.ok) return { giveUp: parsed.reason };
  const s = parsed.value;
  const started = performance.now();
  // Polled between rows/columns: cheap, and bounds the wasted work after a cancel to one line.
  const shouldStop = (): boolean => ctx.signal.aborted || Date.now() > ctx.deadline;
  const bd = solveConstructive(s.rows, s.cols, s.tiles, { shouldStop });
  if (!bd) return { giveUp: 'deadline passed or cancelled' };
  if (bd.moves.length > ctx.maxMoves) {
    return { giveUp: `solution has ${bd.moves.length} moves, more than the limit ${ctx.maxMoves}` };
  }
  const chunks = bd.moves.toChunks(CHUNK_MOVES);
  const info = { optimal: false, computeMs: Math.round(performance.now() - started), note: NOTE };
  return { moves: chunks.length === 1 ? chunks[0] : chunks, ...info };
}
