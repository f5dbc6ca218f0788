/**
 * The whole state graph of one sliding-board shape, searched once with Dijkstra from the goal.
 *
 * Seed 001 built the graph of all boards and ran Dijkstra per query. Here the graph is implicit: a vertex is
 * the Lehmer rank of a board (0 = blank, so a board is a permutation of 0..n−1) and its edges are computed
 * from the rank on the fly, so no adjacency lists are stored. Dijkstra runs ONCE per shape from the goal
 * (all edges weigh 1 and every move is reversible, so distances from the goal are distances to it) and keeps
 * two byte arrays indexed by rank: the distance and the blank move that steps one edge closer to the goal.
 * Each query then just follows those moves: O(depth · n²). For 2×5 (10! = 3,628,800 ranks, half reachable)
 * that is 7.3 MB, kept in memory between scrambles.
 */
import { FACTORIAL, rankPerm, unrankPerm } from './perm-rank.ts';
import { Uint32Heap } from './uint32-heap.ts';

/** Most cells a shape may have: 10! ranks must fit the 22 rank bits of a heap key. */
export const MAX_CELLS = 10;
/** Distance marker for a rank not reachable from the goal (the other parity class). */
export const UNREACHED = 255;
/** Blank moves in index order; index ^ 1 is the opposite move. */
export const MOVE_LETTERS = 'UDLR';

const RANK_BITS = 22;
const RANK_MASK = (1 << RANK_BITS) - 1;

/** Dijkstra's result for one shape. */
export interface ShapeGraph {
  readonly rows: number;
  readonly cols: number;
  readonly cells: number;
  readonly goalRank: number;
  /** Distance to the goal by rank; {@link UNREACHED} for unreachable ranks. */
  readonly dist: Uint8Array;
  /** By rank: index into {@link MOVE_LETTERS} of the blank move one step closer to the goal. */
  readonly via: Uint8Array;
  /** Number of reachable states (vertices settled by Dijkstra). */
  readonly states: number;
  /** Largest distance to the goal (the shape's God's number). */
  readonly maxDepth: number;
  /** Number of edges relaxed while building. */
  readonly relaxations: number;
}

/** Moves the blank at `b` in direction `d` if the board edge allows; returns the new blank index or −1. */
export function stepBlank(b: number, d: number, rows: number, cols: number): number {
  const r = (b / cols) | 0;
  const c = b - r * cols;
  switch (d) {
    case 0:
      return r > 0 ? b - cols : -1;
    case 1:
      return r < rows - 1 ? b + cols : -1;
    case 2:
      return c > 0 ? b - 1 : -1;
    default:
      return c < cols - 1 ? b + 1 : -1;
  }
}

/** Runs Dijkstra from the goal of a rows×cols board (rows·cols ≤ {@link MAX_CELLS}). */
export function buildShapeGraph(rows: number, cols: number): ShapeGraph {
  const n = rows * cols;
  if (!(Number.isInteger(rows) && Number.isInteger(cols) && rows >= 1 && cols >= 1 && n >= 2 && n <= MAX_CELLS)) {
    throw new RangeError(`buildShapeGraph: unsupported shape ${rows}x${cols}`);
  }
  const total = FACTORIAL[n];
  const dist = new Uint8Array(total).fill(UNREACHED);
  const via = new Uint8Array(total).fill(UNREACHED);
  const perm = new Uint8Array(n);
  const used = new Uint8Array(n);
  for (let i = 0; i < n - 1; i++) perm[i] = i + 1;
  perm[n - 1] = 0;
  const goalRank = rankPerm(perm, n);

  const heap = new Uint32Heap(1 << 16);
  dist[goalRank] = 0;
  heap.push(goalRank);
  let states = 0;
  let maxDepth = 0;
  let relaxations = 0;
  while (heap.size > 0) {
    const key = heap.pop();
    const d = key >>> RANK_BITS;
    const u = key & RANK_MASK;
    if (d > dist[u]) continue; // stale entry (lazy deletion instead of decrease-key)
    states++;
    if (d > maxDepth) maxDepth = d;
    unrankPerm(u, n, perm, used);
    const b = perm.indexOf(0);
    for (let m = 0; m < 4; m++) {
      const nb = stepBlank(b, m, rows, cols);
      if (nb < 0) continue;
      perm[b] = perm[nb];
      perm[nb] = 0;
      const v = rankPerm(perm, n);
      perm[nb] = perm[b];
      perm[b] = 0;
      relaxations++;
      if (d + 1 < dist[v]) {
        dist[v] = d + 1;
        via[v] = m ^ 1; // from v, the opposite blank move leads back to u
        heap.push((((d + 1) << RANK_BITS) | v) >>> 0);
      }
    }
  }
  return { rows, cols, cells: n, goalRank, dist, via, states, maxDepth, relaxations };
}

/**
 * An optimal solution (blank moves, `UDLR`) for `tiles` on the graph's shape, or null when the board is not
 * reachable from the goal (wrong parity, or not a permutation of 0..n−1).
 */
export function solveOnGraph(graph: ShapeGraph, tiles: ArrayLike<number>): string | null {
  const n = graph.cells;
  if (tiles.length !== n) return null;
  const perm = new Uint8Array(n);
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (!(Number.isInteger(t) && t >= 0 && t < n) || seen[t]) return null;
    seen[t] = 1;
    perm[i] = t;
  }
  let r = rankPerm(perm, n);
  if (graph.dist[r] === UNREACHED) return null;
  let b = perm.indexOf(0);
  const out: string[] = [];
  while (r !== graph.goalRank) {
    const m = graph.via[r];
    const nb = stepBlank(b, m, graph.rows, graph.cols);
    perm[b] = perm[nb];
    perm[nb] = 0;
    b = nb;
    out.push(MOVE_LETTERS[m]);
    r = rankPerm(perm, n);
  }
  return out.join('');
}
