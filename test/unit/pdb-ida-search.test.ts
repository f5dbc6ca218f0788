import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { applyMoves, isGoal, makeBoard } from '../../src/solvers/sliding/board.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { PdbIdaSearch } from '../../src/solvers/sliding/pdb-ida-search.ts';
import { rankAt, rankCells, rankWeights } from '../../src/solvers/sliding/pdb-rank.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';

describe('rankAt', () => {
  it('is rankCells for every pattern size, whatever the cells', () => {
    const rng = createRng('rank-at');
    for (const n of [9, 16, 25]) {
      for (const k of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const w = rankWeights(n, k);
        for (let trial = 0; trial < 200; trial++) {
          const pool = [...Array(n).keys()];
          const cells = new Uint8Array(k);
          for (let i = 0; i < k; i++) cells[i] = pool.splice(rng.int(pool.length), 1)[0]!;
          const padded = new Uint8Array(k + 3);
          padded.set(cells, 3);
          const wp = new Int32Array(k + 3);
          wp.set(w, 3);
          expect(rankAt(padded, 3, k, wp)).toBe(rankCells(cells, k, w));
        }
      }
    }
  });
});

describe('PdbIdaSearch', () => {
  it('makes the same search as IdaSearch with the PdbHeuristic: same nodes, same optimal answer (4×4, sliced)', async () => {
    const tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
    const board = makeBoard(4, 4);
    const rng = createRng('pdb-ida-search');
    for (let i = 0; i < 12; i++) {
      const tiles = sliding.walk({ kind: 'sliding', rows: 4, cols: 4 }, 40 + 5 * i, rng).tiles;
      const ref = new IdaSearch(board, tiles, new PdbHeuristic(board, tables));
      expect(ref.run(Infinity)).toBe('found');
      const fused = new PdbIdaSearch(board, tiles, new PdbHeuristic(board, tables));
      // In slices of a few nodes, as the bot runs it between event-loop turns.
      let status = fused.run(7);
      while (status === 'running') status = fused.run(7);
      expect(status).toBe('found');
      expect(fused.solution()).toBe(ref.solution());
      expect(fused.nodes).toBe(ref.nodes);
      expect(isGoal(applyMoves(board, tiles, fused.solution())!)).toBe(true);
    }
  }, 120_000);

  it('stops before an iteration at stopAtBound as IdaSearch does, and agrees on tables read through a symmetry (3×3)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pdb-ida-'));
    try {
      // On 3×3, {3,6} is the mirror image of {1,2}: one of the two is read through that symmetry.
      const partition = [[1, 2], [3, 6], [4, 5, 7, 8]];
      const tables = await loadOrBuildPdbSet(3, 3, partition, { dir });
      expect(tables.some((t) => t.cellMap !== undefined)).toBe(true);
      const board = makeBoard(3, 3);
      const rng = createRng('pdb-ida-search-3x3');
      for (let i = 0; i < 20; i++) {
        const tiles = sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, rng).tiles;
        const ref = new IdaSearch(board, tiles, new PdbHeuristic(board, tables));
        const fused = new PdbIdaSearch(board, tiles, new PdbHeuristic(board, tables));
        expect(fused.bound).toBe(ref.bound);
        ref.stopAtBound = fused.stopAtBound = ref.bound + 2;
        expect(fused.run(Infinity)).toBe(ref.run(Infinity));
        expect([fused.bound, fused.nodes]).toEqual([ref.bound, ref.nodes]);
        ref.stopAtBound = fused.stopAtBound = Infinity;
        expect(fused.run(Infinity)).toBe(ref.run(Infinity));
        expect([fused.solution(), fused.nodes]).toEqual([ref.solution(), ref.nodes]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
