/**
 * One sliding board, start to answer, without the protocol. Boards of at most 16 cells are solved
 * optimally (exact table up to 9 cells, IDA* above: with the 6-6-3 pattern databases on 4×4); bigger ones
 * by the reduction beam (beam.ts) and an optimal final block (finish.ts); on boards wider or taller than
 * {@link BEAM_SIDE} the constructive algorithm first fills lines until the free region fits. The beam runs in slices between
 * event-loop turns so cancel messages get in, and narrows itself when the clock says the configured width
 * would not finish in the time budget: on a busy machine the answer gets a little longer instead of late.
 * If the beam still produces nothing (it has a depth cap as a safety net), the constructive bot's
 * algorithm answers. Every answer is replayed before it leaves.
 */
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { hasSlidingTable, slidingTable } from '../../src/puzzles/sliding/table.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { reduceConstructive, solveConstructive } from '../shared/constructive/constructive.ts';
import { BeamSearch } from './beam.ts';
import { removeCycles } from '../shared/cycles.ts';
import { BlockSolver, cutBlock } from './final-block.ts';
import { finishBest } from './finish.ts';
import { planTables } from './plan-tables.ts';
import { settingsFor } from './settings.ts';
import type { HybridSettings } from './settings.ts';

/** How one solve may spend its time. */
export interface SolveControl {
  /** Epoch ms after which the answer is useless. */
  readonly deadline: number;
  /** Aim to answer within this many ms of the start (the beam narrows to fit). */
  readonly budgetMs: number;
  readonly signal?: AbortSignal;
  /** Overrides of the per-size settings (benchmarks and experiments). */
  readonly settings?: Partial<HybridSettings>;
}

/** An answer, or why there is none. */
export type HybridResult =
  | { readonly moves: string; readonly optimal: boolean; readonly nodes: number; readonly note: string }
  | { readonly giveUp: string };

/** The beam takes boards (or, after a constructive start, free regions) of at most this many rows and columns. */
export const BEAM_SIDE = 10;

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** The solver; keeps its final-block heuristics (and, through planTables, the plan tables) between boards. */
export class HybridSolver {
  private readonly blocks: BlockSolver;

  constructor(pdbs: () => readonly PatternTable[] | null) {
    this.blocks = new BlockSolver(pdbs);
  }

  /** Solves the R×C board `tiles` (a solvable arrangement; the caller validates). */
  async solve(rows: number, cols: number, tiles: readonly number[], ctl: SolveControl): Promise<HybridResult> {
    let r: HybridResult;
    if (rows <= BEAM_SIDE && cols <= BEAM_SIDE) r = await this.search(rows, cols, tiles, ctl);
    else {
      // Too big for the beam's tables: the constructive algorithm fills lines until BEAM_SIDE² is left.
      const red = reduceConstructive(rows, cols, tiles, BEAM_SIDE, BEAM_SIDE, { shouldStop: () => Date.now() >= ctl.deadline });
      if (!red) return { giveUp: 'time limit' };
      const block = cutBlock(rows, cols, red.board.tiles, red.top, red.left);
      const rest = await this.search(block.rows, block.cols, Array.from(block.tiles), ctl);
      if ('giveUp' in rest) return rest;
      r = { ...rest, moves: red.board.moves.toString() + rest.moves, note: `constructive down to ${block.rows}x${block.cols}, then ${rest.note}` };
    }
    if ('giveUp' in r) return r;
    // Never send a wrong answer: replay it with the puzzle's own validator first (cheap next to the search).
    if (sliding.replay({ kind: 'sliding', rows, cols, tiles }, r.moves).verdict !== 'solved') {
      throw new Error(`hybrid: internal error, answer for ${rows}x${cols} does not reach the goal`);
    }
    return r;
  }

  private async search(rows: number, cols: number, tiles: readonly number[], ctl: SolveControl): Promise<HybridResult> {
    const t0 = Date.now();
    const settings = { ...settingsFor(rows, cols), ...ctl.settings };
    const stopped = (): boolean => (ctl.signal?.aborted ?? false) || Date.now() >= ctl.deadline;
    if (hasSlidingTable(rows, cols)) {
      return { moves: slidingTable(rows, cols).solve(tiles), optimal: true, nodes: 0, note: 'exact table' };
    }
    if (rows * cols <= 16) {
      const block = { rows, cols, tiles: Uint8Array.from(tiles) };
      const r = this.blocks.solve(block, settings.smallNodes);
      if (r.moves !== null) return { moves: r.moves, optimal: true, nodes: r.nodes, note: `IDA*, ${this.blocks.heuristicName(rows, cols)}` };
    }
    const pt = planTables(rows, cols);
    const beam = new BeamSearch(pt, tiles, settings);
    while (beam.run(8) === 'running') {
      if (stopped()) return { giveUp: ctl.signal?.aborted ? 'cancelled' : 'time limit' };
      // Narrow the beam when the projected finish (elapsed time per completed step) overshoots the budget.
      const done = beam.progress();
      const elapsed = Date.now() - t0;
      if (done > 0.05 && elapsed > 200) {
        const projected = elapsed / done;
        if (projected > ctl.budgetMs) beam.setWidth(Math.max(8, Math.floor(beam.width * Math.max(0.25, (ctl.budgetMs / projected) * 0.9))));
      }
      await turn();
    }
    if (beam.finished.length === 0) {
      const bd = solveConstructive(rows, cols, tiles);
      if (!bd) return { giveUp: 'no solution found' };
      return { moves: bd.moves.toString(), optimal: false, nodes: beam.nodes, note: 'beam exhausted: constructive fallback' };
    }
    // The block searches run without a break; keep them well inside what is left of the time (IDA* does a
    // few million nodes a second even on a busy machine).
    const nodeBudget = Math.min(settings.blockNodes, Math.max(100_000, (ctl.deadline - Date.now()) * 1000));
    const fin = finishBest(pt.plan, beam.finished, this.blocks, nodeBudget);
    return {
      moves: removeCycles(rows, cols, tiles, fin.moves),
      optimal: false,
      nodes: beam.nodes + fin.nodes,
      note: `reduction beam (width ${beam.width}) + optimal ${rows - pt.plan.top}x${cols - pt.plan.left} block, not optimal`,
    };
  }
}
