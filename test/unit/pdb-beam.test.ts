import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import type { SolveContext } from '../../src/sdk/types.ts';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import { buildPatternDb } from '../../src/solvers/sliding/pdb-build.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { loadPdbSet } from '../../src/solvers/sliding/pdb-set.ts';
import { sharePatternTables } from '../../src/solvers/sliding/pdb-symmetry.ts';
import { PatternValues } from '../../src/solvers/sliding/pdb-values.ts';
import { anytimeBeam, ManhattanEvaluator } from '../../bots/shared/anytime-beam.ts';
import { LayerBeam } from '../../bots/shared/layer-beam.ts';
import { PdbLoader } from '../../bots/shared/pdb-loader.ts';
import { solvePdbBeam } from '../../bots/pdb-beam/solve.ts';
import { korfFelner24, SMALL_5X5 } from '../helpers/pdb-fixtures.ts';

function ctx(timeLimitMs: number, signal = new AbortController().signal): SolveContext {
  return { deadline: Date.now() + timeLimitMs, timeLimitMs, maxMoves: 1e7, signal };
}

/** Quick 3-tile tables for 5×5 (the real 6-6-6-6 takes minutes to build). */
function smallPatternTables(): PatternTable[] {
  const sources = sharePatternTables(5, 5, SMALL_5X5);
  const built = sources.map((p, i) => (p.source === i ? buildPatternDb(5, 5, p.tiles) : null));
  return sources.map((p) => ({ tiles: p.tiles, table: built[p.source]!, ...(p.cellMap ? { cellMap: p.cellMap } : {}) }));
}

function smallTables(): PatternValues {
  return new PatternValues(makeBoard(5, 5), smallPatternTables());
}

function runBeam(beam: LayerBeam): string | null {
  for (;;) {
    const st = beam.run(1e9);
    if (st === 'found') return beam.solution();
    if (st === 'failed') return null;
  }
}

const tmp = mkdtempSync(join(tmpdir(), 'pdb-beam-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('layer beam', () => {
  it('is a breadth-first search when its width holds whole layers: optimal on random 3x3 (exact table)', () => {
    const board = makeBoard(3, 3);
    const table = slidingTable(3, 3);
    const rng = createRng('beam bfs 3x3');
    for (let i = 0; i < 12; i++) {
      const s = sliding.scramble({ kind: 'sliding', size: 3 }, rng);
      const moves = runBeam(new LayerBeam(board, s.tiles, new ManhattanEvaluator(board), 30_000, Infinity));
      expect(sliding.replay(s, moves!).verdict).toBe('solved');
      expect(moves!.length).toBe(table.distance(s.tiles));
    }
  });

  it('finds nothing shorter than its bound allows, and answers the goal with no moves', () => {
    const board = makeBoard(3, 3);
    const s = sliding.scramble({ kind: 'sliding', size: 3 }, createRng('beam bound'));
    const opt = slidingTable(3, 3).distance(s.tiles);
    expect(runBeam(new LayerBeam(board, s.tiles, new ManhattanEvaluator(board), 30_000, opt))).toBeNull();
    expect(runBeam(new LayerBeam(board, [1, 2, 3, 4, 5, 6, 7, 8, 0], new ManhattanEvaluator(board), 10, Infinity))).toBe('');
  });

  it('answers every Korf & Felner 24-puzzle validly and never below its published optimum', { timeout: 300_000 }, () => {
    const pv = smallTables();
    const board = makeBoard(5, 5);
    for (const x of korfFelner24()) {
      const moves = runBeam(new LayerBeam(board, x.tiles, pv, 64, Infinity));
      expect(sliding.replay({ kind: 'sliding', rows: 5, cols: 5, tiles: x.tiles }, moves!).verdict).toBe('solved');
      expect(moves!.length).toBeGreaterThanOrEqual(x.optimal);
    }
  });
});

