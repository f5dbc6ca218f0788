import type { PuzzleKind, PuzzleState, WireMoves } from '../core/types.ts';
import type { Capability, SolveInfo } from '../protocol/messages.ts';

/** What a solve callback gets besides the puzzle. */
export interface SolveContext {
  /** Epoch milliseconds (Date.now() clock) by which the final chunk must have been sent. */
  readonly deadline: number;
  /** The referee's time limit for this scramble, ms. */
  readonly timeLimitMs: number;
  /** The most moves the referee will accept. */
  readonly maxMoves: number;
  /** Aborted when the referee cancels this request or the connection ends. */
  readonly signal: AbortSignal;
}

/**
 * A solve callback's answer. `moves` may be the whole solution or an (async) iterable of chunks (a generator,
 * or an array of string chunks / of pair-array chunks), which the SDK streams as separate `moves` messages
 * so multi-million-move solutions stay under the payload limit.
 */
export type SolveAnswer =
  | ({ readonly moves: WireMoves | Iterable<WireMoves> | AsyncIterable<WireMoves> } & SolveInfo)
  | { readonly giveUp: string }
  | { readonly unsupported: string };

/** What a prepare callback gets: the class to get ready for, and its own (untimed for scoring) limit. */
export interface PrepareRequest {
  readonly kind: PuzzleKind;
  /** "sliding RxC", "hanoi N", "swaps RxC" or "warehouse N". */
  readonly puzzleClass: string;
  readonly timeLimitMs: number;
  readonly signal: AbortSignal;
}

/** A bot, as a TypeScript program describes itself to the SDK. */
export interface BotDefinition {
  readonly name: string;
  readonly version: string;
  readonly capabilities: readonly Capability[];
  solve(puzzle: PuzzleState, ctx: SolveContext): SolveAnswer | Promise<SolveAnswer>;
  /**
   * Optional warm-up: when given, the SDK declares `prepare` for every capability and calls this before the
   * first solve of each puzzle class (build tables, load files, warm the JIT); `ready` is sent when it returns.
   */
  prepare?(request: PrepareRequest): void | Promise<void>;
  /**
   * Whether the bot says `reuse: true` in its hello, letting the referee keep one start for several games
   * (default true: an SDK bot keeps no state between solves that the SDK does not manage). Set false for a
   * bot that must start afresh for every game.
   */
  readonly reuse?: boolean;
  /**
   * Whether the SDK's wire warm-up (wire-warm-up.ts: about 0.2 s of loopback solves, once per process) is
   * worth it before the first solve of this class (default: yes, for every class). It keeps the JIT's work
   * on the per-message path out of timed solves that take microseconds; a bot whose solves of a class take
   * milliseconds loses more to it than the cold path costs it, and may say no for that class. The warm-up
   * then runs in the first `prepare` of a class that says yes, if one comes.
   */
  wireWarmUp?(puzzleClass: string): boolean;
}
