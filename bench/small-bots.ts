/**
 * Benchmarks of the six small bots (algorithms only, no protocol): dijkstra graph build and queries,
 * backtracking by optimal depth, Hanoi move generation, and the swap solvers on big boards.
 */
import { createRng, shuffleInPlace } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { searchSliding } from '../bots/backtracking/search.ts';
import { unrankPerm } from '../bots/dijkstra/perm-rank.ts';
import { UNREACHED, buildShapeGraph, solveOnGraph } from '../bots/dijkstra/state-graph.ts';
import { iterativeChunks } from '../bots/hanoi-iterative/iterative.ts';
import { planChunks } from '../bots/hanoi-recursive/chunks.ts';
import { parsePegs, planHanoi } from '../bots/hanoi-recursive/plan.ts';
import { adjacentSwapChunks } from '../bots/swaps-adjacent/adjacent.ts';
import { greedySwapChunks } from '../bots/swaps-greedy/greedy.ts';
import type { BenchRow, BenchSuite } from './types.ts';

function dijkstraRows(quick: boolean): BenchRow[] {
  const rows: BenchRow[] = [];
  const rng = createRng('bench-dijkstra');
  for (const [r, c] of [
    [3, 3],
    [2, 5],
  ]) {
    const t0 = performance.now();
    const g = buildShapeGraph(r, c);
    const ms = performance.now() - t0;
    rows.push({ name: `dijkstra build ${r}x${c}`, value: ms, unit: 'ms', note: `${g.states} states, max depth ${g.maxDepth}` });
    // What the bot keeps between scrambles: the two per-rank arrays. (A process-wide memory delta is noise
    // here: GC runs during the build.)
    rows.push({
      name: `dijkstra memory kept ${r}x${c}`,
      value: (g.dist.byteLength + g.via.byteLength) / 2 ** 20,
      unit: 'MiB',
      note: 'distance + next-move arrays, one byte per permutation rank each',
    });
    const queries = quick ? 200 : 2000;
    const states = Array.from({ length: queries }, () => sliding.scramble({ kind: 'sliding', rows: r, cols: c }, rng).tiles);
    let total = 0;
    const q0 = performance.now();
    for (const tiles of states) total += solveOnGraph(g, tiles)!.length;
    const perQuery = ((performance.now() - q0) * 1000) / queries;
    rows.push({ name: `dijkstra query ${r}x${c}`, value: perQuery, unit: 'µs', note: `${queries} random scrambles, mean ${(total / queries).toFixed(1)} moves` });
  }
  return rows;
}

/** Reservoir sample of `perDepth` 3×3 boards for each optimal depth, using the dijkstra distance array. */
function statesByDepth(perDepth: number): number[][][] {
  const g = buildShapeGraph(3, 3);
  const rng = createRng('bench-depths');
  const buckets: number[][][] = Array.from({ length: g.maxDepth + 1 }, () => []);
  const seen = new Array<number>(g.maxDepth + 1).fill(0);
  const perm = new Uint8Array(9);
  const used = new Uint8Array(9);
  for (let rank = 0; rank < g.dist.length; rank++) {
    const d = g.dist[rank];
    if (d === UNREACHED) continue;
    const k = ++seen[d];
    const slot = k <= perDepth ? k - 1 : rng.int(k);
    if (slot >= perDepth) continue;
    unrankPerm(rank, 9, perm, used);
    buckets[d][slot] = [...perm];
  }
  return buckets;
}

function backtrackingRows(quick: boolean): BenchRow[] {
  const buckets = statesByDepth(quick ? 3 : 25);
  const bands: Array<[number, number]> = [
    [0, 15],
    [16, 19],
    [20, 23],
    [24, 25],
    [26, 27],
    [28, 29],
    [30, 31],
  ];
  const rows: BenchRow[] = [];
  // Warm the JIT on a few deep states so the first band does not pay for compilation.
  for (const tiles of buckets[28].concat(buckets[31])) searchSliding(3, 3, Uint8Array.from(tiles));
  for (const [lo, hi] of bands) {
    let sum = 0;
    let worst = 0;
    let nodes = 0;
    let count = 0;
    for (let d = lo; d <= hi; d++) {
      for (const tiles of buckets[d]) {
        const t0 = performance.now();
        const r = searchSliding(3, 3, Uint8Array.from(tiles));
        const ms = performance.now() - t0;
        if (r.moves?.length !== d) throw new Error(`backtracking bench: depth ${d} state solved in ${r.moves?.length}`);
        sum += ms;
        worst = Math.max(worst, ms);
        nodes += r.nodes;
        count++;
      }
    }
    rows.push({
      name: `backtracking 3x3 depth ${lo}-${hi} mean`,
      value: sum / count,
      unit: 'ms',
      note: `worst ${worst.toFixed(2)} ms, ${count} states, mean ${Math.round(nodes / count)} nodes (IDA*, Manhattan)`,
    });
  }
  return rows;
}

