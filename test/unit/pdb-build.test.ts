import { describe, expect, it } from 'vitest';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { buildPatternDb } from '../../src/solvers/sliding/pdb-build.ts';
import { rankCells, rankWeights } from '../../src/solvers/sliding/pdb-rank.ts';

/**
 * Independent oracle on the abstraction itself: a 0-1 breadth-first search over (pattern tiles' cells,
 * blank's cell) with string keys, as the textbook states it: the blank steps onto a free cell for 0 and
 * swaps with a pattern tile for 1, from the goal (pattern home, blank home). No ranking, masks or regions,
 * so it shares nothing with the builder; the value of a placement is its minimum over blank cells.
 */
function naivePdb(rows: number, cols: number, pattern: readonly number[]): Map<string, number> {
  const board = makeBoard(rows, cols);
  const k = pattern.length;
  const start = [...pattern.map((t) => t - 1), rows * cols - 1];
  const dist = new Map<string, number>([[start.join(','), 0]]);
  let layer = [start];
  for (let d = 0; layer.length > 0; d++) {
    const next: number[][] = [];
    for (let i = 0; i < layer.length; i++) {
      const s = layer[i];
      if (dist.get(s.join(',')) !== d) continue;
      const blank = s[k];
      for (let dir = 0; dir < 4; dir++) {
        const to = board.neighbor[blank * 4 + dir];
        if (to < 0) continue;
        const t = s.slice();
        t[k] = to;
        const tile = s.indexOf(to);
        if (tile >= 0 && tile < k) t[tile] = blank;
        const cost = tile >= 0 && tile < k ? 1 : 0;
        const key = t.join(',');
        const old = dist.get(key);
        if (old === undefined || old > d + cost) {
          dist.set(key, d + cost);
          (cost === 0 ? layer : next).push(t);
        }
      }
    }
    layer = next;
  }
  const out = new Map<string, number>();
  for (const [key, d] of dist) {
    const cells = key.split(',').slice(0, k).join(',');
    out.set(cells, Math.min(out.get(cells) ?? Infinity, d));
  }
  return out;
}

function expectSameAsNaive(rows: number, cols: number, pattern: readonly number[]): void {
  const table = buildPatternDb(rows, cols, pattern);
  const oracle = naivePdb(rows, cols, pattern);
  expect(table.length).toBe(oracle.size);
  const w = rankWeights(rows * cols, pattern.length);
  let wrong = 0;
  for (const [cells, d] of oracle) if (table[rankCells(cells.split(',').map(Number), pattern.length, w)] !== d) wrong++;
  expect(wrong).toBe(0);
}

describe('pdb-build region search', () => {
  it('matches the naive 0-1 search on small 4x4 and rectangular patterns', () => {
    for (const [rows, cols, pattern] of [
      [3, 3, [1, 2, 3]],
      [3, 3, [6, 8]],
      [2, 4, [3, 6, 7]],
      [3, 4, [1, 2, 5, 6]],
      [4, 4, [2, 3, 4]],
      [4, 4, [12, 15]],
      [4, 3, [5, 9, 11]],
    ] as const) {
      expectSameAsNaive(rows, cols, pattern);
    }
  });

  it('matches the naive search on boards of more than 16 cells (masks past 16 bits)', { timeout: 120_000 }, () => {
    for (const [rows, cols, pattern] of [
      [5, 5, [1, 2]],
      [5, 5, [20, 24]], // walls the blank's home cell in at the goal: its own region
      [5, 5, [13, 19, 23]],
      [4, 5, [1, 6, 7]],
      [3, 6, [4, 10, 17]],
    ] as const) {
      expectSameAsNaive(rows, cols, pattern);
    }
  });

  it('refuses patterns it cannot build', () => {
    expect(() => buildPatternDb(6, 5, [1, 2])).toThrow(RangeError);
    expect(() => buildPatternDb(3, 3, [1, 1])).toThrow(RangeError);
    expect(() => buildPatternDb(3, 3, [9])).toThrow(RangeError);
    expect(() => buildPatternDb(3, 3, [1, 2, 3, 4, 5, 6, 7, 8])).toThrow(RangeError);
  });
});
