import { describe, expect, it } from 'vitest';
import { createRng, shuffleInPlace } from '../../src/core/rng.ts';
import { swaps } from '../../src/puzzles/swaps/index.ts';
import { adjacentSwapChunks, countInversions } from '../../bots/swaps-adjacent/adjacent.ts';
import { solveSwapsAdjacent } from '../../bots/swaps-adjacent/solve.ts';

/** Test-local oracle: inversions by the O(n²) definition. */
function inversions(a: readonly number[]): number {
  let inv = 0;
  for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if (a[i] > a[j]) inv++;
  return inv;
}

describe('swaps-adjacent', () => {
  it('counts inversions like the O(n²) definition', () => {
    const rng = createRng('inversions');
    for (let i = 0; i < 300; i++) {
      const a = shuffleInPlace(Array.from({ length: rng.int(200) }, (_, k) => k + 1), rng);
      expect(countInversions(a)).toBe(inversions(a));
    }
  });

  it('uses exactly inv(π) swaps, each of two pieces adjacent in row-major order, and solves the board', () => {
    const rng = createRng('swaps-adjacent');
    for (let i = 0; i < 200; i++) {
      const rows = 1 + rng.int(12);
      const cols = 1 + rng.int(12);
      const tiles = shuffleInPlace(Array.from({ length: rows * cols }, (_, k) => k + 1), rng);
      const work = [...tiles];
      const pos = new Map(work.map((p, k) => [p, k]));
      let count = 0;
      let adjacent = true;
      const replayer = swaps.replayer({ kind: 'swaps', rows, cols, tiles });
      for (const chunk of adjacentSwapChunks(Uint32Array.from(tiles), 1 + rng.int(40))) {
        for (const [x, y] of chunk) {
          const px = pos.get(x)!;
          const py = pos.get(y)!;
          if (Math.abs(px - py) !== 1) adjacent = false;
          pos.set(x, py);
          pos.set(y, px);
        }
        expect(replayer.push(chunk)).toBeNull();
        count += chunk.length;
      }
      expect(adjacent).toBe(true);
      expect(count).toBe(inversions(tiles));
      expect(replayer.finish().verdict).toBe('solved');
    }
  });

  it('gives up with the reason when the inversions exceed maxMoves', () => {
    const tiles = Array.from({ length: 100 }, (_, k) => 100 - k); // 4950 inversions
    const puzzle = { kind: 'swaps' as const, rows: 10, cols: 10, tiles };
    const a = solveSwapsAdjacent(puzzle, { maxMoves: 4949 });
    expect(a).toHaveProperty('giveUp');
    expect((a as { giveUp: string }).giveUp).toMatch(/4950 moves/);
    expect(solveSwapsAdjacent(puzzle, { maxMoves: 4950 })).toMatchObject({ optimal: false });
  });

  it('claims optimal only when the inversions equal n - cycles', () => {
    expect(solveSwapsAdjacent({ kind: 'swaps', rows: 1, cols: 4, tiles: [2, 1, 4, 3] }, { maxMoves: 100 })).toMatchObject({ optimal: true });
    expect(solveSwapsAdjacent({ kind: 'swaps', rows: 1, cols: 3, tiles: [3, 2, 1] }, { maxMoves: 100 })).toMatchObject({ optimal: false });
  });

  it('declines boards over 10,000 pieces and other kinds', () => {
    const big = { kind: 'swaps' as const, rows: 101, cols: 100, tiles: Array.from({ length: 10_100 }, (_, k) => k + 1) };
    expect(solveSwapsAdjacent(big, { maxMoves: 1e9 })).toHaveProperty('unsupported');
    expect(solveSwapsAdjacent({ kind: 'hanoi', pegs: 3, start: 'A', goal: 'C' }, { maxMoves: 10 })).toHaveProperty('unsupported');
  });
});
