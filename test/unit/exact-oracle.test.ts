import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { exactSolve } from '../../src/solvers/sliding/exact.ts';
import { SlidingOracle } from '../../src/solvers/sliding/oracle.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';
import { affinitySupport, formatCpuList, pinTask } from '../../src/transport/process/cpu-affinity.ts';
import { solveSliding } from '../../bots/ida-star/solve.ts';
import { ROOT } from '../e2e/helpers.ts';

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

  it('given a known solution length, proves it optimal or finds a shorter one, agreeing with the BFS table', () => {
    const rng = createRng('exact-solve known');
    for (const [r, c] of [[3, 3], [2, 4]] as const) {
      const table = slidingTable(r, c);
      for (let i = 0; i < 40; i++) {
        const s = sliding.scramble(spec(r, c), rng);
        const opt = table.distance(s.tiles);
        const full = exactSolve(r, c, s.tiles, null, never);
        // The optimum as the known length: proved, with no more work than the search that finds it.
        const proof = exactSolve(r, c, s.tiles, null, never, 500_000, opt);
        expect(proof.status).toBe('proved');
        if (proof.status !== 'proved' || full.status !== 'exact') continue;
        expect(proof.optimal).toBe(opt);
        expect(proof.nodes).toBeLessThanOrEqual(full.nodes);
        // A longer known length: the search finds the optimum itself (a real solution, replayed).
        const longer = exactSolve(r, c, s.tiles, null, never, 500_000, opt + 2);
        expect(longer.status).toBe('exact');
        if (longer.status === 'exact') {
          expect(longer.moves.length).toBe(opt);
          expect(sliding.replay(s, longer.moves).verdict).toBe('solved');
        }
      }
    }
  });

  it('proves a known length in one pass at the last threshold below it, or finds the optimum when it was longer (4x4 tables)', async () => {
    const tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
    const rng = createRng('exact-solve one pass');
    for (let i = 0; i < 12; i++) {
      const s = sliding.scramble(spec(4, 4), rng);
      const full = exactSolve(4, 4, s.tiles, tables, never);
      expect(full.status).toBe('exact');
      if (full.status !== 'exact') continue;
      const opt = full.moves.length;
      const proof = exactSolve(4, 4, s.tiles, tables, never, 500_000, opt);
      expect(proof).toMatchObject({ status: 'proved', optimal: opt });
      // The one pass is the last complete iteration of IDA*, without the ones below it nor the partial last.
      expect(proof.nodes).toBeLessThanOrEqual(full.nodes);
      for (const extra of [2, 4, 20]) {
        const longer = exactSolve(4, 4, s.tiles, tables, never, 500_000, opt + extra);
        expect(longer.status, `known = optimum + ${extra}`).toBe('exact');
        if (longer.status === 'exact') {
          expect(longer.moves.length).toBe(opt);
          expect(sliding.replay(s, longer.moves).verdict).toBe('solved');
        }
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

  it('proves a known length optimal on Korf instances, the published lengths, in fewer nodes than finding it', { timeout: 600_000 }, async () => {
    await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
    const oracle = new SlidingOracle({ budgetMs: 3_600_000 });
    try {
      // Korf's instances 55, 79 and 12 (41, 42 and 45 moves): short enough for a unit test.
      for (const [text, len] of [['13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11', 41], ['0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15', 42], ['14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15', 45]] as const) {
        const s: SlidingState = { kind: 'sliding', rows: 4, cols: 4, tiles: fromKorf(text) };
        const found = await oracle.improve(s, sliding.bound(s));
        expect(found.bound).toEqual({ optimal: len, lowerBound: len });
        const proved = await oracle.improve(s, sliding.bound(s), len);
        expect(proved.bound).toEqual({ optimal: len, lowerBound: len });
        expect(proved.nodes!).toBeLessThan(found.nodes!);
        // A known length at the cheap bound is the optimum without a search.
        const cheap = sliding.bound(s).lowerBound;
        expect(await oracle.improve(s, sliding.bound(s), cheap)).toEqual({ bound: { optimal: cheap, lowerBound: cheap }, ms: 0 });
      }
    } finally {
      await oracle.close();
    }
  });

  it('does not search while a hold is open, and answers once the last hold is released', async () => {
    const oracle = new SlidingOracle({ cacheDir: empty, budgetMs: 3_600_000 });
    try {
      // A 3x4 board 30 random moves from the goal: a few milliseconds of Manhattan + linear conflict search.
      const s = sliding.walk(spec(3, 4), 30, createRng('oracle hold'));
      const first = oracle.hold();
      const second = oracle.hold();
      let answered = false;
      const got = oracle.improve(s, sliding.bound(s)).then((r) => ((answered = true), r));
      await new Promise((r) => setTimeout(r, 1500));
      expect(answered).toBe(false);
      first();
      first(); // releasing twice releases once
      await new Promise((r) => setTimeout(r, 500));
      expect(answered).toBe(false);
      second();
      const r = await got;
      expect(r.bound.optimal).toBeDefined();
    } finally {
      await oracle.close();
    }
  });

  it('pinned to cores of its own (runOn) it goes on while a solve is held, and the kernel shows the thread there', async () => {
    const support = affinitySupport();
    expect(support.ok, support.ok ? '' : support.reason).toBe(true);
    if (!support.ok) return;
    expect(support.cpus.length, 'a machine with two cores or more').toBeGreaterThanOrEqual(2);
    const spare = support.cpus.slice(-1);
    let pinnedTid: number | undefined;
    const oracle = new SlidingOracle({ cacheDir: empty, budgetMs: 3_600_000 });
    oracle.runOn(formatCpuList(spare), (tid) => ((pinnedTid = tid), pinTask(tid, spare, support.taskset)));
    try {
      // Started by a first request, which also lets the worker confirm its pinning.
      const warm = sliding.walk(spec(3, 4), 10, createRng('oracle pinned warm'));
      expect((await oracle.improve(warm, sliding.bound(warm))).bound.optimal).toBeDefined();
      expect(oracle.pinned).toBe(true);
      expect(readFileSync(`/proc/${process.pid}/task/${pinnedTid}/status`, 'latin1')).toMatch(new RegExp(`^Cpus_allowed_list:\\s*${formatCpuList(spare)}$`, 'm'));
      const hold = oracle.hold();
      const s = sliding.walk(spec(3, 4), 30, createRng('oracle hold'));
      const r = await oracle.improve(s, sliding.bound(s));
      hold();
      expect(r.bound.optimal).toBeDefined();
      // pause() stops it whatever its cores (what a hold does when it shares them).
      const pause = oracle.pause();
      let answered = false;
      const got = oracle.improve(sliding.walk(spec(3, 4), 30, createRng('oracle pause')), sliding.bound(s)).then((x) => ((answered = true), x));
      await new Promise((res) => setTimeout(res, 1000));
      expect(answered).toBe(false);
      pause();
      await got;
    } finally {
      await oracle.close();
    }
  });

  it('pinned to cores it cannot have, it keeps pausing for holds', async () => {
    const oracle = new SlidingOracle({ cacheDir: empty, budgetMs: 3_600_000 });
    oracle.runOn('0', () => false);
    try {
      const warm = sliding.walk(spec(3, 4), 10, createRng('oracle unpinned warm'));
      await oracle.improve(warm, sliding.bound(warm));
      expect(oracle.pinned).toBe(false);
      const hold = oracle.hold();
      let answered = false;
      const s = sliding.walk(spec(3, 4), 30, createRng('oracle hold'));
      const got = oracle.improve(s, sliding.bound(s)).then((x) => ((answered = true), x));
      await new Promise((res) => setTimeout(res, 1000));
      expect(answered).toBe(false);
      hold();
      await got;
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

  it('warm - starts its thread for a 4x4 only, answers as a cold oracle does, and keeps no process open', async () => {
    const oracle = new SlidingOracle({ cacheDir: empty });
    try {
      oracle.warm([sliding.scramble(spec(3, 3), createRng('warm 3x3')), sliding.scramble(spec(3, 5), createRng('warm 3x5'))]);
      expect(oracle.started).toBe(false);
      const s = sliding.scramble(spec(4, 4), createRng('oracle warm'));
      oracle.warm([s]);
      expect(oracle.started).toBe(true);
      const got = await oracle.improve(s, sliding.bound(s));
      expect(got.bound).toEqual(sliding.bound(s));
      expect(got.note).toMatch(/no 4x4 pattern databases in .*oracle-no-pdb/);
    } finally {
      await oracle.close();
    }
    // A process that only warmed an oracle (say a match refused after it) ends on its own.
    const url = pathToFileURL(join(ROOT, 'src/solvers/sliding/oracle.ts')).href;
    const script = `const { SlidingOracle } = await import(${JSON.stringify(url)}); new SlidingOracle({ cacheDir: ${JSON.stringify(empty)} }).warm([{ kind: 'sliding', rows: 4, cols: 4, tiles: ${JSON.stringify(KORF_1)} }]); console.log('warmed');`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(child.stderr).toBe('');
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('warmed\n');
  }, 180_000);

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
