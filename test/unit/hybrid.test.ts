import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { applyMoves, makeBoard } from '../../src/solvers/sliding/board.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';
import { solveConstructive } from '../../bots/shared/constructive/constructive.ts';
import { BeamSearch } from '../../bots/hybrid/beam.ts';
import { planTables } from '../../bots/hybrid/plan-tables.ts';
import { settingsFor } from '../../bots/hybrid/settings.ts';
import { HybridSolver } from '../../bots/hybrid/hybrid.ts';
import type { HybridResult, SolveControl } from '../../bots/hybrid/hybrid.ts';
import { hybridAnswer } from '../../bots/hybrid/solve.ts';

let tables: PatternTable[];
let solver: HybridSolver;
beforeAll(async () => {
  tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
  solver = new HybridSolver(() => tables);
}, 600_000);

const free: SolveControl = { deadline: Number.MAX_SAFE_INTEGER, budgetMs: Number.MAX_SAFE_INTEGER };

async function solved(s: SlidingState, ctl: SolveControl = free): Promise<Extract<HybridResult, { moves: string }>> {
  const r = await solver.solve(s.rows, s.cols, s.tiles, ctl);
  if ('giveUp' in r) throw new Error(`gave up: ${r.giveUp}`);
  // The puzzle core's replayer is the oracle.
  expect(sliding.replay(s, r.moves), `${s.rows}x${s.cols} ${JSON.stringify(s.tiles)}`).toEqual({ verdict: 'solved', moves: r.moves.length });
  return r;
}

function scrambles(rows: number, cols: number, count: number, seed: string): SlidingState[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => sliding.scramble({ kind: 'sliding', rows, cols }, rng));
}

describe('hybrid - small boards are solved optimally', () => {
  it('every shape of at most 9 cells: the exact optimum (BFS table), said to be optimal', async () => {
    for (const [rows, cols] of [
      [2, 2],
      [2, 3],
      [3, 2],
      [2, 4],
      [4, 2],
      [3, 3],
    ] as const) {
      for (const s of scrambles(rows, cols, 15, `hybrid small ${rows}x${cols}`)) {
        const r = await solved(s);
        expect(r.moves.length).toBe(slidingTable(rows, cols).distance(s.tiles));
        expect(r.optimal).toBe(true);
      }
    }
  });

  it('4x4: the length of optimal IDA* with the pattern databases, said to be optimal', async () => {
    const h = new PdbHeuristic(makeBoard(4, 4), tables);
    for (const s of scrambles(4, 4, 6, 'hybrid 4x4')) {
      const r = await solved(s);
      const ida = new IdaSearch(makeBoard(4, 4), s.tiles, h);
      while (ida.run(1 << 20) === 'running');
      expect(r.moves.length).toBe(ida.solution().length);
      expect(r.optimal).toBe(true);
    }
  });

  it('3x4, 4x3, 2x5 and 5x2: at least the optimum (IDA* with Manhattan + linear conflict)', async () => {
    for (const [rows, cols] of [
      [3, 4],
      [4, 3],
      [2, 5],
      [5, 2],
    ] as const) {
      for (const s of scrambles(rows, cols, 4, `hybrid ${rows}x${cols}`)) {
        const r = await solved(s);
        expect(r.moves.length).toBeGreaterThanOrEqual(sliding.bound(s).lowerBound);
      }
    }
  });
});

describe('hybrid - every answer replays to the goal', () => {
  // A narrow beam exercises the same code on many boards quickly (with a small final-block budget: its
  // blocks are rougher); the default settings are tested below.
  const narrow: SolveControl = { ...free, settings: { width: 24, blockNodes: 300_000 } };
  for (const [rows, cols, count] of [
    [5, 5, 8],
    [6, 6, 6],
    [7, 7, 5],
    [8, 8, 4],
    [9, 9, 3],
    [10, 10, 3],
    [5, 8, 4],
    [8, 5, 4],
    [3, 9, 4],
    [9, 3, 4],
    [2, 12, 4],
    [12, 2, 4],
    [4, 11, 3],
    [6, 10, 3],
    [3, 6, 4],
    [2, 9, 4],
    [14, 14, 1],
    [20, 20, 1],
    [30, 7, 1],
  ] as const) {
    it(`${count} random ${rows}x${cols} boards (narrow beam)`, { timeout: 180_000 }, async () => {
      for (const s of scrambles(rows, cols, count, `hybrid narrow ${rows}x${cols}`)) {
        const r = await solved(s, narrow);
        expect(r.optimal).toBe(false);
        expect(r.moves.length).toBeGreaterThanOrEqual(sliding.bound(s).lowerBound);
      }
    });
  }

  it('random 5x5, 7x6 and 10x10 boards at the default settings, shorter than the constructive bot', { timeout: 300_000 }, async () => {
    for (const [rows, cols, count] of [
      [5, 5, 2],
      [7, 6, 1],
      [10, 10, 1],
    ] as const) {
      for (const s of scrambles(rows, cols, count, `hybrid default ${rows}x${cols}`)) {
        const r = await solved(s);
        expect(r.moves.length).toBeLessThan(solveConstructive(rows, cols, s.tiles)!.moves.length);
      }
    }
  });

  it('boards a few moves from the goal, and the goal itself', { timeout: 180_000 }, async () => {
    const rng = createRng('hybrid walks');
    for (const [rows, cols] of [
      [5, 5],
      [6, 4],
      [8, 8],
    ] as const) {
      expect((await solved(sliding.goal({ kind: 'sliding', rows, cols }))).moves).toBe('');
      for (const k of [1, 2, 3, 6, 15, 40]) {
        const s = sliding.walk({ kind: 'sliding', rows, cols }, k, rng);
        const r = await solved(s);
        // Up to 3 moves from the goal only final-block tiles are out of place: solved optimally.
        if (k <= 3) expect(r.moves.length).toBeLessThanOrEqual(k);
      }
    }
  });

  it('without the pattern databases, 4x4 and the final blocks still get solved (Manhattan + linear conflict)', async () => {
    const bare = new HybridSolver(() => null);
    for (const s of [...scrambles(4, 4, 2, 'bare 4x4'), ...scrambles(6, 6, 2, 'bare 6x6')]) {
      const r = await bare.solve(s.rows, s.cols, s.tiles, { ...free, settings: { width: 50 } });
      if ('giveUp' in r) throw new Error(r.giveUp);
      expect(sliding.replay(s, r.moves).verdict).toBe('solved');
    }
  });
});

