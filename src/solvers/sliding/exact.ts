import { makeBoard } from './board.ts';
import { IdaSearch } from './ida-search.ts';
import { ManhattanLcHeuristic } from './manhattan-lc.ts';
import { PdbHeuristic } from './pdb-heuristic.ts';
import { PdbIdaSearch } from './pdb-ida-search.ts';
import type { PatternTable } from './pdb-heuristic.ts';

/**
 * What an exact search concluded: the optimal solution; or, given the length of a known solution, that none
 * is shorter (`proved`: every iteration below it came up empty); or that it ran out of budget first.
 */
export type ExactOutcome =
  | { readonly status: 'exact'; readonly moves: string; readonly nodes: number; readonly heuristic: string }
  | { readonly status: 'proved'; readonly optimal: number; readonly nodes: number; readonly heuristic: string }
  | { readonly status: 'budget'; readonly nodes: number; readonly heuristic: string; readonly boundReached: number };

/** Boards up to this many cells get an exact answer from IDA* (beyond it only the weighted search is fast). */
export const EXACT_MAX_CELLS = 16;

/** Bigger shapes whose pattern databases make a short IDA* worth it for a tighter lower bound (5×5). */
export function boundBySearch(rows: number, cols: number): boolean {
  return rows === 5 && cols === 5;
}

/**
 * Optimal IDA* on one sliding board: the additive pattern databases (with reflection) when `tables` are
 * given (they must be the board's shape's: 4×4 or 5×5), else Manhattan + linear conflict. Works in slices of
 * `sliceNodes` and asks `expired()` between slices, so a caller can bound the time without threads or
 * timers. Both heuristics are admissible, so the first solution is optimal. `tiles` must be a solvable
 * arrangement (the referee's scrambles are).
 *
 * `known`, the length of a solution already in hand (a bot's validated answer), turns the search into a
 * proof that nothing is shorter. Every solution of a board has the same parity (each move moves the blank
 * one cell), so it is enough to search every path of f ≤ known − 2 once: on the exact shapes that is one
 * depth-first pass at that threshold, without the iterations below it that IDA* would repeat first. The
 * proof costs nothing when the start's heuristic is already known or known − 1. When that pass finds a
 * shorter solution (the known one was not optimal), IDA* from below settles the optimum, with that solution
 * as its known length. On 5×5, where the search only raises the bound within its budget, the iterations go
 * up from the heuristic as usual.
 */
export function exactSolve(
  rows: number,
  cols: number,
  tiles: ArrayLike<number>,
  tables: readonly PatternTable[] | null,
  expired: () => boolean,
  sliceNodes = 500_000,
  known?: number,
): ExactOutcome {
  const board = makeBoard(rows, cols);
  const heuristic = tables ? new PdbHeuristic(board, tables) : new ManhattanLcHeuristic(board);
  // With tables, the search that does their update in its own loop: the same nodes, a good deal faster.
  const start = () => (heuristic instanceof PdbHeuristic ? new PdbIdaSearch(board, tiles, heuristic) : new IdaSearch(board, tiles, heuristic));
  let nodes = 0;
  // The solution a proof pass found shorter than `known` (it was not optimal), if any.
  let found: string | undefined;
  if (known !== undefined && !boundBySearch(rows, cols)) {
    const search = start();
    const h0 = search.bound;
    // A start heuristic above the known length means an inadmissible heuristic or a wrong length: claim nothing.
    if (h0 > known) return { status: 'budget', nodes, heuristic: heuristic.name, boundReached: 0 };
    if (h0 >= known - 1) return { status: 'proved', optimal: known, nodes, heuristic: heuristic.name };
    search.bound = known - 2;
    search.stopAtBound = known - 1;
    let status = search.run(sliceNodes);
    while (status === 'running' && search.bound < known - 1 && !expired()) status = search.run(sliceNodes);
    nodes += search.nodes;
    if (status === 'running' && search.bound >= known - 1) return { status: 'proved', optimal: known, nodes, heuristic: heuristic.name };
    // Out of budget mid-pass (or a solvable board exhausted, which cannot be): only the start's bound stands.
    if (status !== 'found') return { status: 'budget', nodes, heuristic: heuristic.name, boundReached: h0 };
    // `known` was not optimal: IDA* from below, with the shorter solution as its known length, settles it
    // (a pass from above could find ever shorter ones one by one).
    found = search.solution();
    known = found.length;
  }
  const search = start();
  if (known !== undefined) search.stopAtBound = known;
  for (;;) {
    // search.bound is the current iteration's threshold: every length below it has been searched in full.
    if (known !== undefined && search.bound >= known) {
      // Past the known length would mean an inadmissible heuristic or a wrong length: claim nothing.
      if (search.bound > known) return { status: 'budget', nodes: nodes + search.nodes, heuristic: heuristic.name, boundReached: 0 };
      if (found !== undefined) return { status: 'exact', moves: found, nodes: nodes + search.nodes, heuristic: heuristic.name };
      return { status: 'proved', optimal: known, nodes: nodes + search.nodes, heuristic: heuristic.name };
    }
    const status = search.run(sliceNodes);
    if (status === 'found') return { status: 'exact', moves: search.solution(), nodes: nodes + search.nodes, heuristic: heuristic.name };
    // A solvable board is never exhausted; treat it like the budget so the bound stands rather than a lie.
    if (status === 'exhausted' || expired()) {
      return { status: 'budget', nodes: nodes + search.nodes, heuristic: heuristic.name, boundReached: search.bound };
    }
  }
}
