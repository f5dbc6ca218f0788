/**
 * The hybrid bot's tuning per board size, measured on seeded random boards (bench/hybrid.ts, and the sweeps
 * recorded in docs/built-in-bots.md): the widest beam that stays around 1–2 s of CPU per board on the 2-core
 * development machine, and the step decay that gave the fewest moves across 5×5 … 10×10.
 */
import type { BeamOptions } from './beam.ts';

/** Everything one solve is tuned by. */
export interface HybridSettings extends BeamOptions {
  /** Node budget of all optimal final-block searches together. */
  readonly blockNodes: number;
  /** Node budget of the optimal IDA* tried first on boards of 10–16 cells (the beam takes over beyond it). */
  readonly smallNodes: number;
}

/** The settings for an R×C board. */
export function settingsFor(rows: number, cols: number): HybridSettings {
  const n = rows * cols;
  const side = Math.max(rows, cols);
  return {
    width: n <= 36 ? 4000 : n <= 64 ? 3000 : 2000,
    // Each step counts 0.88 of the one before. Moves ÷ lower bound on 12 boards per size, 5×5 … 9×9:
    // 0.80 → 1.51 1.62 1.71 1.87 1.93; 0.85 → 1.51 1.60 1.72 1.79 1.90; 0.88 → 1.51 1.63 1.71 1.77 1.86;
    // 0.91 → 1.51 1.56 1.74 1.90 1.89. On 10×10 (10–20 boards): 0.86 → 1.95, 0.88 → 1.92, 0.90 → 1.97,
    // 0.94 → 2.16, 0.96 → 2.54: beyond ~0.92 the later steps drown the current one and the beam drifts.
    decay: 0.88,
    blockWeight: 0.5,
    progressShare: 0.05,
    finishCount: 48,
    finishSlack: 6,
    maxDepth: 40 * n * side,
    blockNodes: 4_000_000,
    smallNodes: 20_000_000,
  };
}
