/**
 * A scripted exact oracle for in-process match tests, on the fake clock: it answers one request at a time,
 * `delayMs` each, in order, with the length of `solve(state)` as the optimum (except for the states `stuck`
 * names, which keep their bound with a note), records what it was asked, and counts holds.
 */
import type { PuzzleState } from '../../src/core/types.ts';
import type { OptimumOracle, OracleResult } from '../../src/solvers/oracle.ts';
import type { FakeClock } from './fake-clock.ts';

/**
 * An oracle on the fake clock: answers one request at a time, `delayMs` each, in order, with the known
 * solution's length as the optimum, except for the states `stuck` names, which keep their bound with a note.
 */
export class ScriptedOracle implements OptimumOracle {
  asked: PuzzleState[] = [];
  /** The known answer length each request came with. */
  known: Array<number | undefined> = [];
  closed = false;
  /** Holds taken, and holds not yet released. */
  holds = 0;
  open = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly waiting = new Set<(r: OracleResult) => void>();
  constructor(
    private readonly clock: FakeClock,
    private readonly delayMs: number,
    private readonly solve: (s: PuzzleState) => string,
    private readonly stuck: (s: PuzzleState) => boolean = () => false,
  ) {}
  covers(): boolean {
    return true;
  }
  hold(): () => void {
    this.holds++;
    this.open++;
    return () => void this.open--;
  }
  improve(state: PuzzleState, bound: { lowerBound: number; optimal?: number }, known?: number): Promise<OracleResult> {
    this.asked.push(state);
    this.known.push(known);
    return new Promise((resolve) => {
      this.waiting.add(resolve);
      this.queue = this.queue.then(
        () =>
          new Promise<void>((next) =>
            this.clock.setTimer(this.delayMs, () => {
              if (this.waiting.delete(resolve)) {
                const n = this.solve(state).length;
                resolve(this.stuck(state) ? { bound: { lowerBound: bound.lowerBound }, note: 'budget spent', ms: this.delayMs } : { bound: { optimal: n, lowerBound: n }, ms: this.delayMs });
              }
              next();
            }),
          ),
      );
    });
  }
  async close(): Promise<void> {
    this.closed = true;
    for (const resolve of this.waiting) resolve({ bound: { lowerBound: 0 }, interrupted: true, ms: 0 });
    this.waiting.clear();
  }
}