describe('hybrid - time and cancellation', () => {
  it('gives up when cancelled, and when the deadline has passed', async () => {
    const s = scrambles(10, 10, 1, 'hybrid cancel')[0];
    const ac = new AbortController();
    ac.abort();
    expect(await solver.solve(10, 10, s.tiles, { ...free, signal: ac.signal })).toEqual({ giveUp: 'cancelled' });
    expect(await solver.solve(10, 10, s.tiles, { deadline: Date.now() - 1, budgetMs: 1000 })).toEqual({ giveUp: 'time limit' });
  });

  it('narrows the beam rather than overrun a tiny budget, and still answers', async () => {
    const s = scrambles(9, 9, 1, 'hybrid budget')[0];
    const r = await solved(s, { deadline: Number.MAX_SAFE_INTEGER, budgetMs: 1, settings: { blockNodes: 200_000 } });
    expect(r.note).toMatch(/width \d+/);
    expect(Number(/width (\d+)/.exec(r.note)![1])).toBeLessThan(settingsFor(9, 9).width);
  });
});

describe('hybrid - beam search', () => {
  it('is deterministic: the same board gives the same moves', () => {
    const s = scrambles(7, 7, 1, 'hybrid determinism')[0];
    const run = (): string => {
      const b = new BeamSearch(planTables(7, 7), s.tiles, { ...settingsFor(7, 7), width: 64 });
      b.run(Infinity);
      return b.finished[0].moves;
    };
    expect(run()).toBe(run());
  });

  it('ends with states whose lines are all placed, within its depth cap', () => {
    const pt = planTables(6, 6);
    for (const s of scrambles(6, 6, 3, 'hybrid finished')) {
      const b = new BeamSearch(pt, s.tiles, { ...settingsFor(6, 6), width: 32 });
      expect(b.run(Infinity)).toBe('done');
      expect(b.finished.length).toBeGreaterThan(0);
      for (const f of b.finished) {
        for (const st of pt.plan.steps) for (const [i, t] of st.tiles.entries()) expect(f.tiles[st.homes[i]]).toBe(t);
        // The reported tiles are where the moves lead.
        expect(Array.from(applyMoves(makeBoard(6, 6), s.tiles, f.moves)!)).toEqual(Array.from(f.tiles));
      }
    }
  });
});

describe('hybrid - hybridAnswer (the bot\'s solve callback)', () => {
  const ctx = (over: Partial<{ deadline: number; timeLimitMs: number; maxMoves: number }> = {}) => ({
    deadline: Date.now() + 60_000,
    timeLimitMs: 60_000,
    maxMoves: 1_000_000,
    signal: new AbortController().signal,
    ...over,
  });

  it('declines other puzzle kinds and gives up on a malformed board, with a reason', async () => {
    expect(await hybridAnswer(solver, { kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' }, ctx())).toMatchObject({ unsupported: expect.stringMatching(/sliding/) });
    const bad = await hybridAnswer(solver, { kind: 'sliding', rows: 3, cols: 3, tiles: [1, 1, 2, 3, 4, 5, 6, 7, 0] }, ctx());
    expect(bad).toMatchObject({ giveUp: expect.stringMatching(/duplicate/) });
  });

  it('answers a 6x6 board with replayable moves and says it is not optimal; gives up over maxMoves', async () => {
    const s = scrambles(6, 6, 1, 'hybrid answer')[0];
    const a = await hybridAnswer(solver, s, ctx());
    if (!('moves' in a) || typeof a.moves !== 'string') throw new Error(`no string answer: ${JSON.stringify(a)}`);
    expect(sliding.replay(s, a.moves).verdict).toBe('solved');
    expect(a).toMatchObject({ optimal: false, note: expect.stringMatching(/beam/) });
    expect(await hybridAnswer(solver, s, ctx({ maxMoves: 10 }))).toMatchObject({ giveUp: expect.stringMatching(/maxMoves/) });
  });
});
