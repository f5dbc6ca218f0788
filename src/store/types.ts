import type { Bound, PuzzleState, WireMoves } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import type { RecordedMoves } from '../puzzles/move-pieces.ts';
import type { SummaryColumns } from '../core/summary-columns.ts';
import type { BotVersion, LadderGame, LadderStore } from './ladder-types.ts';
import type { ParticipantStore } from './participant-types.ts';
import type { SubmissionStore } from './submission-types.ts';
import type { StderrStore } from './stderr-types.ts';

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
  /** Command bots with a folder: the sha256 of the read-only snapshot of it they play (src/sandbox/snapshot). */
  readonly snapshot?: string;
  /** Command bots: the runtime resolved when registered (src/sandbox/runtime.ts), checked again at each start. */
  readonly runtime?: StoredRuntime;
  /** Submitted bots (issue 32): the participant who owns it, the part of `alice/astar` before the '/'. */
  readonly owner?: string;
  /** Submitted bots: the version (sha256 of its canonical archive) it was built from. */
  readonly source?: string;
  readonly createdAt: string;
}

/** A bot's runtime as stored: the program exec'd in its sandbox, host paths shown read-only, PATH folders. */
export interface StoredRuntime {
  readonly program: string;
  readonly binds: readonly string[];
  readonly pathDirs: readonly string[];
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
  /** The exact optimum or a lower bound; the exact oracle may raise it after the match starts. */
  readonly bound: Bound;
  /**
   * Why the bound is not an exact optimum where one was sought: "oracle pending" while the oracle works,
   * else its reason (budget spent, no pattern databases). Absent when the bound is all there is to know.
   */
  readonly boundNote?: string;
}

/** Which matches to list; every field narrows, absent fields do not. */
export interface MatchFilter {
  readonly status?: MatchStatus;
  /** A bot as recorded ("ida-star --weight 2"), or its name alone, which matches every variant. */
  readonly bot?: string;
  /**
   * A puzzle class (a kind and its size, as puzzles name it), or a prefix of whole words (the kind alone, or
   * the kind and the first size word): matches with a scramble of that class or of a class it begins.
   */
  readonly puzzleClass?: string;
}

/** One bot's validated answer to one scramble. */
export interface ResultRecord {
  readonly scrambleId: number;
  readonly bot: string;
  readonly verdict: Verdict;
  /** The referee's own count of legal moves applied. */
  readonly moveCount: number;
  /**
   * The moves as received, so the result can be replayed and re-validated: whole, or in the referee's
   * compact pieces (a long answer is never held as one JS value per move).
   */
  readonly moves: RecordedMoves;
  /** Referee wall clock from sending `solve` to the final chunk, ms. */
  readonly wallMs: number;
  /**
   * CPU time the bot's processes used over the same span, ms (all threads and children: above `wallMs` for
   * a bot that computes in parallel). Absent where it cannot be measured: a remote bot, no /proc, a bot
   * that died during the solve, results recorded before it was measured.
   */
  readonly cpuMs?: number;
  /** The bot's own reported compute time, informational. */
  readonly reportedMs?: number;
  /** The bot's claim of optimality / note, informational. */
  readonly claimedOptimal?: boolean;
  readonly note?: string;
  /** Search nodes (or another count) the bot reported, informational. */
  readonly nodes?: number;
  /** For invalid: 0-based index of the first illegal move. */
  readonly errorIndex?: number;
  /** Reason text for any verdict but solved. */
  readonly error?: string;
  /**
   * Who played it: the worker's name (distributed matches) and its machine's CPU model, so results from a
   * slower machine can be told apart. Informational; scoring never reads them.
   */
  readonly worker?: string;
  readonly cpu?: string;
}

/** One stored result with where it was played, as reports and the leaderboard consume it. */
export interface ResultRow extends Omit<ResultRecord, 'moves'> {
  /** The moves as received, joined (each answer whole: readers of answers of any length use Store.readMoves). */
  readonly moves: WireMoves;
  readonly matchId: number;
  readonly scrambleIndex: number;
  readonly puzzleClass: string;
  readonly bound: Bound;
}

