import { describe, expect, it } from 'vitest';
import { buildPatternDb } from '../../src/solvers/sliding/pdb-build.ts';
import { rankCells, rankWeights } from '../../src/solvers/sliding/pdb-rank.ts';
import { naivePdb } from '../helpers/naive-pdb.ts';

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
