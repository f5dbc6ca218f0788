import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { WarehouseState } from '../../src/core/types.ts';
import { warehouse } from '../../src/puzzles/warehouse/index.ts';
import { solveSimpleRequest } from '../../bots/warehouse-simple/solve.ts';
import { Floor } from '../../bots/shared/warehouse/floor.ts';
import { geometry, goalCells } from '../../bots/shared/warehouse/geometry.ts';
import { CHUNK_BYTES, MoveWriter } from '../../bots/shared/warehouse/move-writer.ts';
import { simpleSolution, solveSimple } from '../../bots/warehouse-simple/greedy-swaps.ts';
import { tunnelSwap, tunnelTo } from '../../bots/warehouse-simple/tunnel.ts';

const SAMPLES: ReadonlyArray<readonly [number, number]> = [[4, 200], [9, 100], [16, 40], [25, 10], [49, 2], [100, 1]];

function solveChunks(start: WarehouseState): { chunks: string[]; count: number } {
  const it = simpleSolution(start.size, start.cells);
  const chunks: string[] = [];
  for (let r = it.next(); ; r = it.next()) {
    if (r.done) return { chunks, count: r.value };
    chunks.push(r.value);
  }
}

describe('warehouse-simple solver', () => {
  for (const [n, count] of SAMPLES) {
    it(`solves ${count} random n=${n} scrambles legally, with at least the Manhattan bound of moves`, () => {
      const rng = createRng(`bot-warehouse-simple-${n}`);
      for (let i = 0; i < count; i++) {
        const start = warehouse.scramble({ kind: 'warehouse', size: n }, rng);
        const { chunks, count: moves } = solveChunks(start);
        const r = warehouse.replayer(start);
        for (const c of chunks) {
          expect(c.length).toBeLessThanOrEqual(CHUNK_BYTES);
          expect(r.push(c)).toBeNull();
        }
        expect(r.finish()).toEqual({ verdict: 'solved', moves });
        expect(moves).toBeGreaterThanOrEqual(warehouse.bound(start).lowerBound);
      }
    });
  }

  it('returns an empty solution for a solved board', () => {
    for (const n of [4, 9, 16, 25]) expect(solveSimple(n, goalCells(n))).toEqual({ moves: '', count: 0 });
  });
});

describe('warehouse-simple tunnel', () => {
  it('swaps a waiting tile into any cell in 2k(k+2) + 2k + 6 moves, touching no other tile', () => {
    for (const n of [4, 9, 16, 25, 36]) {
      const g = geometry(n);
      for (let v = 1; v <= g.tiles; v++) {
        const t = tunnelTo(g.home[v], n, g.m);
        const cells = goalCells(n);
        const fd = g.tiles + 1;
        cells[t.wait] = fd;
        const out = new MoveWriter();
        const floor = new Floor(n, cells, fd, out);
        tunnelSwap(floor, t);
        const expected = goalCells(n);
        expected[g.home[v]] = fd;
        expected[t.wait] = v;
        let same = true;
        for (let i = 0; i < expected.length; i++) same &&= floor.cells[i] === expected[i];
        expect(same).toBe(true);
        expect(out.count).toBe(2 * t.k * (t.k + 2) + 2 * t.k + 6);
      }
    }
  });
});

describe('warehouse-simple bot', () => {
  it('declines other kinds and boards above its size limit', () => {
    expect(solveSimpleRequest({ kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' })).toHaveProperty('unsupported');
    expect(solveSimpleRequest({ kind: 'warehouse', size: 121, cells: goalCells(121) })).toHaveProperty('giveUp');
    const answer = solveSimpleRequest({ kind: 'warehouse', size: 9, cells: goalCells(9) });
    expect(answer).toMatchObject({ optimal: false });
  });
});
