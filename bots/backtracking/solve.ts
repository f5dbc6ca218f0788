/**
 * The backtracking bot's solve callback: validates the board, checks solvability by parity, then runs
 * {@link searchSliding} with the bot's options.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/types.ts';
import { isSolvable } from '../../src/puzzles/sliding/parity.ts';
import { toBoard } from './board.ts';
import { searchSliding } from './search.ts';
import { formatTraceNode } from './board-file.ts';

/** Largest board handled: 3×3 and smaller shapes (2×3, 2×4, ...). */
export const MAX_CELLS = 9;

/** Bot-level settings (from the command line). */
export interface BacktrackingOptions {
  readonly strategy?: 'ida' | 'dfbnb';
  readonly seedPruning?: boolean;
  /** When set, every visited node is written here in seed 003's printCurrent() format (slow: debug only). */
  readonly trace?: (text: string) => void;
}

/** Solves one scramble; `ctx` may be partial for offline use (no deadline = search to the end). */
export function solveBacktracking(
  puzzle: PuzzleState,
  ctx: Partial<Pick<SolveContext, 'deadline' | 'signal'>>,
  opts: BacktrackingOptions = {},
): SolveAnswer {
  if (puzzle.kind !== 'sliding') return { unsupported: `backtracking solves sliding puzzles only, not ${puzzle.kind}` };
  const { rows, cols } = puzzle;
  if (rows * cols > MAX_CELLS) {
    return { unsupported: `backtracking searches the whole move tree: at most ${MAX_CELLS} cells, got ${rows}x${cols}` };
  }
  const board = toBoard(rows, cols, puzzle.tiles);
  if (!board) return { giveUp: 'tiles are not a permutation of 0..rows*cols-1' };
  // Without this, an unsolvable board would make the search exhaust the whole tree up to the cap.
  if (!isSolvable(board, rows, cols)) return { giveUp: 'board is not solvable (parity)' };
  const trace = opts.trace;
  const t0 = performance.now();
  const r = searchSliding(rows, cols, board, {
    strategy: opts.strategy,
    seedPruning: opts.seedPruning,
    deadline: ctx.deadline,
    signal: ctx.signal,
    onVisit: trace ? (g, h, b) => trace(formatTraceNode(g, h, b, cols)) : undefined,
  });
  const computeMs = Math.round(performance.now() - t0);
  const how = opts.strategy === 'dfbnb' ? 'depth-first branch and bound' : 'iterative deepening DFS';
  if (r.stopped) return { giveUp: `time is up after ${r.nodes} nodes (${how})` };
  if (r.moves === null) {
    return { giveUp: opts.seedPruning ? 'seed 003 pruning cut every solution within the depth cap' : 'no solution within the depth cap' };
  }
  if (opts.seedPruning) {
    return {
      moves: r.moves,
      optimal: false,
      computeMs,
      nodes: r.nodes,
      note: `${how} with seed 003's cut (child Manhattan may not grow by 2): not admissible, may not be optimal`,
    };
  }
  return { moves: r.moves, optimal: true, computeMs, nodes: r.nodes, note: `${how}, bound g + Manhattan (admissible)` };
}