/**
 * A result row without its moves: everything scoring, reporting and resuming need. Reading the moves of a
 * match can mean tens of megabytes (a 24-disc Hanoi answer is 33 MB), so readers stream them (readMoves).
 */
export type ResultSummary = Omit<ResultRow, 'moves'>;

/** Part of a match's scrambles: those with index ≥ `from`, at most `limit` of them, in index order. */
export interface ScramblePage {
  readonly from: number;
  readonly limit: number;
}

/** How many scrambles of one puzzle class a match holds. */
export interface ScrambleClassCount {
  readonly puzzleClass: string;
  readonly count: number;
}

/** A scramble as handed to the store: everything but the ids the store assigns. */
export type NewScramble = Omit<ScrambleRecord, 'id' | 'matchId'>;

/** An exact optimum in the store's cache: a state, by its canonical key, and its optimal solution length. */
export interface KnownOptimum {
  /** The state's canonical text (src/referee/refine-bounds.ts, stateKey): equal states, equal keys. */
  readonly key: string;
  readonly optimal: number;
}

/** A match as handed to the store, with its scrambles (at least one). */
export interface NewMatch {
  readonly config: unknown;
  readonly seed: string;
  readonly generatorVersion: string;
  readonly bots: readonly string[];
  /**
   * The first scrambles of the match, stored in the same transaction as the match, so no crash can leave a
   * match without scrambles. Huge matches store the rest later with {@link Store.addScrambles}.
   */
  readonly scrambles: readonly NewScramble[];
}

/**
 * The key and the database it seals, as a store holds them once sealing is on (src/store/seal.ts). Declared
 * here, not in seal.ts, so the store's types import nothing that imports them back.
 */
export interface SealKey {
  readonly key: Uint8Array;
  readonly dbId: string;
}

/** Rows of each sealed table that carry no seal. */
export interface UnsealedCounts {
  readonly matches: number;
  readonly results: number;
  readonly optima: number;
  readonly versions: number;
  readonly games: number;
}

/** What a database says about its seals (src/store/seal.ts). */
export interface SealMeta {
  /** A random id made with the database: every seal names it; a PostgreSQL database's key file is named by it. */
  readonly dbId: string;
  /** The key check (seal.ts keyCheck) of the database's key, once it has one. */
  readonly keyCheck?: string;
  /**
   * When the database got its key: the largest match and result ids then. Anything with a larger id was
   * written since, so a missing seal there is an edit, not an old row.
   */
  readonly sealedAfter?: { readonly match: number; readonly result: number };
  /** Matches created sealed (numbered 1…n), and the seal of that count. */
  readonly sealedMatches: number;
  readonly matchesSeal?: string;
  /**
   * The rows each table held without a seal when the head was sealed (rows older than the key): more
   * unsealed rows than these were written since by someone without the key.
   */
  readonly preKey?: UnsealedCounts;
  /** The head's seal (seal.ts headSeal): the key check, the watermark and `preKey`, signed with the key. */
  readonly headSeal?: string;
  /** Ladder games created sealed (numbered 1…n), and the seal of that count. */
  readonly sealedGames: number;
  readonly gamesSeal?: string;
}

/** The rows outside matches that decide a report or a ranking, with their seals, for `arena audit`. */
export interface SealedTables {
  /** The exact-optimum cache. */
  readonly optima: readonly { readonly key: string; readonly optimal: number; readonly seal?: string }[];
  readonly versions: readonly { readonly version: BotVersion; readonly seal?: string }[];
  /** Each game with its number among the sealed games (`seq`) and its seal. */
  readonly games: readonly { readonly game: LadderGame; readonly seq?: number; readonly seal?: string }[];
  /** How many rows of each sealed table have no seal now. */
  readonly unsealed: UnsealedCounts;
}

