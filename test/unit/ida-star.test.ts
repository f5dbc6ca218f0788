import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import type { SolveContext } from '../../src/sdk/types.ts';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { parseFlags } from '../../bots/ida-star/flags.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import { ManhattanLcHeuristic, manhattanLc } from '../../src/solvers/sliding/manhattan-lc.ts';
import { solveSliding } from '../../bots/ida-star/solve.ts';

function idaSolve(rows: number, cols: number, tiles: readonly number[], useLc = true): string {
  const board = makeBoard(rows, cols);
  const search = new IdaSearch(board, tiles, new ManhattanLcHeuristic(board, useLc));
  expect(search.run(1e12)).toBe('found');
  return search.solution();
}

function ctx(timeLimitMs: number, signal = new AbortController().signal): SolveContext {
  return { deadline: Date.now() + timeLimitMs, timeLimitMs, maxMoves: 1e7, signal };
}

const noPdb = { pdbs: () => null };

describe('ida-star IDA* with manhattan + linear conflict', () => {
  it('is optimal on 200 random 3x3 states and the two 31-move states (exact BFS oracle)', () => {
    const table = slidingTable(3, 3);
    const rng = createRng('ida-star 3x3');
    const states: number[][] = [
      [8, 6, 7, 2, 5, 4, 3, 0, 1],
      [6, 4, 7, 8, 5, 0, 3, 2, 1],
    ];
    for (let i = 0; i < 200; i++) states.push([...sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, rng).tiles]);
    for (const tiles of states) {
      const moves = idaSolve(3, 3, tiles);
      expect(moves.length).toBe(table.distance(tiles));
      expect(sliding.replay({ kind: 'sliding', rows: 3, cols: 3, tiles }, moves).verdict).toBe('solved');
    }
    expect(table.distance(states[0])).toBe(31);
    expect(table.distance(states[1])).toBe(31);
  });

  it('is optimal on every rectangular shape with an exact table (2x3, 3x2, 2x4, 4x2)', () => {
    const rng = createRng('ida-star rect');
    for (const [rows, cols] of [[2, 3], [3, 2], [2, 4], [4, 2]]) {
      const table = slidingTable(rows, cols);
      for (let i = 0; i < 60; i++) {
        const s = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
        const moves = idaSolve(rows, cols, s.tiles);
        expect(moves.length).toBe(table.distance(s.tiles));
        expect(sliding.replay(s, moves).verdict).toBe('solved');
      }
    }
  });

  it('keeps the incremental heuristic equal to a from-scratch evaluation along random walks', () => {
    const rng = createRng('ida-star incremental');
    for (const [rows, cols] of [[4, 4], [3, 5], [6, 6]]) {
      const board = makeBoard(rows, cols);
      const start = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
      const tiles = Uint8Array.from(start.tiles);
      const h = new ManhattanLcHeuristic(board);
      expect(h.reset(tiles)).toBe(manhattanLc(board, tiles));
      let blank = tiles.indexOf(0);
      for (let step = 0; step < 300; step++) {
        let to = -1;
        while (to < 0) to = board.neighbor[blank * 4 + rng.int(4)];
        const tile = tiles[to];
        tiles[blank] = tile;
        tiles[to] = 0;
        expect(h.move(tiles, tile, to, blank, step)).toBe(manhattanLc(board, tiles));
        blank = to;
      }
    }
  });

  it('finds the same optimal length with and without linear conflict on 4x4 walks', () => {
    const rng = createRng('ida-star lc');
    for (let i = 0; i < 10; i++) {
      const s = sliding.walk({ kind: 'sliding', rows: 4, cols: 4 }, 20 + rng.int(11), rng);
      expect(idaSolve(4, 4, s.tiles).length).toBe(idaSolve(4, 4, s.tiles, false).length);
    }
  });
});

describe('ida-star solveSliding', () => {
  it('answers the goal with no moves and claims optimality on small boards', async () => {
    const goal = sliding.goal({ kind: 'sliding', rows: 3, cols: 3 });
    const a = await solveSliding(goal, ctx(5000), noPdb);
    expect(a).toMatchObject({ moves: '', optimal: true });
  });

  it('gives up on time on a hard 4x4 without pattern databases', async () => {
    const hard: SlidingState = { kind: 'sliding', rows: 4, cols: 4, tiles: [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1] };
    const a = await solveSliding(hard, ctx(30), { ...noPdb, sliceNodes: 5000 });
    expect(a).toEqual({ giveUp: 'time limit' });
  });

  it('gives up when the referee cancels', async () => {
    const hard: SlidingState = { kind: 'sliding', rows: 4, cols: 4, tiles: [0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1] };
    const ac = new AbortController();
    const answer = solveSliding(hard, ctx(60_000, ac.signal), { ...noPdb, sliceNodes: 5000 });
    setTimeout(() => ac.abort(), 20);
    expect(await answer).toEqual({ giveUp: 'cancelled' });
  });

  it('solves 5x5 and 6x6 with the weighted search, saying it is not optimal', async () => {
    const rng = createRng('ida-star weighted');
    for (const size of [5, 5, 6]) {
      const s = sliding.scramble({ kind: 'sliding', size }, rng);
      const a = await solveSliding(s, ctx(60_000), { ...noPdb, weightedBytes: 50e6 });
      expect('moves' in a && a.optimal === false && /not optimal/.test(a.note ?? '')).toBe(true);
      if ('moves' in a) expect(sliding.replay(s, a.moves as string).verdict).toBe('solved');
    }
  });

  it('uses f = g + w·h with --weight, on a 4x4 too', async () => {
    const s = sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, createRng('w'));
    const a = await solveSliding(s, ctx(60_000), { ...noPdb, weight: 3, weightedBytes: 50e6 });
    expect(a).toMatchObject({ optimal: false });
    if ('moves' in a) expect(sliding.replay(s, a.moves as string).verdict).toBe('solved');
  });

  it('gives up on an unsolvable board instead of searching forever', async () => {
    const bad: SlidingState = { kind: 'sliding', rows: 3, cols: 3, tiles: [2, 1, 3, 4, 5, 6, 7, 8, 0] };
    expect(await solveSliding(bad, ctx(5000), noPdb)).toMatchObject({ giveUp: expect.stringContaining('unsolvable') });
  });
});

describe('ida-star flags', () => {
  it('parses --weight and --no-pdb and rejects the rest', () => {
    expect(parseFlags(['--weight', '2.5', '--no-pdb'])).toEqual({ weight: 2.5, noPdb: true });
    expect(parseFlags(['--weight=3'])).toEqual({ weight: 3, noPdb: false });
    expect(typeof parseFlags(['--weight', '0.5'])).toBe('string');
    expect(typeof parseFlags(['--fast'])).toBe('string');
  });
});
