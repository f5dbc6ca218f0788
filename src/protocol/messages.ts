import type { PuzzleKind, PuzzleState, WireMoves } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';

/**
 * Protocol version spoken by this SDK, and the newest the referee speaks. Version 2 changed one thing: a
 * capability's `maxSize` counts what the CLI's size flag counts (a side for sliding and swaps); version 1
 * counted cells there. The referee still speaks 1 to a bot that says hello with 1 (see capability-size.ts).
 */
export const PROTOCOL_VERSION = 2;
/** Every version the referee understands, oldest first; it answers a bot in the bot's own version. */
export const PROTOCOL_VERSIONS: readonly number[] = [1, 2];
/** WebSocket subprotocol name; carries the version. */
export const SUBPROTOCOL = 'puzzle-arena.v1';
/** Largest single message the referee accepts (bytes). Bigger solutions must be sent in chunks. */
export const MAX_PAYLOAD = 4 * 1024 * 1024;
/**
 * Largest message a bot must accept from the referee: a `solve` carries the whole state, and a 1000×1000
 * board is about 7 MB of JSON. Bots' own messages stay under MAX_PAYLOAD by chunking; the referee's cannot.
 */
export const MAX_REFEREE_PAYLOAD = 64 * 1024 * 1024;
/** Environment variables a spawned bot reads to dial in. */
export const ENV_URL = 'ARENA_URL';
export const ENV_TOKEN = 'ARENA_TOKEN';
/** When set to "1", the bot speaks newline-delimited JSON on stdin/stdout instead of WebSocket. */
export const ENV_STDIO = 'ARENA_STDIO';

/**
 * What a bot can solve. `maxSize` bounds the size as `arena match` spells it: the side for sliding and swaps
 * (the larger of rows and columns, as `--size`), discs for hanoi (`--discs`), n for warehouse (`--size`).
 * Absent = no limit. (Protocol 1 counted cells for sliding and swaps; such a hello is read into `maxCells`.)
 */
export interface Capability {
  readonly kind: PuzzleKind;
  readonly maxSize?: number;
  /**
   * Set by the referee, never sent: a protocol-1 bot's `maxSize` for a kind that version counted in cells,
   * kept with that meaning so an old bot is offered exactly what it declared.
   */
  readonly maxCells?: number;
  /**
   * The bot wants an untimed `prepare` before its first `solve` of each puzzle class of this kind (and again
   * after every restart). Optional: a bot that does not declare it never receives one.
   */
  readonly prepare?: boolean;
}

// ---- bot → referee ----

/** First message of a bot. */
export interface HelloMessage {
  readonly type: 'hello';
  readonly protocol: number;
  readonly name: string;
  readonly version: string;
  readonly capabilities: readonly Capability[];
  /**
   * Optional: the bot may play several games on one start. The referee then keeps it running between
   * games (matches) of the same launch instead of saying `bye`, and a later game's `prepare`s and `solve`s
   * go to the same process. Each solve is still timed and limited alone; a bot that says this must expect
   * any number of solves, of any class it declared, on one connection. Absent (old bots): never reused, one
   * start per game as before.
   */
  readonly reuse?: boolean;
}

/** A chunk of a solution. The referee validates each chunk as it arrives; `final: true` ends the answer. */
export interface MovesMessage {
  readonly type: 'moves';
  readonly id: string;
  readonly moves: WireMoves;
  readonly final: boolean;
  /** Optional, informational, on the final chunk. */
  readonly info?: SolveInfo;
}

/** What a bot may say about its own answer (stored, never trusted for scoring). */
export interface SolveInfo {
  /** The bot's own claim that its answer is optimal (false for weighted/greedy modes). */
  readonly optimal?: boolean;
  /** The bot's own compute time in ms. */
  readonly computeMs?: number;
  /** Search nodes or any other count the bot wants recorded. */
  readonly nodes?: number;
  /** Free text, e.g. "weighted IDA*, w = h: not optimal". */
  readonly note?: string;
}

export interface GiveUpMessage {
  readonly type: 'give-up';
  readonly id: string;
  readonly reason?: string;
}

export interface UnsupportedMessage {
  readonly type: 'unsupported';
  readonly id: string;
  readonly reason?: string;
}

/** The answer to `prepare`: the bot is ready for timed puzzles of that class. */
export interface ReadyMessage {
  readonly type: 'ready';
  readonly id: string;
}

/** Any message a bot may send. */
export type BotMessage = HelloMessage | MovesMessage | GiveUpMessage | UnsupportedMessage | ReadyMessage;

// ---- referee → bot ----

export interface WelcomeMessage {
  readonly type: 'welcome';
  readonly protocol: number;
  readonly session: string;
  readonly limits: { readonly maxPayload: number };
}

export interface SolveMessage {
  readonly type: 'solve';
  readonly id: string;
  readonly puzzle: PuzzleState;
  readonly timeLimitMs: number;
  readonly maxMoves: number;
}

/**
 * Untimed warm-up, sent only to bots whose capability for `kind` has `prepare: true`: get ready for puzzles of
 * `puzzleClass` (build tables, load files, warm a JIT) within `timeLimitMs`, then answer `ready`. It carries
 * the class, never a scramble.
 */
export interface PrepareMessage {
  readonly type: 'prepare';
  readonly id: string;
  readonly kind: PuzzleKind;
  /** The arena's class name: "sliding RxC", "hanoi N", "swaps RxC", "warehouse N". */
  readonly puzzleClass: string;
  readonly timeLimitMs: number;
}

/** The referee no longer wants an answer for `id` (time is up or the match is stopping). */
export interface CancelMessage {
  readonly type: 'cancel';
  readonly id: string;
}

export interface ResultMessage {
  readonly type: 'result';
  readonly id: string;
  readonly verdict: Verdict;
  readonly moves: number;
  readonly timeMs: number;
  readonly index?: number;
  readonly reason?: string;
}

export interface ByeMessage {
  readonly type: 'bye';
  readonly reason?: string;
}

/** Any message the referee may send. */
export type RefereeMessage = WelcomeMessage | SolveMessage | PrepareMessage | CancelMessage | ResultMessage | ByeMessage;