/** The seals of one match as stored, for `arena audit`; absent fields were never sealed. */
export interface MatchSeals {
  readonly seal?: string;
  /** Its number among the database's sealed matches. */
  readonly seq?: number;
  /** Results sealed in the match so far (numbered 1…n), and the seal of that count. */
  readonly sealedResults: number;
  readonly countSeal?: string;
  readonly scrambles: readonly { readonly scrambleId: number; readonly index: number; readonly stateSha256?: string; readonly seal?: string }[];
  readonly results: readonly {
    readonly resultId: number;
    readonly scrambleId: number;
    readonly bot: string;
    readonly seq?: number;
    readonly movesSha256?: string;
    readonly seal?: string;
  }[];
  /** Sealed results removed on purpose (`arena bot remove --purge`). */
  readonly removals: readonly { readonly seq: number; readonly scrambleIndex: number; readonly bot: string; readonly seal?: string }[];
}

/** What {@link Store.summaryColumnsSince} reads. */
export interface ColumnsSince {
  /** The results with an id above the one asked for, grouped by scramble. */
  readonly columns: SummaryColumns;
  /** The highest result id in the snapshot read (the one asked for when there is none above). */
  readonly lastId: number;
  /** A token that moves whenever results are deleted or a scramble's bound changes. */
  readonly rewrites: string;
  /**
   * How many results the snapshot holds, from a store where results can commit out of id order (concurrent
   * PostgreSQL writers): a reader whose count differs missed one and reads all again.
   */
  readonly total?: number;
}

/**
 * Persistence port. Every method is asynchronous so a networked database (PostgreSQL) implements the same
 * interface as the embedded SQLite store (src/store/sqlite/sqlite-store.ts, the only importer of better-sqlite3)
 * and the in-memory store for unit tests. Every write is committed before its promise resolves, so a killed
 * referee loses at most the scrambles in flight. Misuse (unknown match or scramble, duplicate bot name) is a
 * programmer error: the promise rejects.
 */
export interface Store {
  // bots
  addBot(bot: Omit<BotRecord, 'createdAt'>): Promise<void>;
  getBot(name: string): Promise<BotRecord | undefined>;
  listBots(): Promise<BotRecord[]>;
  /** True when a bot was removed. Its past results stay. */
  removeBot(name: string): Promise<boolean>;
  /** Replaces a command bot's snapshot and runtime (a new version taken by the ladder); false when no such bot. */
  setBotSnapshot(name: string, snapshot: string, runtime: StoredRuntime | undefined): Promise<boolean>;

  // matches
  /** Creates a match (status `running`) and its first scrambles in one transaction. */
  createMatch(m: NewMatch): Promise<MatchRecord>;
  getMatch(id: number): Promise<MatchRecord | undefined>;
  /** Matches newest first, at most `limit`, narrowed by `filter`. */
  listMatches(limit?: number, filter?: MatchFilter): Promise<MatchRecord[]>;
  setMatchStatus(id: number, status: MatchStatus): Promise<void>;

