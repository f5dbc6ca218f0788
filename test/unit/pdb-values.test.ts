import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import { ManhattanLcHeuristic } from '../../src/solvers/sliding/manhattan-lc.ts';
import { buildPatternDb } from '../../src/solvers/sliding/pdb-build.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { loadOrBuildPdbSet, PARTITION_4X4, PARTITION_5X5 } from '../../src/solvers/sliding/pdb-set.ts';
import { sharePatternTables } from '../../src/solvers/sliding/pdb-symmetry.ts';
import { PatternValues } from '../../src/solvers/sliding/pdb-values.ts';
import { korfFelner24, SMALL_5X5 } from '../helpers/pdb-fixtures.ts';

/** Every pattern built on its own (no sharing). */
function ownTables(rows: number, cols: number, partition: number[][]): PatternTable[] {
  return partition.map((tiles) => ({ tiles, table: buildPatternDb(rows, cols, tiles) }));
}

/** The same partition with tables shared through symmetries, as pdb-set.ts assembles it. */
function sharedTables(rows: number, cols: number, partition: number[][]): PatternTable[] {
  const sources = sharePatternTables(rows, cols, partition);
  const built = sources.map((p, i) => (p.source === i ? buildPatternDb(rows, cols, p.tiles) : null));
  return sources.map((p) => ({ tiles: p.tiles, table: built[p.source]!, ...(p.cellMap ? { cellMap: p.cellMap } : {}) }));
}

const posOf = (tiles: readonly number[]): Uint8Array => {
  const pos = new Uint8Array(tiles.length);
  tiles.forEach((t, c) => (pos[t] = c));
  return pos;
};

describe('pdb-symmetry', () => {
  it('reads the 5x5 6-6-6-6 from two tables: the three edge blocks are one, the blank corner its own', () => {
    const s = sharePatternTables(5, 5, PARTITION_5X5.map((p) => [...p]));
    expect(s.map((p) => p.source)).toEqual([0, 0, 0, 3]);
    expect(sharePatternTables(4, 4, PARTITION_4X4.map((p) => [...p])).map((p) => p.source)).toEqual([0, 1, 2]);
  });

  it('gives a rotated pattern exactly the values of its own table', () => {
    const own = ownTables(5, 5, SMALL_5X5);
    const shared = sharedTables(5, 5, SMALL_5X5);
    const sources = sharePatternTables(5, 5, SMALL_5X5).map((p) => p.source);
    expect(sources.slice(0, 3)).toEqual([0, 0, 0]);
    expect(new Set(shared.map((p) => p.table)).size).toBe(new Set(sources).size);
    const board = makeBoard(5, 5);
    const a = new PatternValues(board, own);
    const b = new PatternValues(board, shared);
    const rng = createRng('pdb symmetry');
    for (let i = 0; i < 300; i++) {
      const pos = posOf(sliding.scramble({ kind: 'sliding', size: 5 }, rng).tiles);
      const va = new Uint8Array(a.width);
      const vb = new Uint8Array(b.width);
      expect(b.full(pos, vb)).toBe(a.full(pos, va));
      // Slot orders differ between the two, but each pattern's value is the same.
      expect([...vb]).toEqual([...va]);
    }
  });
});

describe('pdb-symmetry near the blank', () => {
  it('does not share a table with a pattern that walls the blank in at the goal (its goal region differs)', () => {
    // [2, 6, 7] and [19, 20, 24] are one L shape turned 180°, but the second encloses the blank's home.
    const partition = [[2, 6, 7], [19, 20, 24], [1, 3, 4], [5, 9, 10], [8, 12, 13], [11, 16, 21], [14, 15, 18], [17, 22, 23]];
    expect(sharePatternTables(5, 5, partition)[1].source).toBe(1);
    const own = new PatternValues(makeBoard(5, 5), ownTables(5, 5, partition));
    const shared = new PatternValues(makeBoard(5, 5), sharedTables(5, 5, partition));
    const rng = createRng('pdb symmetry blank');
    for (let i = 0; i < 200; i++) {
      const tiles = sliding.scramble({ kind: 'sliding', size: 5 }, rng).tiles;
      expect(shared.bound(tiles)).toBe(own.bound(tiles));
    }
  });
});

describe('pdb-values', () => {
  it('updates one move at a time exactly as a full evaluation does, along random walks', () => {
    const board = makeBoard(5, 5);
    const pv = new PatternValues(board, sharedTables(5, 5, SMALL_5X5));
    const rng = createRng('pdb values walk');
    const s = sliding.scramble({ kind: 'sliding', size: 5 }, rng);
    const pos = posOf(s.tiles);
    const tiles = Uint8Array.from(s.tiles);
    let vals = new Uint8Array(pv.width);
    pv.full(pos, vals);
    for (let i = 0; i < 2000; i++) {
      const blank = pos[0];
      let to = -1;
      while (to < 0) to = board.neighbor[blank * 4 + rng.int(4)];
      const tile = tiles[to];
      tiles[blank] = tile;
      tiles[to] = 0;
      pos[tile] = blank;
      pos[0] = to;
      const next = new Uint8Array(pv.width);
      const h = pv.child(pos, vals, tile, next);
      const fresh = new Uint8Array(pv.width);
      expect(h).toBe(pv.full(pos, fresh));
      expect([...next]).toEqual([...fresh]);
      vals = next;
    }
  });

  it('agrees with the IDA* heuristic on the real 4x4 tables (two implementations)', { timeout: 600_000 }, async () => {
    const tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
    const board = makeBoard(4, 4);
    const pv = new PatternValues(board, tables);
    const ph = new PdbHeuristic(board, tables);
    const rng = createRng('pdb values vs heuristic');
    for (let i = 0; i < 500; i++) {
      const s = sliding.scramble({ kind: 'sliding', size: 4 }, rng);
      expect(pv.bound(s.tiles)).toBe(ph.reset(Uint8Array.from(s.tiles)));
    }
  });

  it('never overestimates on 5x5: at most the optimum of short walks (IDA* with Manhattan + LC)', () => {
    const board = makeBoard(5, 5);
    const pv = new PatternValues(board, sharedTables(5, 5, SMALL_5X5));
    const rng = createRng('pdb values admissible');
    let tight = 0;
    for (let i = 0; i < 60; i++) {
      const s = sliding.walk({ kind: 'sliding', size: 5 }, 10 + rng.int(20), rng);
      const ida = new IdaSearch(board, s.tiles, new ManhattanLcHeuristic(board));
      expect(ida.run(1e12)).toBe('found');
      const h = pv.bound(s.tiles);
      expect(h).toBeLessThanOrEqual(ida.solution().length);
      if (h === ida.solution().length) tight++;
    }
    expect(tight).toBeGreaterThan(0);
  });

  it('never overestimates Korf & Felner’s fifty 24-puzzles (published optima)', () => {
    const pv = new PatternValues(makeBoard(5, 5), sharedTables(5, 5, SMALL_5X5));
    const instances = korfFelner24();
    expect(instances).toHaveLength(50);
    expect(instances.reduce((s, x) => s + x.optimal, 0) / 50).toBeCloseTo(100.78, 2);
    for (const x of instances) {
      expect(sliding.parse({ kind: 'sliding', rows: 5, cols: 5, tiles: x.tiles }).ok).toBe(true);
      const h = pv.bound(x.tiles);
      expect(h).toBeLessThanOrEqual(x.optimal);
    }
  });
});
