import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { solveConstructive } from '../../bots/shared/constructive/constructive.ts';

/** Theorem 2's bound on the thesis algorithm's moves for an n×n board (n ≥ 4). */
function thesisBound(n: number): number {
  return 5 * n ** 3 - (17 * n * n) / 2 + (31 * n) / 2 - 71;
}

function solve(s: SlidingState): string {
  const bd = solveConstructive(s.rows, s.cols, s.tiles);
  if (!bd) throw new Error('stopped without a stop request');
  return bd.moves.toString();
}

/** Solves `count` uniformly scrambled boards and checks each with the puzzle's own replayer. */
function checkRandom(rows: number, cols: number, count: number, bound?: number): void {
  const rng = createRng(`constructive ${rows}x${cols}`);
  for (let i = 0; i < count; i++) {
    const s = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
    const moves = solve(s);
    const out = sliding.replay(s, moves);
    expect(out, `board ${i}: ${JSON.stringify(s.tiles)}`).toEqual({ verdict: 'solved', moves: moves.length });
    if (bound !== undefined) expect(moves.length).toBeLessThanOrEqual(bound);
    // The cancellation pass leaves no move followed by its inverse.
    expect(moves).not.toMatch(/UD|DU|LR|RL/);
  }
}

describe('solveConstructive', () => {
  for (const n of [4, 5, 6, 7, 8]) {
    it(`solves 200 random ${n}x${n} boards within the Theorem 2 bound`, () => {
      checkRandom(n, n, 200, thesisBound(n));
    });
  }

  for (const [n, count] of [
    [10, 10],
    [20, 3],
    [30, 2],
    [100, 1],
  ] as const) {
    it(`solves ${count} random ${n}x${n} boards within the Theorem 2 bound`, () => {
      checkRandom(n, n, count, thesisBound(n));
    });
  }

  for (const [rows, cols, count] of [
    [2, 2, 50],
    [2, 3, 50],
    [3, 2, 50],
    [3, 3, 50],
    [2, 4, 50],
    [4, 2, 50],
    [2, 5, 100],
    [5, 2, 100],
    [2, 9, 50],
    [9, 2, 50],
    [3, 4, 100],
    [3, 7, 100],
    [5, 3, 100],
    [10, 4, 50],
    [4, 10, 50],
    [7, 12, 20],
    [2, 30, 20],
    [25, 3, 20],
  ] as const) {
    it(`solves ${count} random ${rows}x${cols} boards`, () => {
      checkRandom(rows, cols, count);
    });
  }

  it('answers the solved board with no moves', () => {
    for (const [rows, cols] of [
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 7],
      [12, 3],
    ] as const) {
      expect(solve(sliding.goal({ kind: 'sliding', rows, cols }))).toBe('');
    }
  });

  it('answers a board one move from the goal with that move', () => {
    for (const [rows, cols] of [
      [4, 4],
      [6, 3],
      [3, 8],
    ] as const) {
      const goal = sliding.goal({ kind: 'sliding', rows, cols });
      const n = rows * cols;
      for (const [from, back] of [
        [n - 2, 'R'],
        [n - 1 - cols, 'D'],
      ] as const) {
        const tiles = [...goal.tiles];
        tiles[n - 1] = tiles[from];
        tiles[from] = 0;
        expect(solve({ ...goal, tiles })).toBe(back);
      }
    }
  });

  it('solves boards a short random walk from the goal', () => {
    const rng = createRng('constructive walks');
    for (const [rows, cols] of [
      [4, 4],
      [6, 6],
      [3, 9],
      [8, 5],
    ] as const) {
      for (const k of [2, 3, 5, 10, 30, 100]) {
        const s = sliding.walk({ kind: 'sliding', rows, cols }, k, rng);
        expect(sliding.replay(s, solve(s)).verdict).toBe('solved');
      }
    }
  });

  it('stops between lines when asked and returns null', () => {
    const s = sliding.scramble({ kind: 'sliding', rows: 12, cols: 12 }, createRng('stop'));
    let polls = 0;
    expect(solveConstructive(12, 12, s.tiles, { shouldStop: () => ++polls > 3 })).toBeNull();
    expect(polls).toBe(4);
  });

  it('rejects an unsolvable board', () => {
    const goal = sliding.goal({ kind: 'sliding', rows: 4, cols: 4 });
    const tiles = [...goal.tiles];
    [tiles[0], tiles[1]] = [tiles[1], tiles[0]];
    expect(() => solveConstructive(4, 4, tiles)).toThrow(RangeError);
  });
});
