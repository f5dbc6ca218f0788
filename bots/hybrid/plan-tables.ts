/**
 * A board shape's plan with every step's exact table and future-cost estimate (step-table.ts), built once
 * per shape and kept: a bot solving many boards of one size pays for them on the first board only.
 */
import { makePlan } from './plan.ts';
import type { Plan } from './plan.ts';
import { buildStepTable, stepEstimate } from './step-table.ts';
import type { StepTable } from './step-table.ts';

/** Everything the beam needs about a shape's plan. */
export interface PlanTables {
  readonly plan: Plan;
  /** D_k of every step. */
  readonly tables: readonly StepTable[];
  /** A_j of every step: over cells for a one-tile step, over cell pairs (first·n + second) for a pair. */
  readonly estimates: readonly Float32Array[];
}

const cache = new Map<string, PlanTables>();

/** The plan tables of an R×C board (R, C ≥ 2), memoized. */
export function planTables(rows: number, cols: number): PlanTables {
  const key = `${rows}x${cols}`;
  let pt = cache.get(key);
  if (!pt) {
    const plan = makePlan(rows, cols);
    const tables = plan.steps.map((s) => buildStepTable(rows, cols, s));
    const estimates = plan.steps.map((s, j) => stepEstimate(rows, cols, s, j > 0 ? plan.steps[j - 1].homes : [], tables[j]));
    pt = { plan, tables, estimates };
    cache.set(key, pt);
  }
  return pt;
}
