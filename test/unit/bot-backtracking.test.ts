import { describe, expect, it } from 'vitest';
import { createRng, shuffleInPlace } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { depthCap } from '../../bots/backtracking/board.ts';
import { isSolvable } from '../../src/puzzles/sliding/parity.ts';
import { searchSliding } from '../../bots/backtracking/search.ts';
import { solveBacktracking } from '../../bots/backtracking/solve.ts';

/** `perDepth` random 3×3 states (all, if fewer) for every optimal depth 0..31: reservoir sampling over all 9! boards. */
function statesByDepth(perDepth: number): number[][][] {
  const table = slidingTable(3, 3);
  const buckets: number[][][] = Array.from({ length: 32 }, () => []);
  const counts = new Array<number>(32).fill(0);
  const rng = createRng('backtracking-depths');
  const perm = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const visit = (k: number): void => {
    if (k === 9) {
      const d = table.distance(perm);
      if (d < 0) return;
      const seen = ++counts[d];
      if (buckets[d].length < perDepth) buckets[d].push([...perm]);
      else {
        const j = rng.int(seen);
        if (j < perDepth) buckets[d][j] = [...perm];
      }
      return;
    }
    for (let i = k; i < 9; i++) {
      [perm[k], perm[i]] = [perm[i], perm[k]];
      visit(k + 1);
      [perm[k], perm[i]] = [perm[i], perm[k]];
    }
  };
  visit(0);
  return buckets;
}

describe('backtracking search', () => {
  const buckets = statesByDepth(6);

  it('has test states at every depth 0..31, including both 31-move states', () => {
    for (let d = 0; d <= 31; d++) expect(buckets[d].length, `depth ${d}`).toBeGreaterThan(0);
    expect(buckets[31].length).toBe(2);
  });

  for (const strategy of ['ida', 'dfbnb'] as const) {
    it(`${strategy}: returns the true minimum and a legal solution for 3x3 states of every depth`, () => {
      for (let d = 0; d <= 31; d++) {
        for (const tiles of buckets[d]) {
          const r = searchSliding(3, 3, Uint8Array.from(tiles), { strategy });
          expect(r.moves, `${tiles.join(' ')}`).not.toBeNull();
          expect(r.moves!.length).toBe(d);
          const start = { kind: 'sliding' as const, rows: 3, cols: 3, tiles };
          expect(sliding.replay(start, r.moves!).verdict).toBe('solved');
        }
      }
    });
  }

  it.each([
    [2, 2],
    [2, 3],
    [3, 2],
    [2, 4],
    [4, 2],
  ])('is optimal on random %ix%i scrambles (both strategies)', (rows, cols) => {
    const table = slidingTable(rows, cols);
    const rng = createRng(`backtracking-${rows}x${cols}`);
    for (let i = 0; i < 40; i++) {
      const state = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
      for (const strategy of ['ida', 'dfbnb'] as const) {
        const r = searchSliding(rows, cols, Uint8Array.from(state.tiles), { strategy });
        expect(r.moves!.length).toBe(table.distance(state.tiles));
        expect(sliding.replay(state, r.moves!).verdict).toBe('solved');
      }
    }
  });

  it('with seed pruning finds only legal, never shorter answers, and sometimes none', () => {
    const table = slidingTable(3, 3);
    const rng = createRng('seed-pruning');
    let found = 0;
    let missed = 0;
    for (let i = 0; i < 200; i++) {
      const state = sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, rng);
      const r = searchSliding(3, 3, Uint8Array.from(state.tiles), { seedPruning: true, strategy: 'dfbnb' });
      if (r.moves === null) {
        missed++;
        continue;
      }
      found++;
      expect(r.moves.length).toBeGreaterThanOrEqual(table.distance(state.tiles));
      expect(r.moves.length).toBeLessThanOrEqual(depthCap(3, 3));
      expect(sliding.replay(state, r.moves).verdict).toBe('solved');
    }
    expect(missed).toBeGreaterThan(0); // the cut is not admissible: it loses solutions
    expect(found + missed).toBe(200);
  });

  it('calls onVisit with the blank-included Manhattan distance of each node', () => {
    const seen: Array<[number, number, string]> = [];
    searchSliding(3, 3, Uint8Array.from([1, 2, 3, 4, 5, 6, 0, 7, 8]), {
      onVisit: (g, h, b) => seen.push([g, h, b.join('')]),
    });
    expect(seen[0]).toEqual([0, 4, '123456078']);
    expect(seen[seen.length - 1]).toEqual([2, 0, '123456780']);
  });

  it('stops at the deadline', () => {
    const r = searchSliding(3, 3, Uint8Array.from([8, 6, 7, 2, 5, 4, 3, 0, 1]), { deadline: Date.now() - 1 });
    expect(r.stopped).toBe(true);
    expect(r.moves).toBeNull();
  });
});

describe('isSolvable (the one sliding rule, src/puzzles) on the shapes the backtracking bot takes', () => {
  it('agrees with the BFS table on every board of 2x3 and 3x2', () => {
    for (const [rows, cols] of [
      [2, 3],
      [3, 2],
    ]) {
      const table = slidingTable(rows, cols);
      const rng = createRng('solvable');
      const tiles = [0, 1, 2, 3, 4, 5];
      for (let i = 0; i < 2000; i++) {
        shuffleInPlace(tiles, rng);
        expect(isSolvable(Uint8Array.from(tiles), rows, cols)).toBe(table.distance(tiles) >= 0);
      }
    }
  });

  it('accepts a single row only when the tiles are in order', () => {
    expect(isSolvable(Uint8Array.from([1, 0, 2, 3]), 1, 4)).toBe(true);
    expect(isSolvable(Uint8Array.from([2, 0, 1, 3]), 1, 4)).toBe(false);
  });
});

describe('backtracking solver', () => {
  it('answers optimal: true normally and optimal: false with a note under seed pruning', () => {
    const puzzle = { kind: 'sliding' as const, rows: 3, cols: 3, tiles: [4, 1, 3, 7, 0, 6, 5, 2, 8] };
    expect(solveBacktracking(puzzle, {})).toMatchObject({ moves: 'DLUURDDR', optimal: true });
    const seed = solveBacktracking(puzzle, {}, { seedPruning: true });
    expect(seed).toMatchObject({ optimal: false });
    expect((seed as { note: string }).note).toMatch(/may not be optimal/);
  });

  it('declines big boards and other kinds, gives up on unsolvable boards and on timeouts', () => {
    const fifteen = { kind: 'sliding' as const, rows: 2, cols: 5, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0] };
    expect(solveBacktracking(fifteen, {})).toHaveProperty('unsupported');
    expect(solveBacktracking({ kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] }, {})).toHaveProperty('unsupported');
    expect(solveBacktracking({ kind: 'sliding', rows: 3, cols: 3, tiles: [2, 1, 3, 4, 5, 6, 7, 8, 0] }, {})).toHaveProperty('giveUp');
    const hard = { kind: 'sliding' as const, rows: 3, cols: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1] };
    const ac = new AbortController();
    ac.abort();
    expect(solveBacktracking(hard, { signal: ac.signal })).toHaveProperty('giveUp');
  });
});
