import type { ResultSummary, ScrambleRecord } from '../store/types.ts';
import { tieBreakOf, type MatchConfig } from './match-config.ts';
import type { ScoredResult } from '../stats/match-stats.ts';
import type { SprtParams } from '../stats/sprt.ts';
import { sprtProgress, type SprtProgress } from '../stats/sprt-progress.ts';

/**
 * Follows a match's SPRT as results are recorded (the results seen so far, the progress recomputed). The
 * scramble order grows page by page as a huge match reads its scrambles: the test only ever looks at the
 * answered prefix, and pages come in index order from 0, so a scramble not yet read can only delay a
 * decision, never change one.
 */
export class SprtWatch {
  private readonly rows: ScoredResult[];
  private readonly order: number[] = [];
  state: SprtProgress;

  constructor(
    private readonly params: SprtParams,
    private readonly config: MatchConfig,
    stored: readonly ScoredResult[],
  ) {
    this.rows = [...stored];
    this.state = this.compute();
  }

  /** The next page of scrambles, in index order, continuing the previous one. */
  extend(page: readonly ScrambleRecord[]): void {
    for (const s of page) this.order.push(s.id);
    if (!this.state.decision) this.state = this.compute();
  }

  record(row: ScoredResult): void {
    this.rows.push(row);
    // The prefix only moves when a scramble completes; recomputing is a pass over it (microseconds each).
    if (!this.state.decision) this.state = this.compute();
  }

  private compute(): SprtProgress {
    const [a, b] = this.config.bots;
    return sprtProgress(this.params, a, b, this.order, this.rows, tieBreakOf(this.config));
  }
}

/**
 * Where a match's SPRT stands by its stored results alone: the test reads scrambles 0, 1, 2, … as long as
 * each has a result, and stops at the first one either bot has not answered, so a scramble nobody answered
 * ends the prefix as it would in the full list. What the decider asks after each job a worker completes,
 * what a watcher and a report ask; the same test a local match follows result by result.
 */
export function storedSprt(config: MatchConfig, stored: readonly ResultSummary[]): SprtProgress | undefined {
  if (!config.sprt || config.bots.length !== 2) return undefined;
  const [a, b] = config.bots;
  return sprtProgress(config.sprt, a, b, answeredOrder(stored), stored, tieBreakOf(config));
}

/** Scramble ids of indices 0, 1, 2, … as long as each has a result. */
export function answeredOrder(rows: readonly Pick<ResultSummary, 'scrambleId' | 'scrambleIndex'>[]): number[] {
  const idOf = new Map<number, number>();
  for (const r of rows) idOf.set(r.scrambleIndex, r.scrambleId);
  const order: number[] = [];
  for (let i = 0; idOf.has(i); i++) order.push(idOf.get(i)!);
  return order;
}
