/**
 * What the standing ladder keeps beside the results: bot versions (a hash of a bot's folder and command)
 * and ladder games (a normal match, planned before it is created so a crash between the two loses
 * nothing). Every ladder game is an ordinary match row; these tables only say which version played it and why.
 */

/** Where a version stands on the ladder. */
export type VersionStatus = 'new' | 'checking' | 'failed' | 'placing' | 'placed';

/** Every {@link VersionStatus}, in the order a version goes through them. */
export const VERSION_STATUSES: readonly VersionStatus[] = ['new', 'checking', 'failed', 'placing', 'placed'];

/** One version of a bot: its code as it was when the ladder first saw it. */
export interface BotVersion {
  readonly id: number;
  readonly bot: string;
  /** 1, 2, 3… per bot, in the order the ladder saw them. */
  readonly number: number;
  /** sha256 hex of the folder's files and the command line (src/app/ladder/ladder-versions.ts). */
  readonly hash: string;
  readonly command: string;
  readonly folder?: string;
  readonly status: VersionStatus;
  /** Why it has that status (a failed check's reason, what placement waits for). */
  readonly note?: string;
  /** The ladder's classes this version declared it plays (known after its check). */
  readonly classes: readonly string[];
  /** The version the bot has now (the last one the ladder saw for it). */
  readonly current: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A version as handed to the store. */
export interface NewBotVersion {
  readonly bot: string;
  readonly hash: string;
  readonly command: string;
  readonly folder?: string;
}

/** Why a ladder game was played. */
export type LadderPurpose = 'placement' | 'upkeep';

/** One ladder game: one match between versions on one class. */
export interface LadderGame {
  readonly id: number;
  /** The match's seed, unique: a match created before its game learned its id is found by it. */
  readonly seed: string;
  readonly puzzleClass: string;
  readonly purpose: LadderPurpose;
  /** The version being placed (placement games). */
  readonly subject?: number;
  /** Which version each bot of the match played as. */
  readonly entries: readonly { readonly bot: string; readonly versionId: number }[];
  /** Why this game and not another, as `arena ladder status` says it. */
  readonly why: string;
  readonly matchId?: number;
  readonly createdAt: string;
}

/** A game as handed to the store. */
export type NewLadderGame = Omit<LadderGame, 'id' | 'matchId' | 'createdAt'>;

/**
 * The ladder's tables. Every write is committed before its promise resolves; misuse (an unknown id) is a
 * programmer error and rejects.
 */
export interface LadderStore {
  /**
   * The version of `bot` with this hash, made now if new (status `new`, the next number), and made the bot's
   * current version (its others are not) in the same transaction.
   */
  saveVersion(v: NewBotVersion): Promise<BotVersion>;
  updateVersion(id: number, patch: { readonly status?: VersionStatus; readonly note?: string | null; readonly classes?: readonly string[] }): Promise<void>;
  /** Versions oldest first, of one bot or of all. */
  listVersions(bot?: string): Promise<BotVersion[]>;
  addGame(g: NewLadderGame): Promise<LadderGame>;
  setGameMatch(gameId: number, matchId: number): Promise<void>;
  /** Games newest first; at most `limit` (absent: all), only those with id below `before` when given. */
  listGames(o?: { readonly limit?: number; readonly before?: number }): Promise<LadderGame[]>;
  /** The id of the match with this seed, if one exists (the newest). */
  matchIdBySeed(seed: string): Promise<number | undefined>;
  getState(key: string): Promise<string | undefined>;
  setState(key: string, value: string): Promise<void>;
}
