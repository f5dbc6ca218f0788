/**
 * Baseline warehouse solver: Brodal-style greedy swaps in goal order (seed 004), each swap done through
 * the corridors with straight tunnels (tunnel.ts) and BFS routes (bfs-route.ts).
 *
 * For each home cell h in row-major order whose tile v is elsewhere (on s): take v out of s through a tunnel
 * (s becomes a hole), carry it to h, tunnel-swap it in (the tile Y that stood on h comes out), carry Y to s
 * and tunnel it into the hole. Every tile placed stays placed, so it terminates after at most one swap per
 * tile. Cost per swap: two corridor trips (≈ 2 × 2n/3 on average) and three tunnels, roughly twice the
 * cycle-following corridors bot, which carries each tile only once.
 */
import { Floor } from '../shared/warehouse/floor.ts';
import { geometry } from '../shared/warehouse/geometry.ts';
import { joinSolution, MoveWriter } from '../shared/warehouse/move-writer.ts';
import { CorridorBfs } from './bfs-route.ts';
import { tunnelSwap, tunnelTo } from './tunnel.ts';

/** Yields the solution of a valid warehouse board as string chunks of ≤ 1 MB; returns the move count. */
export function* simpleSolution(n: number, cells: ArrayLike<number>): Generator<string, number> {
  const g = geometry(n);
  const out = new MoveWriter();
  const floor = new Floor(n, cells, g.tiles, out);
  const bfs = new CorridorBfs(n, g.corridor);
  for (let v = 1; v <= g.tiles; v++) {
    const h = g.home[v];
    const s = floor.pos[v];
    if (s === h) continue;
    const y = floor.cells[h];
    const ts = tunnelTo(s, n, g.m), th = tunnelTo(h, n, g.m);
    tunnelSwap(floor, ts); // v out onto ts.wait, hole on s
    bfs.carry(floor, ts.wait, th.wait);
    tunnelSwap(floor, th); // v on h, y out onto th.wait
    bfs.carry(floor, th.wait, ts.wait);
    tunnelSwap(floor, ts); // y into the hole on s
    if (floor.pos[v] !== h || floor.pos[y] !== s) throw new Error(`simple: swap of ${v} and ${y} failed`);
    yield* out.take();
  }
  yield* out.end();
  return out.count;
}

/** The whole solution as one string (tests and benchmarks), with its move count. */
export function solveSimple(n: number, cells: ArrayLike<number>): { moves: string; count: number } {
  return joinSolution(simpleSolution(n, cells));
}
