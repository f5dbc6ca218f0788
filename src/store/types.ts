import type { Bound, PuzzleState, WireMoves } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';

/** How a registered bot is started. Built-in bots (bots/<name>/) are known without a row here. */
export interface BotRecord {
  readonly name: string;
  readonly kind: 'command' | 'remote';
  /** Command bots: the command line, run through the shell-free argv splitter of the CLI. */
  readonly cmd?: string;
  readonly cwd?: string;
  /** Command bots speaking newline-delimited JSON on stdin/stdout instead of WebSocket. */
  readonly stdio?: boolean;
  /** Remote bots: sha256 hex of the long-lived token; never the token itself. */
  readonly tokenHash?: string;
  readonly createdAt: string;
}

export type MatchStatus = 'running' | 'interrupted' | 'finished';

/** A match as stored: enough to replay it exactly and to resume it. */
export interface MatchRecord {
  readonly id: number;
  /** The full typed options the match was started with (JSON), so `--resume` needs nothing else. */
  readonly config: unknown;
  readonly seed: string;
  readonly generatorVersion: string;
  readonly bots: readonly string[];
  readonly status: MatchStatus;
  readonly createdAt: string;
}

/** One scramble of a match. */
export interface ScrambleRecord {
  readonly id: number;
  readonly matchId: number;
  /** 0-based position in the match. */
  readonly index: number;
  readonly state: PuzzleState;
  /** Puzzle class for ratings, e.g. "sliding 4x4". */
  readonly puzzleClass: string;
  readonly bound: Bound;
}

/** One bot's validated answer to one scramble. */
export interface ResultRecord {
  readonly scrambleId: number;
  readonly bot: string;
  readonly verdict: Verdict;
  /** The referee's own count of legal moves applied. */
  readonly moveCount: number;
  /** The moves as received (joined), so the result can be replayed and re-validated. */
  readonly moves: WireMoves;
  /** Referee wall clock from sending `solve` to the final chunk, ms. */
  readonly wallMs: number;
  /** The bot's own reported compute time, informational. */
  readonly reportedMs?: number;
  /** The bot's claim of optimality / note, informational. */
  readonly claimedOptimal?: boolean;
  readonly note?: string;
  /** For invalid: 0-based index of the first illegal move. */
  readonly errorIndex?: number;
  /** Reason text for any verdict but solved. */
  readonly error?: string;
}

/** One stored result with where it was played, as reports and the leaderboard consume it. */
export interface ResultRow extends ResultRecord {
  readonly matchId: number;
  readonly scrambleIndex: number;
  readonly puzzleClass: string;
  readonly bound: Bound;
}

/**
 * A result row without its moves: everything scoring, reporting and resuming need. Reading the moves of a
 * match can mean tens of megabytes (a 24-disc Hanoi answer is 33 MB), so only replays ask for them.
 */
export type ResultSummary = Omit<ResultRow, 'moves'>;

/**
 * Persistence port. The SQLite implementation (src/store/sqlite-store.ts) is the only importer of
 * better-sqlite3; an in-memory implementation exists for unit tests. Every write is committed before the
 * call returns, so a killed referee loses at most the scrambles in flight.
 */
export interface Store {
  // bots
  addBot(bot: Omit<BotRecord, 'createdAt'>): void;
  getBot(name: string): BotRecord | undefined;
  listBots(): BotRecord[];
  /** True when a bot was removed. Its past results stay. */
  removeBot(name: string): boolean;

  // matches
  createMatch(m: { config: unknown; seed: string; generatorVersion: string; bots: readonly string[] }): MatchRecord;
  getMatch(id: number): MatchRecord | undefined;
  listMatches(limit?: number): MatchRecord[];
  setMatchStatus(id: number, status: MatchStatus): void;

  // scrambles and results
  /** Inserts all scrambles of a match at once (one transaction). */
  addScrambles(matchId: number, scrambles: ReadonlyArray<Omit<ScrambleRecord, 'id' | 'matchId'>>): ScrambleRecord[];
  listScrambles(matchId: number): ScrambleRecord[];
  /** Commits one result at once. A second result for the same (scramble, bot) is a programmer error. */
  recordResult(r: ResultRecord): void;
  listResults(matchId: number): ResultRow[];
  /** Every result, optionally for one puzzle class. */
  allResults(puzzleClass?: string): ResultRow[];
  /** {@link listResults} without the moves. */
  listSummaries(matchId: number): ResultSummary[];
  /** {@link allResults} without the moves, for the leaderboard. */
  allSummaries(puzzleClass?: string): ResultSummary[];

  close(): void;
}
