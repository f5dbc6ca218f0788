import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { exactSolve } from '../../src/solvers/sliding/exact.ts';
import { SlidingOracle } from '../../src/solvers/sliding/oracle.ts';
import { loadOrBuildPdbSet } from '../../src/solvers/sliding/pdb-set.ts';
import { PatternValues } from '../../src/solvers/sliding/pdb-values.ts';
import { korfFelner24, SMALL_5X5 } from '../helpers/pdb-fixtures.ts';

// The referee's 5×5 bound: the pattern databases, raised by a short IDA* over them. Small 3-tile tables
// stand in for the 6-6-6-6 (minutes to build); the code path is the same.
const dir = mkdtempSync(join(tmpdir(), 'oracle-5x5-'));
const empty = mkdtempSync(join(tmpdir(), 'oracle-5x5-none-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

describe('5x5 lower bound', () => {
  it('IDA* over the tables proves bounds between the tables’ value and the published optimum (Korf & Felner)', async () => {
    const tables = await loadOrBuildPdbSet(5, 5, SMALL_5X5, { dir });
    const pv = new PatternValues(makeBoard(5, 5), tables);
    for (const x of korfFelner24().slice(0, 10)) {
      let left = 20;
      const out = exactSolve(5, 5, x.tiles, tables, () => --left < 0, 20_000);
      expect(out.status).toBe('budget');
      if (out.status !== 'budget') continue;
      expect(out.boundReached).toBeGreaterThanOrEqual(pv.bound(x.tiles));
      expect(out.boundReached).toBeLessThanOrEqual(x.optimal);
    }
  });

  it('the oracle raises a 5x5 bound from the tables and says which bound it is', { timeout: 120_000 }, async () => {
    await loadOrBuildPdbSet(5, 5, SMALL_5X5, { dir });
    const oracle = new SlidingOracle({ cacheDir: dir, partition5x5: SMALL_5X5, boundBudgetMs: 2000 }); // room for a loaded machine: the bound must rise above the cheap one
    try {
      const rng = createRng('oracle 5x5');
      for (let i = 0; i < 4; i++) {
        const s = sliding.scramble({ kind: 'sliding', size: 5 }, rng);
        const cheap = sliding.bound(s);
        expect(oracle.covers(s, cheap)).toBe(true);
        const got = await oracle.improve(s, cheap);
        expect(got.bound.optimal).toBeUndefined();
        expect(got.bound.lowerBound).toBeGreaterThan(cheap.lowerBound);
        expect((got.bound.lowerBound - cheap.lowerBound) % 2).toBe(0);
        expect(got.note).toMatch(/lower bound: pdb 3-3-3-3-3-3-3-3 \+ reflection, shared by symmetry, raised by 2 s of IDA\* over them/);
      }
      // The bound stays a bound: below the published optimum of a known instance.
      const x = korfFelner24()[0];
      const state = { kind: 'sliding' as const, rows: 5, cols: 5, tiles: x.tiles };
      expect((await oracle.improve(state, sliding.bound(state))).bound.lowerBound).toBeLessThanOrEqual(x.optimal);
    } finally {
      await oracle.close();
    }
  });

  it('without 5x5 tables keeps Manhattan + linear conflict and says how to build them', async () => {
    const oracle = new SlidingOracle({ cacheDir: empty });
    try {
      const s = sliding.scramble({ kind: 'sliding', size: 5 }, createRng('oracle 5x5 none'));
      const got = await oracle.improve(s, sliding.bound(s));
      expect(got.bound).toEqual(sliding.bound(s));
      expect(got.note).toMatch(/Manhattan \+ linear conflict: no 5x5 pattern databases in .*\(arena prepare pdb-beam builds them\)/);
      const six = sliding.scramble({ kind: 'sliding', size: 6 }, createRng('oracle 6x6'));
      expect(oracle.covers(six, sliding.bound(six))).toBe(false);
    } finally {
      await oracle.close();
    }
  });
});
