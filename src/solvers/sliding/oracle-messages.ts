/** Messages between the exact oracle (main thread) and its worker thread. */

/** Passed once when the worker starts. */
export interface OracleWorkerData {
  /** Where the 4×4 pattern databases are cached. */
  readonly cacheDir: string;
  /** Nodes between budget checks (tests make it small to exercise the budget). */
  readonly sliceNodes?: number;
  /**
   * Two Int32s. The first the main thread sets to 1 while the oracle is paused: the worker then waits between
   * slices (and before loading its tables) until it is 0 again, and does not count the wait against a budget.
   * The second says how pinning went: {@link PIN_SET} by the main thread once it has pinned the worker's
   * thread to `pin`, then {@link PIN_CONFIRMED} or {@link PIN_REFUTED} by the worker, which reads the kernel.
   */
  readonly gate: SharedArrayBuffer;
  /** The 5×5 partition to read (default PARTITION_5X5; tests use small, quick ones). */
  readonly partition5x5?: readonly (readonly number[])[];
  /**
   * Cores no timed bot runs on, as a kernel CPU list ("3", "2-3"). The worker posts its thread id
   * ({@link OracleThread}), the main thread pins that thread there, and once the kernel's own record of the
   * thread agrees the main thread no longer shuts the gate for timed solves. Absent, or when pinning fails,
   * every hold shuts it as usual.
   */
  readonly pin?: string;
}

/** The second gate word: the main thread pinned the worker's thread (to be confirmed). */
export const PIN_SET = 1;
/** The worker saw the kernel let its thread run on exactly the cores asked: holds need not pause it. */
export const PIN_CONFIRMED = 2;
/** The worker saw otherwise: it stays paused by every hold. */
export const PIN_REFUTED = 3;

/** Posted once by a worker that is to be pinned: its kernel thread id. */
export interface OracleThread {
  readonly tid: number;
}

/** Solve one board exactly within a budget. */
export interface OracleRequest {
  readonly id: number;
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
  readonly budgetMs: number;
  /** The length of a solution already validated (a bot's answer): proving nothing is shorter is enough. */
  readonly known?: number;
}

/** The worker's answer to one request. */
export type OracleReply =
  | {
      readonly id: number;
      readonly status: 'exact';
      readonly optimal: number;
      /** One optimal solution (blank moves), so a caller can check it. */
      readonly moves: string;
      readonly nodes: number;
      readonly ms: number;
    }
  | {
      readonly id: number;
      /** No solution shorter than the request's `known` length exists. */
      readonly status: 'proved';
      readonly optimal: number;
      readonly nodes: number;
      readonly ms: number;
    }
  | {
      readonly id: number;
      readonly status: 'bound';
      /** Why there is no exact optimum (budget spent, tables missing, board too big). */
      readonly note: string;
      /** A lower bound the search proved on its way (its last completed threshold), when it ran at all. */
      readonly lowerBound?: number;
      readonly nodes?: number;
      readonly ms: number;
    };
