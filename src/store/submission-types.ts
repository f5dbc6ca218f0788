/**
 * The submissions' tables behind the Store (issue 32): each participant's submission with its status and
 * build log, and the versions they name, stored content-addressed (sha256 of the canonical archive) in
 * blocks of at most 1 MiB, once per hash, so every machine of a PostgreSQL arena can read any version.
 */

/** Where a submission is; the ladder's part (checking → placed) is read from its version at each look. */
export type StoredSubmissionStatus = 'received' | 'building' | 'checking' | 'placing' | 'placed' | 'failed';

/** One submission as stored. */
export interface SubmissionRecord {
  readonly id: number;
  readonly participant: string;
  /** The owned bot name, `alice/astar`. */
  readonly bot: string;
  /** The version: sha256 hex of its canonical archive. */
  readonly version: string;
  readonly status: StoredSubmissionStatus;
  readonly reason?: string;
  /** The canonical archive's length, in bytes (what counts against the participant's stored bytes). */
  readonly bytes: number;
  /** The ladder's version hash of the registered build (src/app/ladder/ladder-versions.ts), once registered. */
  readonly ladderHash?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A new submission (status `received`). */
export interface NewSubmission {
  readonly participant: string;
  readonly bot: string;
  readonly version: string;
  readonly bytes: number;
}

/** A participant's usage: submissions since a time, those received or building, stored bytes (each version once). */
export interface SubmissionUsage {
  readonly recent: number;
  readonly pending: number;
  readonly bytes: number;
}

/** The limit check an insert is made under. */
export interface Admission {
  readonly since: string;
  readonly ok: (u: SubmissionUsage) => boolean;
}

/** What may change of a submission; `null` clears a field. */
export interface SubmissionPatch {
  readonly status?: StoredSubmissionStatus;
  readonly reason?: string | null;
  /** At most 64 KiB of UTF-8 (the caller cuts it). */
  readonly log?: string | null;
  readonly ladderHash?: string | null;
}

/** A submitted bot as registered: a command bot in its built folder, with its owner and source version. */
export interface SubmittedBot {
  readonly name: string;
  readonly kind: 'command';
  readonly cmd: string;
  readonly cwd: string;
  readonly stdio?: boolean;
  readonly snapshot?: string;
  readonly runtime?: { readonly program: string; readonly binds: readonly string[]; readonly pathDirs: readonly string[] };
  readonly owner: string;
  /** The version (sha256 of its canonical archive) it was built from. */
  readonly source: string;
  readonly tokenHash?: undefined;
}

/** The submissions' and versions' tables of one store. */
export interface SubmissionStore {
  /**
   * Records a submission, status `received`, at `now` (ISO). With `admit`, the participant's usage since
   * `admit.since` is read under a lock held until the insert, and nothing is written (undefined) unless
   * `admit.ok(usage)`: two submissions at once cannot both pass a limit.
   */
  add(s: NewSubmission, now: string, admit?: Admission): Promise<SubmissionRecord | undefined>;
  get(id: number): Promise<SubmissionRecord | undefined>;
  /** A participant's submissions (every one without `participant`), newest first. */
  list(participant?: string): Promise<SubmissionRecord[]>;
  /** The submissions of `bot`, newest first. */
  ofBot(bot: string): Promise<SubmissionRecord[]>;
  update(id: number, patch: SubmissionPatch, now: string): Promise<void>;
  /** The build log kept, if any. */
  log(id: number): Promise<string | undefined>;
  /**
   * Takes the oldest `received` submission and marks it `building`, atomically: two builders (two servers
   * of one PostgreSQL database) never take the same one.
   */
  claimNext(now: string): Promise<SubmissionRecord | undefined>;
  /**
   * Puts back in the queue (`received`) every submission `building` since before `before` (ISO): a builder
   * that died (a killed server) leaves its build there, and its participant would wait for ever. Returns how many.
   */
  requeueStale(before: string, now: string): Promise<number>;
  /** Counts of a participant: submissions since `since` (ISO), those received or building, and stored bytes (each version once). */
  usage(participant: string, since: string): Promise<SubmissionUsage>;
  /** Stores a version's canonical bytes in blocks, once: false (nothing written) when the hash is stored. */
  putVersion(hash: string, blocks: readonly Uint8Array[], now: string): Promise<boolean>;
  /** The stored length and block count of a version, undefined when it is not stored. */
  versionInfo(hash: string): Promise<{ readonly bytes: number; readonly blocks: number } | undefined>;
  /** One block of a version (0-based), undefined past its end. */
  versionBlock(hash: string, seq: number): Promise<Uint8Array | undefined>;
  /** Registers a submitted bot, replacing a registration of that name in the same transaction. */
  putBot(bot: SubmittedBot, now: string): Promise<void>;
}
