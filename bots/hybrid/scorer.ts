/**
 * The static half of the beam's estimate (see beam.ts): for every tile, what it adds to a state's estimate
 * while its step is still to come, as a function of the cell it stands on, already multiplied by its step's
 * weight decay^j. One-tile steps and final-block tiles get a row of `single`; a pair (the last two tiles of
 * a line) is valued jointly from its step estimate, so it has an n×n table indexed by both tiles' cells.
 */
import type { PlanTables } from './plan-tables.ts';

/** Weighted per-tile estimates of one plan under one decay. */
export interface Scorer {
  /** decay^j for steps j = 0..S (S: the final block). */
  readonly stepWeight: Float64Array;
  /** single[t·n + c]: weighted estimate of tile t on cell c (one-tile steps and the final block). */
  readonly single: Float64Array;
  /** The other tile of t's pair, or −1. */
  readonly partner: Int16Array;
  /** pair[t] for the FIRST tile t of a pair: weighted estimate, index (cell of t)·n + (cell of partner). */
  readonly pair: readonly (Float64Array | null)[];
}

/**
 * Builds the scorer. `blockWeight` is the estimate, in moves per unit of Manhattan distance, of a final-block
 * tile (the block is solved optimally at the end, so only a rough pull towards it is wanted).
 */
export function makeScorer(pt: PlanTables, decay: number, blockWeight: number): Scorer {
  const { plan, estimates } = pt;
  const { rows, cols, steps } = plan;
  const n = rows * cols;
  const S = steps.length;
  const stepWeight = new Float64Array(S + 1);
  for (let j = 0; j <= S; j++) stepWeight[j] = Math.pow(decay, j);
  const single = new Float64Array(n * n);
  const partner = new Int16Array(n).fill(-1);
  const pair: (Float64Array | null)[] = new Array<Float64Array | null>(n).fill(null);
  for (let t = 1; t < n; t++) {
    const j = plan.stepOf[t];
    if (j === S) {
      const hr = ((t - 1) / cols) | 0;
      const hc = (t - 1) % cols;
      const w = stepWeight[S] * blockWeight;
      for (let c = 0; c < n; c++) single[t * n + c] = w * (Math.abs(((c / cols) | 0) - hr) + Math.abs((c % cols) - hc));
      continue;
    }
    const st = steps[j];
    if (st.tiles.length === 1) {
      const e = estimates[j];
      for (let c = 0; c < n; c++) single[t * n + c] = stepWeight[j] * e[c];
      continue;
    }
    const other = st.tiles[0] === t ? st.tiles[1] : st.tiles[0];
    partner[t] = other;
    if (st.tiles[0] === t) {
      const e = estimates[j];
      const w = new Float64Array(n * n);
      for (let i = 0; i < n * n; i++) w[i] = stepWeight[j] * e[i];
      pair[t] = w;
    }
  }
  return { stepWeight, single, partner, pair };
}
