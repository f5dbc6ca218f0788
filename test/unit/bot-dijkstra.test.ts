import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { FACTORIAL, rankPerm, unrankPerm } from '../../bots/dijkstra/perm-rank.ts';
import { UNREACHED, buildShapeGraph, solveOnGraph } from '../../bots/dijkstra/state-graph.ts';
import { Uint32Heap } from '../../bots/dijkstra/uint32-heap.ts';
import { createDijkstraSolver } from '../../bots/dijkstra/solve.ts';
import { searchSliding } from '../../bots/backtracking/search.ts';

const SMALL_SHAPES: Array<[number, number]> = [
  [2, 2],
  [2, 3],
  [3, 2],
  [2, 4],
  [4, 2],
  [3, 3],
];

describe('dijkstra perm-rank', () => {
  it('ranks every permutation of 0..5 to a distinct index and unranks it back', () => {
    const n = 6;
    const perm = new Uint8Array(n);
    const used = new Uint8Array(n);
    const back = new Uint8Array(n);
    const seen = new Set<string>();
    for (let r = 0; r < FACTORIAL[n]; r++) {
      unrankPerm(r, n, perm, used);
      seen.add(perm.join(','));
      expect(rankPerm(perm, n)).toBe(r);
      unrankPerm(rankPerm(perm, n), n, back, used);
      expect(back).toEqual(perm);
    }
    expect(seen.size).toBe(720);
  });
});

describe('dijkstra Uint32Heap', () => {
  it('pops random keys in ascending order', () => {
    const rng = createRng('heap');
    const heap = new Uint32Heap(4);
    const keys: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const k = rng.next();
      keys.push(k);
      heap.push(k);
    }
    keys.sort((a, b) => a - b);
    const popped: number[] = [];
    while (heap.size > 0) popped.push(heap.pop());
    expect(popped).toEqual(keys);
  });
});

describe('dijkstra state graph', () => {
  it.each(SMALL_SHAPES)('matches the BFS table at every rank of %ix%i', (rows, cols) => {
    const g = buildShapeGraph(rows, cols);
    const table = slidingTable(rows, cols);
    const n = rows * cols;
    expect(g.states).toBe(FACTORIAL[n] / 2);
    expect(g.states).toBe(table.states);
    expect(g.maxDepth).toBe(table.maxDepth);
    const perm = new Uint8Array(n);
    const used = new Uint8Array(n);
    let mismatches = 0;
    for (let r = 0; r < FACTORIAL[n]; r++) {
      unrankPerm(r, n, perm, used);
      const want = table.distance(perm);
      const got = g.dist[r] === UNREACHED ? -1 : g.dist[r];
      if (got !== want) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it.each(SMALL_SHAPES)('returns optimal, legal solutions for random %ix%i scrambles', (rows, cols) => {
    const g = buildShapeGraph(rows, cols);
    const table = slidingTable(rows, cols);
    const rng = createRng(`dijkstra-${rows}x${cols}`);
    for (let i = 0; i < 300; i++) {
      const state = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
      const moves = solveOnGraph(g, state.tiles);
      expect(moves).not.toBeNull();
      expect(moves!.length).toBe(table.distance(state.tiles));
      expect(sliding.replay(state, moves!)).toEqual({ verdict: 'solved', moves: moves!.length });
    }
  });

  it('knows the two 31-move 3x3 states and the famous seed example', () => {
    const g = buildShapeGraph(3, 3);
    expect(solveOnGraph(g, [8, 6, 7, 2, 5, 4, 3, 0, 1])!.length).toBe(31);
    expect(solveOnGraph(g, [6, 4, 7, 8, 5, 0, 3, 2, 1])!.length).toBe(31);
    expect(solveOnGraph(g, [4, 1, 3, 7, 0, 6, 5, 2, 8])).toBe('DLUURDDR');
    expect(solveOnGraph(g, [1, 2, 3, 4, 5, 6, 7, 8, 0])).toBe('');
  });

  it('returns null for unsolvable or malformed boards', () => {
    const g = buildShapeGraph(2, 2);
    expect(solveOnGraph(g, [2, 1, 3, 0])).toBeNull();
    expect(solveOnGraph(g, [1, 1, 3, 0])).toBeNull();
    expect(solveOnGraph(g, [1, 2, 3])).toBeNull();
  });

  it('solves 2x5 optimally: 1,814,400 states, depth 55, paths equal to IDA* on random walks', () => {
    const g = buildShapeGraph(2, 5);
    expect(g.states).toBe(1_814_400);
    expect(g.maxDepth).toBe(55);
    const rng = createRng('dijkstra-2x5');
    for (let i = 0; i < 12; i++) {
      const state = sliding.walk({ kind: 'sliding', rows: 2, cols: 5 }, 16 + rng.int(12), rng);
      const moves = solveOnGraph(g, state.tiles)!;
      expect(sliding.replay(state, moves).verdict).toBe('solved');
      // Independent oracle: IDA* with the admissible Manhattan bound (a different algorithm entirely).
      const ida = searchSliding(2, 5, Uint8Array.from(state.tiles), { cap: 60 });
      expect(moves.length).toBe(ida.moves!.length);
    }
  });
});

describe('dijkstra solver', () => {
  it('declines boards over 10 cells and other kinds at once, and caches graphs per shape', () => {
    const logs: string[] = [];
    const solver = createDijkstraSolver((l) => logs.push(l));
    const big = solver.solve({ kind: 'sliding', rows: 4, cols: 4, tiles: [...Array(15).keys()].map((i) => i + 1).concat([0]) });
    expect(big).toHaveProperty('unsupported');
    expect(solver.solve({ kind: 'sliding', rows: 1, cols: 11, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0] })).toHaveProperty('unsupported');
    expect(solver.solve({ kind: 'hanoi', pegs: 3, start: 'AAA', goal: 'CCC' })).toHaveProperty('unsupported');
    expect(logs).toEqual([]);
    const a = solver.solve({ kind: 'sliding', rows: 2, cols: 3, tiles: [1, 2, 3, 4, 0, 5] });
    expect(a).toMatchObject({ moves: 'R', optimal: true });
    solver.solve({ kind: 'sliding', rows: 2, cols: 3, tiles: [1, 2, 3, 0, 4, 5] });
    expect(logs.length).toBe(1);
    expect(solver.solve({ kind: 'sliding', rows: 2, cols: 3, tiles: [2, 1, 3, 4, 5, 0] })).toHaveProperty('giveUp');
  });
});
