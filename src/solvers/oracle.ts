import type { Bound, PuzzleState } from '../core/types.ts';

/** What an oracle made of one scramble. */
export interface OracleResult {
  /** The exact optimum when found (`optimal` set), else the cheap bound, raised where the search proved more. */
  readonly bound: Bound;
  /** Why the bound stands (budget spent, no pattern databases, the oracle failed); absent when exact. */
  readonly note?: string;
  /** True when the oracle was closed before it answered: nothing was learned, ask again later. */
  readonly interrupted?: boolean;
  /** Time the oracle spent on it, ms. */
  readonly ms: number;
  /** Search nodes generated, when it searched (a steadier measure of work than time on a shared machine). */
  readonly nodes?: number;
}

/**
 * Knows the exact optimum of states whose cheap bound is only a bound. Handed to whoever plays a match, so
 * tests can pass a scripted one; src/solvers/sliding/oracle.ts has the real one for sliding boards.
 */
export interface OptimumOracle {
  /** True when `state`, whose cheap bound is `bound`, is worth asking about. */
  covers(state: PuzzleState, bound: Bound): boolean;
  /**
   * Resolves to the improved bound; never rejects (a failure is a note on the unchanged bound). `known` is
   * the length of a solution the caller has validated (a bot's answer): the optimum is at most that, and an
   * oracle may settle for proving that nothing shorter exists.
   */
  improve(state: PuzzleState, bound: Bound, known?: number): Promise<OracleResult>;
  /**
   * Holds the oracle's work while a timed solve runs: called as a bot's solve is sent, and the function it
   * returns when the answer is in; the oracle waits while any hold is open. Absent for an oracle that does
   * not compete for the bots' cores (a scripted one in tests).
   */
  hold?(): () => void;
  /**
   * Runs the oracle on the cores of `cpuList` (a kernel CPU list, "3" or "2-3") only, cores on which no
   * timed bot of the match runs (every bot is pinned elsewhere): it then works while bots are timed, since
   * it shares no core with them. `pinThread` pins one kernel thread there and says whether it did (the
   * caller owns process control). Called before the first request; an oracle that could not be pinned keeps
   * pausing for holds.
   */
  runOn?(cpuList: string, pinThread: (tid: number) => boolean): void;
  /**
   * Starts now what answering states like `samples` will need (the sliding oracle's thread, whose first job
   * is reading the 4×4 tables, 577 MB of 7-8): called before the bots start, so the load runs beside their
   * start instead of after the first answer. Only a head start: an oracle never warmed answers the same.
   */
  warm?(samples: readonly PuzzleState[]): void;
  /** Stops the oracle; pending requests resolve `interrupted` with the bound unchanged. */
  close(): Promise<void>;
}
