/** The swaps-greedy bot's solve callback. */
import type { PuzzleState } from '../../src/core/types.ts';
import type { SolveAnswer } from '../../src/sdk/types.ts';
import { swapsDistance } from '../../src/puzzles/swaps/cycles.ts';
import { toPermutation } from '../shared/permutation.ts';
import { DEFAULT_CHUNK_PAIRS, greedySwapChunks } from './greedy.ts';

/** Solves a swap puzzle optimally (n − cycles swaps); moves are a generator of pair arrays. */
export function solveSwapsGreedy(puzzle: PuzzleState, chunkPairs = DEFAULT_CHUNK_PAIRS): SolveAnswer {
  if (puzzle.kind !== 'swaps') return { unsupported: `swaps-greedy solves swaps only, not ${puzzle.kind}` };
  const tiles = toPermutation(puzzle.tiles);
  if (!tiles || tiles.length !== puzzle.rows * puzzle.cols) return { giveUp: 'tiles are not a permutation of 1..rows*cols' };
  const swaps = swapsDistance(tiles);
  return {
    moves: greedySwapChunks(tiles, chunkPairs),
    optimal: true,
    note: `seed 004 greedy: n - cycles = ${tiles.length} - ${tiles.length - swaps} = ${swaps} swaps (optimal)`,
  };
}