describe('anytime beam', () => {
  it('only ever improves on its first answer, and stops at a proved optimum', async () => {
    const board = makeBoard(3, 3);
    const rng = createRng('anytime 3x3');
    for (let i = 0; i < 10; i++) {
      const s = sliding.scramble({ kind: 'sliding', size: 3 }, rng);
      const opt = slidingTable(3, 3).distance(s.tiles);
      const first = runBeam(new LayerBeam(board, s.tiles, new ManhattanEvaluator(board), 4, Infinity))!;
      const r = (await anytimeBeam(board, s.tiles, new ManhattanEvaluator(board), { deadline: Date.now() + 60_000, startWidth: 4, maxWidth: 1 << 16, lowerBound: opt }))!;
      expect(sliding.replay(s, r.moves).verdict).toBe('solved');
      expect(r.moves.length).toBeLessThanOrEqual(first.length);
      expect(r.moves.length).toBe(opt);
      expect(r.provedOptimal).toBe(true);
    }
  });
});

describe('pdb-beam bot', () => {
  it('answers 5x5 boards by the deadline, re-validated by the puzzle kind, not claiming optimality', { timeout: 120_000 }, async () => {
    const tables = smallPatternTables();
    const rng = createRng('pdb-beam 5x5');
    for (const [source, name] of [
      [() => null, 'manhattan\\+lc'],
      [(r: number, c: number) => (r === 5 && c === 5 ? tables : null), 'pdb 3-3-3-3-3-3-3-3 \\+ reflection'],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const s = sliding.scramble({ kind: 'sliding', size: 5 }, rng);
        const a = await solvePdbBeam(s, ctx(1500), source);
        if (!('moves' in a)) throw new Error(JSON.stringify(a));
        expect(sliding.replay(s, a.moves as string).verdict).toBe('solved');
        expect(a.optimal).toBe(false);
        expect(a.note).toMatch(new RegExp(`anytime beam, \\d+ runs up to width \\d+, ranked by ${name}; lower bound \\d+`));
      }
    }
  });

  it('gives up when cancelled, declines unsolvable boards and boards over 25 cells', async () => {
    const s = sliding.scramble({ kind: 'sliding', size: 5 }, createRng('pdb-beam cancel'));
    const ac = new AbortController();
    const answer = solvePdbBeam(s, ctx(60_000, ac.signal), () => null);
    setTimeout(() => ac.abort(), 50);
    expect(await answer).toEqual({ giveUp: 'cancelled' });
    expect(await solvePdbBeam({ kind: 'sliding', rows: 3, cols: 3, tiles: [2, 1, 3, 4, 5, 6, 7, 8, 0] }, ctx(1000), () => null)).toMatchObject({
      giveUp: expect.stringContaining('unsolvable'),
    });
    const six = sliding.scramble({ kind: 'sliding', size: 6 }, createRng('pdb-beam 6x6'));
    expect(await solvePdbBeam(six, ctx(1000), () => null)).toEqual({ unsupported: 'boards of at most 25 cells' });
  });

  it('builds missing tables on a worker thread into the cache, answering null until they are ready', { timeout: 120_000 }, async () => {
    const partition = [[1, 2, 3], [4, 5]];
    const lines: string[] = [];
    const loader = new PdbLoader(tmp, (l) => lines.push(l), 2, 3, partition);
    expect(loader.get()).toBeNull();
    const tables = await loader.ready();
    expect(tables).not.toBeNull();
    expect([...tables![0].table]).toEqual([...buildPatternDb(2, 3, [1, 2, 3])]);
    expect(loadPdbSet(2, 3, partition, tmp)).not.toBeNull();
    expect(lines.some((l) => l.includes('2x3 pattern databases ready'))).toBe(true);
    // A second loader finds them in the cache at once.
    expect(new PdbLoader(tmp, () => {}, 2, 3, partition).get()).not.toBeNull();
  });
});
