/**
 * The dijkstra bot's solve callback: one cached {@link ShapeGraph} per board shape, built on first use and
 * kept for the life of the process, so only the first scramble of a shape pays for Dijkstra.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import type { SolveAnswer } from '../../src/sdk/types.ts';
import { unrankPerm } from './perm-rank.ts';
import { MAX_CELLS, buildShapeGraph, solveOnGraph } from './state-graph.ts';
import type { ShapeGraph } from './state-graph.ts';

/** A solve callback plus access to its cache (for preloading and benchmarks). */
export interface DijkstraSolver {
  solve(puzzle: PuzzleState): SolveAnswer;
  /** The graph of a shape, built now if not cached yet. */
  graph(rows: number, cols: number): ShapeGraph;
  /**
   * Gets ready for a puzzle class ("sliding RxC") before the timed solves: builds the graph and solves one
   * position at the longest distance, so neither the build nor the first compilation of the solve path lands
   * in a timed solve.
   */
  prepare(puzzleClass: string): void;
}

/** Creates a solver with an empty per-shape cache; `log` receives build notices (stderr in the bot). */
export function createDijkstraSolver(log: (line: string) => void = () => {}): DijkstraSolver {
  const cache = new Map<string, ShapeGraph>();
  const graph = (rows: number, cols: number): ShapeGraph => {
    const key = `${rows}x${cols}`;
    let g = cache.get(key);
    if (!g) {
      const t0 = performance.now();
      g = buildShapeGraph(rows, cols);
      log(`dijkstra: built ${key}: ${g.states} states, max depth ${g.maxDepth}, ${Math.round(performance.now() - t0)} ms`);
      cache.set(key, g);
    }
    return g;
  };
  const solve = (puzzle: PuzzleState): SolveAnswer => {
    if (puzzle.kind !== 'sliding') return { unsupported: `dijkstra solves sliding puzzles only, not ${puzzle.kind}` };
    const { rows, cols, tiles } = puzzle;
    if (rows * cols > MAX_CELLS) {
      // Refuse before allocating anything: 11 cells would already need 11! ranks.
      return { unsupported: `dijkstra keeps the whole state graph in memory: at most ${MAX_CELLS} cells, got ${rows}x${cols}` };
    }
    if (rows * cols < 2) return { unsupported: `board ${rows}x${cols} has no moves` };
    const t0 = performance.now();
    const g = graph(rows, cols);
    const moves = solveOnGraph(g, tiles);
    if (moves === null) return { giveUp: 'board is not reachable from the goal (not solvable)' };
    return {
      moves,
      optimal: true,
      computeMs: Math.round((performance.now() - t0) * 1000) / 1000,
      note: `Dijkstra once from the goal over all ${g.states} states of ${rows}x${cols}; path follows cached parents`,
    };
  };
  const prepare = (puzzleClass: string): void => {
    const m = /^sliding (\d+)x(\d+)$/.exec(puzzleClass);
    if (!m) return;
    const rows = Number(m[1]);
    const cols = Number(m[2]);
    if (rows * cols < 2 || rows * cols > MAX_CELLS) return;
    const g = graph(rows, cols);
    const deepest = g.dist.indexOf(g.maxDepth);
    if (deepest < 0) return;
    const tiles = new Uint8Array(g.cells);
    unrankPerm(deepest, g.cells, tiles, new Uint8Array(g.cells));
    solve({ kind: 'sliding', rows, cols, tiles: [...tiles] });
  };
  return { solve, graph, prepare };
}
