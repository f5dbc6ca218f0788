import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import type { SolveContext } from '../../src/sdk/types.ts';
import { applyMoves, makeBoard } from '../../src/solvers/sliding/board.ts';
import { manhattanLc } from '../../src/solvers/sliding/manhattan-lc.ts';
import { allTiles, countedManhattanLc } from '../../bots/ida-star/counted-lines.ts';
import { solveSliding } from '../../bots/ida-star/solve.ts';
import { StagedSearch, stagesOf } from '../../bots/ida-star/staged-search.ts';

function ctx(timeLimitMs: number): SolveContext {
  return { deadline: Date.now() + timeLimitMs, timeLimitMs, maxMoves: 1e7, signal: new AbortController().signal };
}

const noPdb = { pdbs: () => null };

describe('ida-star big boards: sub-goals', () => {
  it('plans lines like the thesis (top row, left column, ...) down to 4x4, then every tile', () => {
    const stages = stagesOf(10, 10);
    expect(stages).toHaveLength(13);
    const count = (s: Uint8Array): number => s.reduce((a, b) => a + b, 0);
    expect(stages.map(count)).toEqual([10, 19, 28, 36, 44, 51, 58, 64, 70, 75, 80, 84, 99]);
    // Row 0 first: tiles 1..10; then column 0 below it: 11, 21, ..., 91.
    expect([...stages[0]].flatMap((v, t) => (v ? [t] : []))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...stages[1]].flatMap((v, t) => (v && !stages[0][t] ? [t] : []))).toEqual([11, 21, 31, 41, 51, 61, 71, 81, 91]);
    for (let k = 1; k < stages.length; k++) for (let t = 0; t < 100; t++) if (stages[k - 1][t]) expect(stages[k][t]).toBe(1);
    expect(stagesOf(5, 10).map(count).at(-1)).toBe(49);
  });

  it('counts Manhattan + linear conflict of all tiles exactly as the shared bound does', () => {
    const rng = createRng('counted lines');
    for (const [rows, cols] of [[5, 5], [8, 8], [6, 9]]) {
      const board = makeBoard(rows, cols);
      for (let i = 0; i < 30; i++) {
        const s = sliding.scramble({ kind: 'sliding', rows, cols }, rng);
        expect(countedManhattanLc(board, s.tiles, allTiles(rows * cols))).toBe(manhattanLc(board, s.tiles));
      }
    }
  });

  it('reaches each sub-goal in turn and the goal at the end', () => {
    const rng = createRng('staged search');
    const board = makeBoard(8, 8);
    const s = sliding.scramble({ kind: 'sliding', rows: 8, cols: 8 }, rng);
    const search = new StagedSearch(board, s.tiles, { kind: 'square' }, 200_000);
    const stages = stagesOf(8, 8);
    let stage = 0;
    for (;;) {
      const st = search.run(5_000);
      expect(st).not.toBe('exhausted');
      // Whenever a stage is done, the tiles it counts are home on the board the moves so far lead to.
      for (; stage < search.stage; stage++) {
        const tiles = applyMoves(board, s.tiles, search.solution())!;
        expect(countedManhattanLc(board, tiles, stages[stage])).toBe(0);
      }
      if (st === 'found') break;
    }
    expect(sliding.replay(s, search.solution()).verdict).toBe('solved');
  });
});

describe('ida-star big boards through the bot', () => {
  it('solves 8x8, 9x9 and 10x10 line by line, replayed, saying it is not optimal', { timeout: 300_000 }, async () => {
    const rng = createRng('ida-star big boards');
    for (const size of [8, 9, 10]) {
      const s = sliding.scramble({ kind: 'sliding', size }, rng);
      const a = await solveSliding(s, ctx(120_000), noPdb);
      if (!('moves' in a)) throw new Error(`no answer on ${size}x${size}: ${JSON.stringify(a)}`);
      expect(a.optimal).toBe(false);
      expect(a.note).toMatch(/h·h.*line by line.*memory cap [\d.]+ MB.*not optimal/);
      expect(sliding.replay(s, a.moves as string).verdict).toBe('solved');
    }
  });

  it('goes on line by line when the whole-board search fills its memory, instead of giving up', { timeout: 300_000 }, async () => {
    const s = sliding.scramble({ kind: 'sliding', size: 6 }, createRng('ida-star memory cap'));
    // 300 kB is about 5,000 states of a 6x6: the whole-board search cannot finish in that.
    const a = await solveSliding(s, ctx(120_000), { ...noPdb, weightedBytes: 300e3 });
    if (!('moves' in a)) throw new Error(`no answer: ${JSON.stringify(a)}`);
    expect(a.note).toMatch(/line by line/);
    expect(sliding.replay(s, a.moves as string).verdict).toBe('solved');
  });
});
