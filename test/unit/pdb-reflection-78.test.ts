import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { applyMoves, isGoal, makeBoard } from '../../src/solvers/sliding/board.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { PdbIdaSearch } from '../../src/solvers/sliding/pdb-ida-search.ts';
import { buildLayered } from '../../src/solvers/sliding/pdb-layer-bfs.ts';
import { naivePdb } from '../helpers/naive-pdb.ts';

/**
 * The 7-8 partition's lookup in miniature: on 3×3 the top rows' tiles {1..4} and the rest {5..8} split the
 * board as 1–8 / 9–15 split the 4×4, and the transpose maps {1..4}'s homes onto a column block, so the
 * reflected view sums genuinely different patterns. Tables from the layered builder; everything the test
 * compares with comes from the naive 0-1 search and a plain breadth-first search of the whole puzzle.
 */
const ROWS_PARTITION = [
  [1, 2, 3, 4],
  [5, 6, 7, 8],
];

function layered(tiles: readonly number[]): Uint8Array {
  const steps = buildLayered(3, 3, tiles);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Distance to the goal of every 3×3 arrangement (string key), by breadth-first search from the goal. */
function allDistances(): Map<string, number> {
  const board = makeBoard(3, 3);
  const goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
  const dist = new Map([[goal.join(), 0]]);
  let layer = [goal];
  for (let d = 1; layer.length > 0; d++) {
    const next: number[][] = [];
    for (const s of layer) {
      const blank = s.indexOf(0);
      for (let dir = 0; dir < 4; dir++) {
        const to = board.neighbor[blank * 4 + dir];
        if (to < 0) continue;
        const t = s.slice();
        t[blank] = t[to]!;
        t[to] = 0;
        const key = t.join();
        if (!dist.has(key)) {
          dist.set(key, d);
          next.push(t);
        }
      }
    }
    layer = next;
  }
  return dist;
}

/** The additive bound of one arrangement from the naive tables: each pattern's value at its tiles' cells. */
function naiveSum(tiles: readonly number[], oracles: Map<string, number>[]): number {
  return ROWS_PARTITION.reduce((s, pattern, g) => s + oracles[g]!.get(pattern.map((t) => tiles.indexOf(t)).join(','))!, 0);
}

/** The arrangement mirrored about the main diagonal: the tile on (r,c) moves to (c,r) and is renamed after its home's mirror. */
function transpose(tiles: readonly number[]): number[] {
  const tr = (c: number): number => (c % 3) * 3 + Math.floor(c / 3);
  const out = new Array<number>(9).fill(0);
  tiles.forEach((t, c) => (out[tr(c)] = t === 0 ? 0 : tr(t - 1) + 1));
  return out;
}

describe('7-8-shaped partition with reflection (3×3 rows 4-4)', () => {
  const board = makeBoard(3, 3);
  const tables: PatternTable[] = ROWS_PARTITION.map((tiles) => ({ tiles, table: layered(tiles) }));
  const oracles = ROWS_PARTITION.map((p) => naivePdb(3, 3, p));
  const truth = allDistances();

  it('pdb-heuristic - h is the larger of the two views read from the naive tables, and never above the true distance', () => {
    const h = new PdbHeuristic(board, tables);
    let reflectionWon = 0;
    for (const [key, d] of truth) {
      const tiles = key.split(',').map(Number);
      const direct = naiveSum(tiles, oracles);
      const mirrored = naiveSum(transpose(tiles), oracles);
      const got = h.reset(Uint8Array.from(tiles));
      expect(got).toBe(Math.max(direct, mirrored));
      expect(got).toBeLessThanOrEqual(d);
      if (mirrored > direct) reflectionWon++;
    }
    // The reflection is not idle: it raises the bound on a good share of the 181,440 arrangements.
    expect(reflectionWon).toBeGreaterThan(10_000);
  });

  it('pdb-ida-search - with these tables finds the true optimum of random boards, each answer reaching the goal', () => {
    const rng = createRng('pdb-reflection-78');
    for (let i = 0; i < 60; i++) {
      const tiles = sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, rng).tiles;
      const search = new PdbIdaSearch(board, tiles, new PdbHeuristic(board, tables));
      expect(search.run(Infinity)).toBe('found');
      const moves = search.solution();
      expect(moves.length).toBe(truth.get([...tiles].join()));
      expect(isGoal(applyMoves(board, tiles, moves)!)).toBe(true);
    }
  });
});
