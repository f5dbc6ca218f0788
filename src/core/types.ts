/**
 * Shared value types of puzzle-arena. These are the immutable, JSON-shaped values used by the API, the wire
 * and the database. Hot loops never work on them directly: each puzzle copies a state into a typed array.
 */
import type { PuzzleKind } from './puzzle-kinds.ts';

export type { HanoiState, PuzzleKind, PuzzleState, SlidingState, SwapsState, WarehouseState } from './puzzle-kinds.ts';

/**
 * Moves as they travel on the wire. Sliding (`"UDLR"`), Hanoi (`"ACAB"`) and warehouse (`"17U 4L"`) use a
 * string; chunks of a string solution are concatenated verbatim. Swaps use an array of piece-number pairs;
 * chunks are concatenated as arrays.
 */
export type WireMoves = string | ReadonlyArray<readonly [number, number]>;

/** A returned rejection (never thrown): a machine code and a human reason. */
export interface Rejection {
  readonly ok: false;
  readonly code: string;
  readonly reason: string;
}

/** A value or a rejection. */
export type Result<T> = { readonly ok: true; readonly value: T } | Rejection;

/** Builds a successful result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Builds a rejection. */
export function reject(code: string, reason: string): Rejection {
  return { ok: false, code, reason };
}

/**
 * What to generate. Sliding and swaps take rows/cols (or size for a square); Hanoi takes discs;
 * warehouse takes size (n, a perfect square ≥ 4).
 */
export interface ScrambleSpec<K extends string = PuzzleKind> {
  readonly kind: K;
  readonly rows?: number;
  readonly cols?: number;
  readonly size?: number;
  readonly discs?: number;
  /** Hanoi only: draw a random goal too, instead of all discs on C. */
  readonly randomGoal?: boolean;
}

/** The outcome of replaying a whole solution from a start state. */
export type ReplayOutcome =
  | { readonly verdict: 'solved'; readonly moves: number }
  | {
      readonly verdict: 'invalid';
      /** Number of moves applied legally before the failure. */
      readonly moves: number;
      /** 0-based index of the first illegal move; absent when all moves were legal but the goal was not reached. */
      readonly index?: number;
      readonly reason: string;
    };

/** The best the referee can cheaply say about a state's distance to its goal. */
export interface Bound {
  /** Exact optimum, when known. */
  readonly optimal?: number;
  /** Admissible lower bound (equals optimal when that is known). */
  readonly lowerBound: number;
}
