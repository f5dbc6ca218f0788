/** The swaps-adjacent bot's solve callback: counts inversions first and gives up rather than exceed maxMoves. */
import type { PuzzleState } from '../../src/core/types.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/types.ts';
import { swapsDistance } from '../../src/puzzles/swaps/cycles.ts';
import { toPermutation } from '../shared/permutation.ts';
import { DEFAULT_CHUNK_PAIRS, adjacentSwapChunks, countInversions } from './adjacent.ts';

/** Most pieces accepted: inversions grow as n², so larger boards are pointless for a baseline. */
export const MAX_PIECES = 10_000;

/** Solves by adjacent swaps (exactly inv(π) of them), or gives up when that exceeds `ctx.maxMoves`. */
export function solveSwapsAdjacent(
  puzzle: PuzzleState,
  ctx: Pick<SolveContext, 'maxMoves'>,
  chunkPairs = DEFAULT_CHUNK_PAIRS,
): SolveAnswer {
  if (puzzle.kind !== 'swaps') return { unsupported: `swaps-adjacent solves swaps only, not ${puzzle.kind}` };
  const n = puzzle.rows * puzzle.cols;
  if (n > MAX_PIECES) return { unsupported: `at most ${MAX_PIECES} pieces, got ${n}` };
  const tiles = toPermutation(puzzle.tiles);
  if (!tiles || tiles.length !== n) return { giveUp: 'tiles are not a permutation of 1..rows*cols' };
  const inversions = countInversions(tiles);
  if (inversions > ctx.maxMoves) {
    return { giveUp: `adjacent swaps need ${inversions} moves (the inversions), over the limit of ${ctx.maxMoves}` };
  }
  // Optimal only by coincidence (every cycle a run of neighbours); say so exactly rather than never.
  const optimum = swapsDistance(tiles);
  return {
    moves: adjacentSwapChunks(tiles, chunkPairs),
    optimal: inversions === optimum,
    note: `baseline: insertion sort by adjacent swaps, ${inversions} swaps (the inversion count); the optimum is ${optimum}`,
  };
}
