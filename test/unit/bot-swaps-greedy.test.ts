import { describe, expect, it } from 'vitest';
import { createRng, shuffleInPlace } from '../../src/core/rng.ts';
import type { SwapsState } from '../../src/core/types.ts';
import { swaps } from '../../src/puzzles/swaps/index.ts';
import { toPermutation } from '../../bots/shared/permutation.ts';
import { greedySwapChunks } from '../../bots/swaps-greedy/greedy.ts';
import { solveSwapsGreedy } from '../../bots/swaps-greedy/solve.ts';

/** Test-local oracle: n − cycles, cycles counted by following "piece → its home" with a Set. */
function nMinusCycles(tiles: readonly number[]): number {
  const visited = new Set<number>();
  let cycles = 0;
  for (let start = 0; start < tiles.length; start++) {
    if (visited.has(start)) continue;
    cycles++;
    let cell = start;
    while (!visited.has(cell)) {
      visited.add(cell);
      cell = tiles[cell] - 1;
    }
  }
  return tiles.length - cycles;
}

/** Test-local oracle for tiny boards: BFS over all permutations, any two pieces swapped per move. */
function bfsDistances(n: number): Map<string, number> {
  const goal = Array.from({ length: n }, (_, i) => i + 1);
  const dist = new Map<string, number>([[goal.join(','), 0]]);
  const queue = [goal];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    const d = dist.get(s.join(','))!;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const t = [...s];
        [t[i], t[j]] = [t[j], t[i]];
        const key = t.join(',');
        if (!dist.has(key)) {
          dist.set(key, d + 1);
          queue.push(t);
        }
      }
    }
  }
  return dist;
}

function greedyMoves(tiles: readonly number[], chunkPairs?: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const chunk of greedySwapChunks(toPermutation(tiles)!, chunkPairs)) out.push(...chunk);
  return out;
}

describe('swaps-greedy', () => {
  it('uses the BFS minimum on every permutation of 2 to 6 pieces (1×n boards)', () => {
    for (let n = 2; n <= 6; n++) {
      const failures: string[] = [];
      for (const [key, d] of bfsDistances(n)) {
        const tiles = key.split(',').map(Number);
        const moves = greedyMoves(tiles);
        const state: SwapsState = { kind: 'swaps', rows: 1, cols: n, tiles };
        if (moves.length !== d || swaps.replay(state, moves).verdict !== 'solved') failures.push(key);
      }
      expect(failures).toEqual([]);
    }
  });

  it('uses exactly n - cycles swaps and replays to the goal on random boards of many sizes', () => {
    const rng = createRng('swaps-greedy');
    for (let i = 0; i < 400; i++) {
      const rows = 1 + rng.int(30);
      const cols = 1 + rng.int(30);
      const tiles = shuffleInPlace(Array.from({ length: rows * cols }, (_, k) => k + 1), rng);
      const moves = greedyMoves(tiles, 1 + rng.int(50));
      expect(moves.length).toBe(nMinusCycles(tiles));
      expect(swaps.replay({ kind: 'swaps', rows, cols, tiles }, moves).verdict).toBe('solved');
    }
  });

  it("solves the seed's 3x3 example in 5 swaps", () => {
    // Seed 004, Figure 1: solved by (6,7), (2,4), (1,5), (3,8), (5,9). The picture is lost, so the start is
    // rebuilt by undoing those swaps from the goal.
    const tiles = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    for (const [x, y] of [[5, 9], [3, 8], [1, 5], [2, 4], [6, 7]]) {
      const i = tiles.indexOf(x);
      const j = tiles.indexOf(y);
      [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
    }
    const moves = greedyMoves(tiles);
    expect(moves.length).toBe(5);
    expect(nMinusCycles(tiles)).toBe(5);
    expect(swaps.replay({ kind: 'swaps', rows: 3, cols: 3, tiles }, moves).verdict).toBe('solved');
  });

  it('streams a 300x300 board in chunks of at most the chunk size', () => {
    const rng = createRng('swaps-big');
    const tiles = shuffleInPlace(Array.from({ length: 90_000 }, (_, k) => k + 1), rng);
    const replayer = swaps.replayer({ kind: 'swaps', rows: 300, cols: 300, tiles });
    let count = 0;
    for (const chunk of greedySwapChunks(toPermutation(tiles)!, 10_000)) {
      expect(chunk.length).toBeLessThanOrEqual(10_000);
      expect(replayer.push(chunk)).toBeNull();
      count += chunk.length;
    }
    expect(count).toBe(nMinusCycles(tiles));
    expect(replayer.finish().verdict).toBe('solved');
  });

  it('answers optimal: true, declines other kinds and gives up on a non-permutation', () => {
    expect(solveSwapsGreedy({ kind: 'swaps', rows: 1, cols: 3, tiles: [2, 3, 1] })).toMatchObject({ optimal: true });
    expect(solveSwapsGreedy({ kind: 'hanoi', pegs: 3, start: 'A', goal: 'C' })).toHaveProperty('unsupported');
    expect(solveSwapsGreedy({ kind: 'swaps', rows: 1, cols: 3, tiles: [2, 2, 1] })).toHaveProperty('giveUp');
  });
});
