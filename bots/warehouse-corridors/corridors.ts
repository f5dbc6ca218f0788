/**
 * The blocks-and-corridors algorithm (thesis ch. 4), following permutation cycles: take one misplaced tile
 * out of its block (leaving a hole), carry it along the corridors to its destination, swap it in there,
 * which brings out the tile that stood there; carry that one on, and so on until the carried tile's
 * destination is the hole, which closes the cycle. Then the next cycle. Pure: state in, move chunks out.
 *
 * Where we depart from the thesis (the text is vague or wrong there):
 * - Step 1 ("take the first tile out") leaves a hole the thesis never mentions again; nor does it say how
 *   the last tile is placed. We follow permutation cycles: open each at its shallowest cell (cheapest to
 *   open and to close), close it by swapping the last tile into the hole, then open the next cycle.
 * - FD cannot already stand on the corridor cell next to the entry while tile a leaves through it, so it
 *   waits one cell aside: 12r moves per swap at level r ≥ 2 and 4 at level 1, not 12r − 2 and 3
 *   (swap-script.ts). Random instances stay far inside the 2n³ − 6n² + 4n√n bound (tests check it).
 * - The thesis always enters from the nearest corridor; we price every side and direction, adding the
 *   corridor trip, which never costs more.
 * - n = 4 (one 2×2 block): every cell is on level 1, so the 2×2 work area is never needed and the level-1
 *   exchange (X out to the corridor and aside, FD in) applies unchanged: no special case.
 * - §4.2.2's sums disagree with each other (2n√n + 4n − 42√n + 36 vs … − 24√n + 28) and §4.3 divides by
 *   n² − 2n√n − n where the tile count is n² − 2n√n + n; the bound itself, (n² − 2n√n + n)(2n + 4√n), checks.
 */
import { carry, routeLength } from './corridor-route.ts';
import { Floor } from '../shared/warehouse/floor.ts';
import { geometry } from '../shared/warehouse/geometry.ts';
import type { Geometry } from '../shared/warehouse/geometry.ts';
import { joinSolution, MoveWriter } from '../shared/warehouse/move-writer.ts';
import { frames, swapIn } from './swap-script.ts';
import type { Frame } from './swap-script.ts';

/** Depth of a block cell below its nearest corridor (level − 1). */
function depth(cell: number, n: number, m: number): number {
  const lr = (((cell / n) | 0) % (m + 1)) - 1, lc = ((cell % n) % (m + 1)) - 1;
  return Math.min(lr, lc, m - 1 - lr, m - 1 - lc);
}

function manhattan(a: number, b: number, n: number): number {
  return Math.abs(((a / n) | 0) - ((b / n) | 0)) + Math.abs((a % n) - (b % n));
}

/**
 * The cheapest frame for swapping into `d`: carrying FD from `from` (−1: no FD) to the frame's waiting cell,
 * the script, and (a guess at) carrying the tile that comes out towards its own destination `next` (−1: none).
 * The thesis always enters from the nearest corridor; we also try the other sides and along-directions,
 * which can only shorten the total.
 */
function bestFrame(g: Geometry, d: number, from: number, next: number): Frame {
  let best: Frame | undefined;
  let bestCost = Infinity;
  for (const f of frames(d, g.n, g.m)) {
    let cost = f.cost;
    if (from >= 0) cost += routeLength(from, f.wait, g.n, g.m);
    if (next >= 0) cost += manhattan(f.exit, next, g.n);
    if (cost < bestCost) {
      bestCost = cost;
      best = f;
    }
  }
  if (!best) throw new Error(`no frame reaches cell ${d}`);
  return best;
}

/** The cell of the cycle through `start` nearest to a corridor: cheapest to open and to close. */
function shallowestInCycle(floor: Floor, g: Geometry, start: number): number {
  let best = start;
  let bestDepth = depth(start, g.n, g.m);
  for (let c = g.home[floor.cells[start]]; c !== start && bestDepth > 0; c = g.home[floor.cells[c]]) {
    const dd = depth(c, g.n, g.m);
    if (dd < bestDepth) {
      bestDepth = dd;
      best = c;
    }
  }
  return best;
}

/** Solves one permutation cycle whose shallowest cell is `s0`. */
function solveCycle(floor: Floor, g: Geometry, s0: number): void {
  const x0 = floor.cells[s0];
  const open = bestFrame(g, s0, -1, g.home[x0]);
  swapIn(floor, open); // no FD: just takes x0 out, leaving a hole on s0
  for (let cur = x0; ; ) {
    const target = g.home[cur];
    const x = floor.cells[target];
    const f = bestFrame(g, target, floor.pos[cur], x === 0 ? -1 : g.home[x]);
    carry(floor, floor.pos[cur], f.wait, g.m);
    swapIn(floor, f);
    if (x === 0) return; // target was the hole: the cycle is closed
    cur = x;
  }
}

/**
 * Solves a warehouse board (n×n cells row-major, a perfect-square n ≥ 4, a valid permutation of the tiles on
 * the block cells) and yields the moves as string chunks of at most 1 MB; returns the number of moves.
 * Lazily: a chunk is yielded as soon as it is full, so memory stays bounded on huge boards.
 */
export function* corridorsSolution(n: number, cells: ArrayLike<number>): Generator<string, number> {
  const g = geometry(n);
  const out = new MoveWriter();
  const floor = new Floor(n, cells, g.tiles, out);
  for (let v = 1; v <= g.tiles; v++) {
    if (floor.pos[v] === g.home[v]) continue;
    solveCycle(floor, g, shallowestInCycle(floor, g, floor.pos[v]));
    yield* out.take();
  }
  yield* out.end();
  return out.count;
}

/** The whole solution as one string (tests and benchmarks), with its move count. */
export function solveCorridors(n: number, cells: ArrayLike<number>): { moves: string; count: number } {
  return joinSolution(corridorsSolution(n, cells));
}
