import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { WarehouseState } from '../../src/core/types.ts';
import { warehouse } from '../../src/puzzles/warehouse/index.ts';
import { solveCorridorsRequest } from '../../bots/warehouse-corridors/solve.ts';
import { Floor } from '../../bots/shared/warehouse/floor.ts';
import { geometry, goalCells, thesisBound } from '../../bots/shared/warehouse/geometry.ts';
import { CHUNK_BYTES, MoveWriter } from '../../bots/shared/warehouse/move-writer.ts';
import { corridorsSolution, solveCorridors } from '../../bots/warehouse-corridors/corridors.ts';
import { frames, swapIn } from '../../bots/warehouse-corridors/swap-script.ts';

/** Random scrambles per size: many small boards, a few big ones (the brief's sample sizes). */
const SAMPLES: ReadonlyArray<readonly [number, number]> = [[4, 200], [9, 100], [16, 50], [25, 20], [36, 5], [49, 3], [100, 2]];

interface Run {
  readonly start: WarehouseState;
  readonly chunks: string[];
  readonly count: number;
}

function solve(start: WarehouseState): Run {
  const it = corridorsSolution(start.size, start.cells);
  const chunks: string[] = [];
  for (let r = it.next(); ; r = it.next()) {
    if (r.done) return { start, chunks, count: r.value };
    chunks.push(r.value);
  }
}

/** Solutions are computed once per size and shared by the property tests below. */
const runs = new Map<number, Run[]>();
function runsFor(n: number, count: number): Run[] {
  let list = runs.get(n);
  if (!list) {
    const rng = createRng(`bot-warehouse-corridors-${n}`);
    list = Array.from({ length: count }, () => solve(warehouse.scramble({ kind: 'warehouse', size: n }, rng)));
    runs.set(n, list);
  }
  return list;
}

function replayChunks(start: WarehouseState, chunks: readonly string[]) {
  const r = warehouse.replayer(start);
  for (const c of chunks) {
    const bad = r.push(c);
    if (bad) return { verdict: 'invalid', reason: bad.reason, count: r.count };
  }
  return { ...r.finish(), count: r.count };
}

describe('warehouse-corridors solver', () => {
  for (const [n, count] of SAMPLES) {
    it(`solves ${count} random n=${n} scrambles, every move legal, chunk by chunk`, () => {
      for (const run of runsFor(n, count)) {
        const outcome = replayChunks(run.start, run.chunks);
        expect(outcome.verdict).toBe('solved');
        expect(outcome.count).toBe(run.count);
      }
    });

    it(`stays within the thesis bound 2n³ − 6n² + 4n√n on n=${n}`, () => {
      for (const run of runsFor(n, count)) expect(run.count).toBeLessThanOrEqual(thesisBound(n));
    });

    it(`never beats the Manhattan lower bound on n=${n}`, () => {
      for (const run of runsFor(n, count)) expect(run.count).toBeGreaterThanOrEqual(warehouse.bound(run.start).lowerBound);
    });
  }

  it('returns an empty solution for a solved board', () => {
    for (const n of [4, 9, 16, 25]) expect(solveCorridors(n, goalCells(n))).toEqual({ moves: '', count: 0 });
  });

  it('solves hand-made cycles: deepest cells, same-block swaps, 2- and 3-cycles', () => {
    for (const n of [9, 16, 25, 36]) {
      const g = geometry(n);
      const centre = (br: number, bc: number): number => {
        const r = br * (g.m + 1) + 1 + ((g.m - 1) >> 1), c = bc * (g.m + 1) + 1 + ((g.m - 1) >> 1);
        return r * n + c;
      };
      const cases: number[][] = [
        [centre(0, 0), centre(g.m - 2, g.m - 2)], // two block centres, far apart
        [centre(0, 0), centre(0, 0) + 1], // centre with its neighbour, same block
        [centre(0, 0), centre(0, 0) + n, centre(1, 0)], // 3-cycle, two cells in one block
        [g.home[1], centre(0, 1)], // a corner tile with a centre
      ];
      for (const cyc of cases) {
        const cells = goalCells(n);
        const first = cells[cyc[0]];
        for (let i = 0; i < cyc.length - 1; i++) cells[cyc[i]] = cells[cyc[i + 1]];
        cells[cyc[cyc.length - 1]] = first;
        const start: WarehouseState = { kind: 'warehouse', size: n, cells };
        const { moves, count } = solveCorridors(n, cells);
        expect(warehouse.replay(start, moves)).toEqual({ verdict: 'solved', moves: count });
      }
    }
  });
});

/** Index of the first cell where the boards differ, −1 when equal (cheaper than toEqual in tight loops). */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : a.length;
}

describe('warehouse-corridors swap script', () => {
  it('takes a tile out against nothing and puts it back against nothing, touching no other tile', () => {
    for (const n of [4, 9, 16, 25, 36]) {
      const g = geometry(n);
      for (let v = 1; v <= g.tiles; v++) {
        for (const f of frames(g.home[v], n, g.m)) {
          const out = new MoveWriter();
          const floor = new Floor(n, goalCells(n), g.tiles, out);
          swapIn(floor, f); // no tile waits: this opens a cycle
          const expected = goalCells(n);
          expected[g.home[v]] = 0;
          expected[f.exit] = v;
          expect(firstDifference(floor.cells, expected)).toBe(-1);
          // Walk v from the exit to the waiting cell (level 1: two steps back along the corridor).
          if (f.exit !== f.wait) {
            floor.step(f.exit, f.exit - f.along);
            floor.step(f.exit - f.along, f.wait);
          }
          swapIn(floor, f); // the hole is the destination: this closes a cycle
          expect(firstDifference(floor.cells, goalCells(n))).toBe(-1);
          expect(out.count).toBeLessThanOrEqual(2 * f.cost);
        }
      }
    }
  });

  it('swaps in a carried tile in exactly 12r moves at level r ≥ 2 and 4 at level 1', () => {
    for (const n of [9, 25, 49]) {
      const g = geometry(n);
      for (let v = 1; v <= g.tiles; v += 3) {
        for (const f of frames(g.home[v], n, g.m)) {
          const cells = goalCells(n);
          const fd = g.tiles + 1; // a stranger waiting on the corridor
          cells[f.wait] = fd;
          const out = new MoveWriter();
          const floor = new Floor(n, cells, fd, out);
          swapIn(floor, f);
          const expected = goalCells(n);
          expected[g.home[v]] = fd;
          expected[f.exit] = v;
          expect(firstDifference(floor.cells, expected)).toBe(-1);
          expect(out.count).toBe(f.k === 0 ? 4 : 12 * (f.k + 1));
        }
      }
    }
  });
});

describe('warehouse-corridors bot', () => {
  it('declines other kinds and gives up on malformed boards', () => {
    expect(solveCorridorsRequest({ kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] })).toHaveProperty('unsupported');
    expect(solveCorridorsRequest({ kind: 'warehouse', size: 5, cells: [] })).toHaveProperty('giveUp');
    const cells = goalCells(9);
    cells[0] = 1;
    expect(solveCorridorsRequest({ kind: 'warehouse', size: 9, cells })).toHaveProperty('giveUp');
  });

  it('streams chunks of at most 1 MB that replay to the goal', () => {
    const start = warehouse.scramble({ kind: 'warehouse', size: 100 }, createRng('chunks'));
    const answer = solveCorridorsRequest(start);
    if (!('moves' in answer)) throw new Error('expected moves');
    expect(answer.optimal).toBe(false);
    const chunks = [...(answer.moves as Iterable<string>)];
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(replayChunks(start, chunks).verdict).toBe('solved');
  });
});
