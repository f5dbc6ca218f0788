import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { exactSolve } from '../../src/solvers/sliding/exact.ts';
import { SlidingOracle } from '../../src/solvers/sliding/oracle.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';
import { solveSliding } from '../../bots/ida-star/solve.ts';

const spec = (rows: number, cols: number) => ({ kind: 'sliding' as const, rows, cols });
const never = () => false;
/** Korf's instance 1 in our goal convention (blank last): 57 moves. */
const KORF_1 = fromKorf('14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3');

function fromKorf(text: string): number[] {
  const k = text.split(' ').map(Number);
  return Array.from({ length: 16 }, (_, c) => (k[15 - c] === 0 ? 0 : 16 - k[15 - c]));
}

const empty = mkdtempSync(join(tmpdir(), 'oracle-no-pdb-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe('exactSolve', () => {
  it('equals the BFS table on 150 random 3x3 and 2x4 boards (independent oracle)', () => {
    const rng = createRng('exact-solve small');
    for (const [r, c] of [[3, 3], [2, 4], [4, 2]] as const) {
      const table = slidingTable(r, c);
      for (let i = 0; i < 50; i++) {
        const s = sliding.scramble(spec(r, c), rng);
        const out = exactSolve(r, c, s.tiles, null, never);
        expect(out.status).toBe('exact');
        if (out.status !== 'exact') continue;
        expect(out.moves.length).toBe(table.distance(s.tiles));
        expect(sliding.replay(s, out.moves).verdict).toBe('solved');
      }
    }
  });

  it('stops at its budget with a proven lower bound no larger than the optimum', () => {
    const out = exactSolve(4, 4, KORF_1, null, () => true, 1000);
    expect(out.status).toBe('budget');
    if (out.status !== 'budget') return;
    const cheap = sliding.bound({ kind: 'sliding', rows: 4, cols: 4, tiles: KORF_1 }).lowerBound;
    expect(out.boundReached).toBeGreaterThanOrEqual(cheap);
    expect(out.boundReached).toBeLessThanOrEqual(57);
  });
});

describe('SlidingOracle (worker thread, real pattern databases)', () => {
  it('agrees with the bound ordering and with ida-star on 80 uniform 15-puzzles', { timeout: 600_000 }, async () => {
    const tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
    // No practical budget: this test is about the answers; a loaded machine must not turn one into a bound.
    const oracle = new SlidingOracle({ budgetMs: 3_600_000 });
    try {
      const rng = createRng('oracle 200 uniform 4x4');
      const states: SlidingState[] = Array.from({ length: 80 }, () => sliding.scramble(spec(4, 4), rng));
      // All queued at once, as a match does; the worker answers them in order while this thread runs the bot.
      const answers = states.map((s) => oracle.improve(s, sliding.bound(s)));
      for (const [i, s] of states.entries()) {
        const cheap = sliding.bound(s);
        expect(cheap.optimal).toBeUndefined();
        const ctx = { deadline: Date.now() + 600_000, timeLimitMs: 600_000, maxMoves: 1e6, signal: new AbortController().signal };
        const bot = await solveSliding(s, ctx, { pdbs: () => tables });
        if (!('moves' in bot)) throw new Error(`ida-star did not solve scramble ${i}`);
        const got = await answers[i];
        expect(got.note, `scramble ${i}`).toBeUndefined();
        const opt = got.bound.optimal!;
        expect(opt).toBe(got.bound.lowerBound);
        expect(opt).toBeGreaterThanOrEqual(cheap.lowerBound);
        expect((opt - cheap.lowerBound) % 2).toBe(0);
        expect((bot.moves as string).length, `scramble ${i}`).toBe(opt);
        expect(bot.optimal).toBe(true);
      }
    } finally {
      await oracle.close();
    }
  });

  it('without pattern databases keeps the bound and says why', async () => {
    const oracle = new SlidingOracle({ cacheDir: empty });
    try {
      const s = sliding.scramble(spec(4, 4), createRng('oracle no pdb'));
      const got = await oracle.improve(s, sliding.bound(s));
      expect(got.bound).toEqual(sliding.bound(s));
      expect(got.note).toMatch(/no 4x4 pattern databases in .*oracle-no-pdb/);
    } finally {
      await oracle.close();
    }
  });

  it('past its budget keeps a bound (raised, same parity) and says so', async () => {
    const oracle = new SlidingOracle({ budgetMs: 0, sliceNodes: 1000, cacheDir: empty });
    try {
      // 3x5 has no tables: Manhattan + linear conflict, far more than 1000 nodes for a 57-move 4x4-like instance.
      const s = sliding.scramble(spec(3, 5), createRng('oracle budget'));
      const cheap = sliding.bound(s);
      const got = await oracle.improve(s, cheap);
      expect(got.bound.optimal).toBeUndefined();
      expect(got.note).toMatch(/stopped at its budget/);
      expect(got.bound.lowerBound).toBeGreaterThanOrEqual(cheap.lowerBound);
      expect((got.bound.lowerBound - cheap.lowerBound) % 2).toBe(0);
    } finally {
      await oracle.close();
    }
  });

  it('leaves states with a known optimum alone and answers pending requests on close', async () => {
    const oracle = new SlidingOracle({ cacheDir: empty });
    const small = sliding.scramble(spec(3, 3), createRng('oracle small'));
    expect(oracle.covers(small, sliding.bound(small))).toBe(false);
    expect(await oracle.improve(small, sliding.bound(small))).toEqual({ bound: sliding.bound(small), ms: 0 });
    const big = sliding.scramble(spec(3, 5), createRng('oracle close'));
    const pending = oracle.improve(big, sliding.bound(big));
    await oracle.close();
    const got = await pending;
    expect(got.bound).toEqual(sliding.bound(big));
    expect(got.note).toMatch(/closed/);
    expect(got.interrupted).toBe(true);
  });
});
