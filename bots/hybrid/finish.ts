/**
 * Turning the beam's finished states into one answer: each leaves a final block (at most 4×4) to solve, and
 * the block's optimal length varies by a dozen moves between candidates that the beam rates alike, so the
 * candidates are ranked by moves so far + the block's admissible lower bound and solved optimally in that
 * order, skipping any whose bound cannot beat the best total found, within a node budget (a rare hard 4×4
 * block can take IDA* seconds; the budget keeps the whole answer inside its time).
 */
import type { Finished } from './beam.ts';
import type { BlockSolver } from './final-block.ts';
import { cutBlock } from './final-block.ts';
import type { Plan } from './plan.ts';

/** The best complete solution found and what finding it cost. */
export interface FinishResult {
  readonly moves: string;
  /** IDA* nodes spent on final blocks. */
  readonly nodes: number;
  /** Candidates solved optimally. */
  readonly solved: number;
}

/**
 * Completes the best of `finished` (non-empty). `maxNodes` bounds all the optimal block searches together;
 * when even the first candidate's block exceeds it, that block is solved by weighted IDA* instead (fast,
 * not optimal).
 */
export function finishBest(plan: Plan, finished: readonly Finished[], solver: BlockSolver, maxNodes: number): FinishResult {
  const { rows, cols, top, left } = plan;
  const ranked = finished
    .map((f) => {
      const block = cutBlock(rows, cols, f.tiles, top, left);
      return { f, block, bound: f.moves.length + solver.lowerBound(block) };
    })
    .sort((a, b) => a.bound - b.bound || a.f.moves.length - b.f.moves.length);
  let best: string | null = null;
  let nodes = 0;
  let solved = 0;
  for (const c of ranked) {
    if (best !== null && c.bound >= best.length) break;
    const left = maxNodes - nodes;
    if (left <= 0) break;
    const r = solver.solve(c.block, left);
    nodes += r.nodes;
    if (r.moves === null) continue;
    solved++;
    const total = c.f.moves + r.moves;
    if (best === null || total.length < best.length) best = total;
  }
  if (best === null) {
    const c = ranked[0];
    const r = solver.solveWeighted(c.block);
    nodes += r.nodes;
    best = c.f.moves + r.moves;
  }
  return { moves: best, nodes, solved };
}
