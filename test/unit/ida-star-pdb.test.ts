import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import { ManhattanLcHeuristic } from '../../src/solvers/sliding/manhattan-lc.ts';
import { buildPatternDb } from '../../src/solvers/sliding/pdb-build.ts';
import { defaultCacheDir, loadPdb, pdbFileName } from '../../src/solvers/sliding/pdb-cache.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { rankCells, rankWeights } from '../../src/solvers/sliding/pdb-rank.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';

/**
 * Independent oracle: 0-1 BFS over EVERY arrangement of the board (both parities, tiles all distinct),
 * backwards from all states with the pattern home and the blank home, a move costing 1 when it moves a
 * pattern tile; the pattern value of a placement is the minimum over all arrangements that project onto it.
 */
function bruteForcePdb(rows: number, cols: number, pattern: number[]): Map<string, number> {
  const n = rows * cols;
  const board = makeBoard(rows, cols);
  const inPattern = new Set(pattern);
  const dist = new Map<string, number>();
  const deque: number[][] = [];
  const perms = (arr: number[]): number[][] => (arr.length <= 1 ? [arr] : arr.flatMap((x, i) => perms([...arr.slice(0, i), ...arr.slice(i + 1)]).map((p) => [x, ...p])));
  for (const p of perms([...Array(n).keys()])) {
    if (p[n - 1] !== 0 || pattern.some((t) => p[t - 1] !== t)) continue;
    dist.set(p.join(','), 0);
    deque.push(p);
  }
  let front = deque;
  while (front.length) {
    // Dijkstra by layers: settle 0-cost closure first, then the next layer.
    const nextLayer: number[][] = [];
    for (let i = 0; i < front.length; i++) {
      const s = front[i];
      const d = dist.get(s.join(','))!;
      const blank = s.indexOf(0);
      for (let dir = 0; dir < 4; dir++) {
        const to = board.neighbor[blank * 4 + dir];
        if (to < 0) continue;
        const t = s.slice();
        t[blank] = t[to];
        t[to] = 0;
        const cost = inPattern.has(s[to]) ? 1 : 0;
        const key = t.join(',');
        const old = dist.get(key);
        if (old === undefined || old > d + cost) {
          dist.set(key, d + cost);
          (cost === 0 ? front : nextLayer).push(t);
        }
      }
    }
    front = nextLayer;
  }
  const out = new Map<string, number>();
  for (const [key, d] of dist) {
    const s = key.split(',').map(Number);
    const proj = pattern.map((t) => s.indexOf(t)).join(',');
    out.set(proj, Math.min(out.get(proj) ?? Infinity, d));
  }
  return out;
}

const korf = [
  ['14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3', 57],
  ['13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6', 55],
  ['14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15', 59],
] as const;

/** Korf's goal has the blank first; rotating the board 180° and relabelling t → 16 − t gives ours, same distances. */
function fromKorf(text: string): number[] {
  const k = text.split(' ').map(Number);
  return Array.from({ length: 16 }, (_, c) => (k[15 - c] === 0 ? 0 : 16 - k[15 - c]));
}

const tmp = mkdtempSync(join(tmpdir(), 'ida-star-pdb-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('ida-star pattern database builder', () => {
  it('matches a brute-force projection of the full state space on tiny patterns', () => {
    for (const [rows, cols, pattern] of [[2, 3, [1, 2]], [2, 3, [2, 4, 5]], [2, 4, [3, 6, 7]], [3, 3, [1, 2, 3]]] as const) {
      const table = buildPatternDb(rows, cols, pattern);
      const oracle = bruteForcePdb(rows, cols, [...pattern]);
      expect(oracle.size).toBe(table.length);
      const w = rankWeights(rows * cols, pattern.length);
      for (const [cells, d] of oracle) expect(table[rankCells(cells.split(',').map(Number), pattern.length, w)]).toBe(d);
    }
  });

  it('rebuilds a corrupt or truncated cache file', async () => {
    const partition = [[1, 2, 3], [4, 5]];
    const first = await loadOrBuildPdbSet(2, 3, partition, { dir: tmp });
    const file = join(tmp, pdbFileName(2, 3, [1, 2, 3]));
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(file, bytes);
    expect(loadPdb(tmp, 2, 3, [1, 2, 3])).toBeNull();
    writeFileSync(file, bytes.subarray(0, 40));
    expect(loadPdb(tmp, 2, 3, [1, 2, 3])).toBeNull();
    const lines: string[] = [];
    const again = await loadOrBuildPdbSet(2, 3, partition, { dir: tmp, log: (l) => lines.push(l) });
    expect(lines.some((l) => l.includes('building pattern database {1,2,3}'))).toBe(true);
    expect(lines.some((l) => l.includes('{4,5}'))).toBe(false);
    expect([...again[0].table]).toEqual([...first[0].table]);
    expect(loadPdb(tmp, 2, 3, [1, 2, 3])).not.toBeNull();
  });
});

describe('ida-star 4x4 with 6-6-3 pattern databases and reflection', () => {
  // The real tables: read from the project cache, built there on the first run (a minute or two).
  const tables = loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir() });
  const board = makeBoard(4, 4);

  it('finds the published optimal lengths of Korf instances 1-3', { timeout: 900_000 }, async () => {
    const h = new PdbHeuristic(board, await tables);
    for (const [text, len] of korf) {
      const tiles = fromKorf(text);
      const search = new IdaSearch(board, tiles, h);
      expect(search.run(1e12)).toBe('found');
      expect(search.solution().length).toBe(len);
      expect(sliding.replay({ kind: 'sliding', rows: 4, cols: 4, tiles }, search.solution()).verdict).toBe('solved');
    }
  });

  it('agrees with plain Manhattan IDA* on random walks of up to 30 moves', { timeout: 900_000 }, async () => {
    const h = new PdbHeuristic(board, await tables);
    const rng = createRng('ida-star pdb walks');
    for (let i = 0; i < 25; i++) {
      const s = sliding.walk({ kind: 'sliding', rows: 4, cols: 4 }, 10 + rng.int(21), rng);
      const a = new IdaSearch(board, s.tiles, h);
      const b = new IdaSearch(board, s.tiles, new ManhattanLcHeuristic(board, false));
      expect(a.run(1e12)).toBe('found');
      expect(b.run(1e12)).toBe('found');
      expect(a.solution().length).toBe(b.solution().length);
      expect(sliding.replay(s, a.solution()).verdict).toBe('solved');
    }
  });

  it('never overestimates: the heuristic at the start is at most the optimal length', { timeout: 900_000 }, async () => {
    const h = new PdbHeuristic(board, await tables);
    const rng = createRng('ida-star pdb admissible');
    for (let i = 0; i < 200; i++) {
      const s = sliding.walk({ kind: 'sliding', rows: 4, cols: 4 }, 1 + rng.int(14), rng);
      const exact = new IdaSearch(board, s.tiles, new ManhattanLcHeuristic(board));
      exact.run(1e12);
      expect(h.reset(Uint8Array.from(s.tiles))).toBeLessThanOrEqual(exact.solution().length);
    }
  });
});