  // scrambles and results
  /** Appends scrambles to an existing match (one transaction: all or none). */
  addScrambles(matchId: number, scrambles: readonly NewScramble[]): Promise<ScrambleRecord[]>;
  /** The scrambles of a match in index order; with `page`, only that part (huge matches are read in pages). */
  listScrambles(matchId: number, page?: ScramblePage): Promise<ScrambleRecord[]>;
  /** How many scrambles of each class a match holds, in order of first appearance, without reading states. */
  scrambleClasses(matchId: number): Promise<ScrambleClassCount[]>;
  /**
   * Replaces a scramble's bound and its note (absent `note` clears it): the exact oracle answers after the
   * match has started. Results read afterwards carry the new bound.
   */
  setScrambleBound(scrambleId: number, bound: Bound, note?: string): Promise<void>;
  /**
   * Commits one result. Idempotent by (scramble, bot): when a result for the pair exists (a retried job),
   * the call changes nothing and the first write wins.
   */
  recordResult(r: ResultRecord): Promise<void>;
  /**
   * Commits several results in one transaction, each as {@link recordResult} would, in order: all or none.
   * Optional: a store without it gets one recordResult call per result.
   */
  recordResults?(rs: readonly ResultRecord[]): Promise<void>;
  /**
   * The results of a match with their moves joined, each answer whole: for tests and small checks. Replay,
   * export, audit and the web read summaries and stream each answer with {@link readMoves}.
   */
  listResults(matchId: number): Promise<ResultRow[]>;
  /** One result with its moves joined (see {@link listResults}). */
  getResult(scrambleId: number, bot: string): Promise<ResultRow | undefined>;
  /** {@link getResult} without the moves: what a replay or a viewer reads before streaming them (readMoves). */
  getSummary(scrambleId: number, bot: string): Promise<ResultSummary | undefined>;
  /** Deletes every result recorded under `bot` (exactly that name), in every match; returns how many. */
  removeResults(bot: string): Promise<number>;
  /** Every result with its moves joined (see {@link listResults}), optionally for one puzzle class. */
  allResults(puzzleClass?: string): Promise<ResultRow[]>;
  /** {@link listResults} without the moves. */
  listSummaries(matchId: number): Promise<ResultSummary[]>;
  /** {@link allResults} without the moves, for the leaderboard. */
  allSummaries(puzzleClass?: string): Promise<ResultSummary[]>;
  /** Every result as typed columns (what ratings read, nothing more): the leaderboard's fast read. */
  summaryColumns(): Promise<SummaryColumns>;
  /**
   * The results added after result id `afterId` (0: every result) as typed columns, read in one snapshot
   * with what says whether that is enough: results are otherwise only appended (ids grow), so a reader that
   * kept the columns up to `lastId` appends these, unless `rewrites` moved (a result deleted, a bound
   * changed) or `total` differs from what it holds, when it reads all again.
   */
  summaryColumnsSince(afterId: number): Promise<ColumnsSince>;
  /**
   * A cheap token that changes whenever a write is committed (by this store or another process), so a reader
   * may keep what it derived from the results until it changes; undefined when the store cannot tell cheaply.
   */
  changeMarker(): Promise<string | undefined>;

  // seals (src/store/seal.ts): written in the same transaction as what they cover, once a key is given
  /** The database's id and key check. */
  sealMeta(): Promise<SealMeta>;
  /** Records `keyCheck` as the database's key unless it already has one; returns the meta then in force. */
  claimSealKey(keyCheck: string): Promise<SealMeta>;
  /** Seals everything written from now on with `key` (the database's: the caller checked it), or stops. */
  sealWith(key: SealKey | undefined): void;
  /**
   * Seals the database's head (its key check, watermark and counts of older unsealed rows) when it has no
   * seal and this store may give it one: it claimed the key, or it brought the database up to the schema
   * step that added the head, in this process. True when the head is sealed afterwards. A head whose seal
   * was removed later is never resealed here: the audit reports it.
   */
  sealHead(key: SealKey): Promise<boolean>;
  /** The optima cache and the ladder's tables with their seals, and what is unsealed now. */
  sealedTables(): Promise<SealedTables>;
  /** The seals of a match, or undefined for an unknown match. */
  matchSeals(matchId: number): Promise<MatchSeals | undefined>;
  /**
   * One stored answer's moves, in pieces in order (one piece for a short answer; for a long one its form's
   * empty moves, then a block of at most 1 MiB at a time), so a reader never holds a 16.7 M-move answer,
   * on any store. From piece `from` (default 0) on: a reader that noted where a piece began (a replay's
   * checkpoint) reads on from there without reading what came before. Nothing for an unknown result.
   */
  readMoves(scrambleId: number, bot: string, from?: number): AsyncIterable<WireMoves>;

  // the exact-optimum cache, shared by every match and worker of the database
  /** The cached optima of these state keys (keys the cache does not know are absent from the map). */
  knownOptima(keys: readonly string[]): Promise<Map<string, number>>;
  /** Caches exact optima; a key already cached keeps its value (an optimum does not change). */
  addOptima(optima: readonly KnownOptimum[]): Promise<void>;

  /** The standing ladder's tables: bot versions and ladder games (src/store/ladder-types.ts). */
  ladder(): LadderStore;

  /** Participants (token hashes) and their web sessions (src/store/participant-types.ts). */
  participants(): ParticipantStore;

  /** Submissions and their stored versions (src/store/submission-types.ts). */
  submissions(): SubmissionStore;
  /** Each bot's stderr of each match, capped (src/store/stderr-types.ts). */
  stderrs(): StderrStore;

  close(): Promise<void>;
}