function consume(chunks: Iterable<string>): number {
  let chars = 0;
  for (const c of chunks) chars += c.length;
  return chars / 2;
}

function hanoiRows(quick: boolean): BenchRow[] {
  const rows: BenchRow[] = [];
  const rng = createRng('bench-hanoi');
  // Warm the JIT on a small tower first, so the first measured row is not mostly compilation.
  consume(planChunks(planHanoi(parsePegs('A'.repeat(16))!, parsePegs('C'.repeat(16))!)));
  consume(iterativeChunks(16, 0, 2));
  for (const n of quick ? [20] : [20, 24]) {
    const tower = planHanoi(parsePegs('A'.repeat(n))!, parsePegs('C'.repeat(n))!);
    let t0 = performance.now();
    let moves = consume(planChunks(tower));
    rows.push({ name: `hanoi-recursive ${n} discs tower`, value: moves / ((performance.now() - t0) * 1000), unit: 'Mmoves/s', note: `${moves} moves, generation only` });
    let start = '';
    let goal = '';
    for (let i = 0; i < n; i++) {
      start += 'ABC'[rng.int(3)];
      goal += 'ABC'[rng.int(3)];
    }
    t0 = performance.now();
    moves = consume(planChunks(planHanoi(parsePegs(start)!, parsePegs(goal)!)));
    rows.push({ name: `hanoi-recursive ${n} discs random pair`, value: moves / ((performance.now() - t0) * 1000), unit: 'Mmoves/s', note: `${moves} moves` });
    t0 = performance.now();
    moves = consume(iterativeChunks(n, 0, 2));
    rows.push({ name: `hanoi-iterative ${n} discs`, value: moves / ((performance.now() - t0) * 1000), unit: 'Mmoves/s', note: `${moves} moves, generation only` });
  }
  return rows;
}

function swapsRows(quick: boolean): BenchRow[] {
  const rows: BenchRow[] = [];
  const side = quick ? 300 : 1000;
  const n = side * side;
  let harmonic = 0;
  for (let i = 1; i <= n; i++) harmonic += 1 / i;
  const seeds = quick ? 1 : 3;
  let totalMoves = 0;
  let totalMs = 0;
  for (let s = 0; s < seeds; s++) {
    const tiles = shuffleInPlace(Uint32Array.from({ length: n }, (_, k) => k + 1), createRng(`bench-swaps-${s}`));
    const t0 = performance.now();
    for (const chunk of greedySwapChunks(tiles)) totalMoves += chunk.length;
    totalMs += performance.now() - t0;
  }
  rows.push({ name: `swaps-greedy ${side}x${side} solve`, value: totalMs / seeds, unit: 'ms', note: `mean of ${seeds} seeds, incl. building the pair chunks` });
  rows.push({
    name: `swaps-greedy ${side}x${side} moves`,
    value: totalMoves / seeds,
    unit: 'moves',
    target: `n - H_n = ${(n - harmonic).toFixed(2)}`,
    note: `mean of ${seeds} seeds`,
  });
  const small = quick ? 50 : 100;
  const tiles = shuffleInPlace(Uint32Array.from({ length: small * small }, (_, k) => k + 1), createRng('bench-adjacent'));
  const t0 = performance.now();
  let adjacent = 0;
  for (const chunk of adjacentSwapChunks(tiles)) adjacent += chunk.length;
  rows.push({
    name: `swaps-adjacent ${small}x${small} moves`,
    value: adjacent,
    unit: 'moves',
    note: `${(performance.now() - t0).toFixed(0)} ms; greedy needs about ${Math.round(small * small - Math.log(small * small) - 0.58)} (n - H_n)`,
  });
  return rows;
}

/** The suite: quick keeps every section but uses smaller samples and boards. */
export const bench: BenchSuite = async ({ quick }) => [
  ...dijkstraRows(quick),
  ...backtrackingRows(quick),
  ...hanoiRows(quick),
  ...swapsRows(quick),
];
