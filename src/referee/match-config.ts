import type { PuzzleState, ScrambleSpec } from '../core/types.ts';

/**
 * Everything that defines a match, stored as the match's config so `--resume` needs nothing else.
 * The scrambles themselves are stored too; `source` only records where they came from.
 */
export interface MatchConfig {
  /** Bot names, in the order given (registered or built-in). */
  readonly bots: readonly string[];
  /** Generated scrambles: the spec; absent when scrambles came from a file. */
  readonly spec?: ScrambleSpec;
  /** Number of generated scrambles. */
  readonly count: number;
  /** The user's seed (number or string), as given. */
  readonly seed: string;
  /** Random walk of k moves instead of uniform states. */
  readonly walk?: number;
  /** Path of the scramble file, informational. */
  readonly scrambleFile?: string;
  readonly timeLimitMs: number;
  readonly maxMoves: number;
  /** Parallel (scramble, bot) jobs; each job holds its own bot process. */
  readonly concurrency: number;
  /**
   * Equal move counts: a faster bot wins only when wall times differ by more than this; absent = the
   * default relative margin of outcome.ts (10% of the slower time, at least 5 ms).
   */
  readonly marginMs?: number;
}

/** Defaults for every optional setting of a match. */
export const MATCH_DEFAULTS = {
  count: 10,
  timeLimitMs: 10_000,
  maxMoves: 50_000_000,
  concurrency: 1,
} as const;

/** Scrambles given explicitly (a file), instead of generated from a spec. */
export type ExplicitScrambles = readonly PuzzleState[];
