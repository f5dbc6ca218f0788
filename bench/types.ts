/** One line of the benchmark table. */
export interface BenchRow {
  /** Which suite and measurement, e.g. "sliding validate 100x100, 1e6 moves". */
  readonly name: string;
  readonly value: number;
  /** Unit of `value`, e.g. "Mmoves/s", "ms", "moves". */
  readonly unit: string;
  /** The target from the issue, as text, e.g. "≥ 50". */
  readonly target?: string;
  /** Anything else worth printing (sample size, max, etc.). */
  readonly note?: string;
  /**
   * The 1-minute load average the figure was measured at. A suite that samples it itself (at the moment
   * of its measurement) sets it; else bench/run.ts fills in the load when the suite finished.
   */
  readonly load?: number;
}

/** A benchmark suite: a file bench/<area>.ts exporting `bench` of this type. `quick` asks for a short run. */
export type BenchSuite = (opts: { readonly quick: boolean }) => Promise<BenchRow[]>;
