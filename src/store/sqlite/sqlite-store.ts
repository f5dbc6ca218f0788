/**
 * The SQLite Store (better-sqlite3). The only importer of better-sqlite3 together with ./schema.ts (and
 * ./sqlite-columns.ts, the leaderboard's columnar read).
 * Every write method is its own transaction and is committed when its promise resolves (WAL,
 * synchronous=NORMAL: a committed result survives a killed process; only an OS crash may lose the last few).
 * better-sqlite3 is synchronous: the methods do their work before returning a settled promise, which keeps
 * the per-result cost of the embedded default low while callers treat every store alike.
 */
import Database from 'better-sqlite3';
import type { Bound, WireMoves } from '../../core/types.ts';
import type { SummaryColumns } from '../../core/summary-columns.ts';
import type * as T from '../types.ts';
import { migrate } from './sqlite-schema.ts';
import { encodeJson, nowIso, storedScramble } from '../row-codec.ts';
import { SqliteMoves, type StoredMovesKind } from './sqlite-moves.ts';
import { storedPieces, joinStored } from '../stored-moves.ts';
import { changeMarkerReader, summaryColumnsReader } from './sqlite-columns.ts';
import { sqliteColumnsSince } from '../columns-since.ts';
import { sqliteLadder } from './sqlite-ladder.ts';
import { sqliteParticipants } from './sqlite-participants.ts';
import { sqliteSubmissions } from './sqlite-submissions.ts';
import type { SubmissionStore } from '../submission-types.ts';
import type { ParticipantStore } from '../participant-types.ts';
import { sqliteStderr } from './sqlite-stderr.ts';
import type { StderrStore } from '../stderr-types.ts';
import type { LadderStore } from '../ladder-types.ts';
import { sha256Hex, type SealKey } from '../seal.ts';
import { SqliteSeals } from './sqlite-seals.ts';
import { SQLITE_HEAD_VERSION } from '../steps/seal-schema.ts';
import { isForeignKeyViolation, isUniqueViolation, oneLine, sqliteCode } from './sqlite-errors.ts';
import { SQLITE, runtimeText, toBot, toMatch, toScramble, toSummary, type BotRow, type MatchRow, type ResultJoinRow, type ScrambleRow, type SummaryRow } from '../sql-rows.ts';
import { positionalSql, sharedSql, sqliteArgs } from '../sql-text.ts';
import { SqliteOptima } from './sqlite-optima.ts';
import { SqliteResultWrites } from './sqlite-result-writes.ts';
import { retryBusy } from './sqlite-busy.ts';
import { SqliteCheckpoints } from './sqlite-checkpoints.ts';

/** How long a writer waits for another connection's lock before SQLITE_BUSY (ms). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) and migrates the database at `file`. Throws an Error whose message is a bare
 * one-line reason (the caller adds the path) when the file cannot be opened, is not a SQLite database,
 * belongs to another program, or has a newer schema.
 */
export function openSqliteStore(file: string): T.Store {
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (err) {
    throw new Error(oneLine(err));
  }
  let found: number;
  try {
    // The first statement is where a garbage file is detected (SQLITE_NOTADB).
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    found = migrate(db);
  } catch (err) {
    db.close();
    throw new Error(sqliteCode(err) === 'SQLITE_NOTADB' ? 'not a SQLite database (file is not a database)' : oneLine(err));
  }
  return new SqliteStore(db, found < SQLITE_HEAD_VERSION);
}

type Args = Record<number, unknown>;

/** Prepares every statement once: re-preparing per call would dominate the per-result cost. */
function prepare(db: Database.Database) {
  const sql = sharedSql(SQLITE);
  const p = <R = unknown>(text: string) => db.prepare<[Args], R>(text);
  return {
    addBot: p(sql.addBot),
    getBot: p<BotRow>(sql.getBot),
    listBots: p<BotRow>(sql.listBots),
    removeBot: p(sql.removeBot),
    setBotSnapshot: p(sql.setBotSnapshot),
    createMatch: p(sql.createMatch),
    getMatch: p<MatchRow>(sql.getMatch),
    listMatches: p<MatchRow>(sql.listMatches('json_each(m.bots) b')),
    setMatchStatus: p(sql.setMatchStatus),
    addScramble: db.prepare(
      `INSERT INTO scrambles (match_id, idx, state, puzzle_class, optimal, lower_bound, bound_note)
       VALUES (@matchId, @index, @state, @puzzleClass, @optimal, @lowerBound, @boundNote)`,
    ),
    listScrambles: p<ScrambleRow>(sql.listScrambles),
    pageScrambles: p<ScrambleRow>(sql.pageScrambles),
    scrambleClasses: p<{ puzzle_class: string; n: number }>(sql.scrambleClasses),
    setScrambleBound: p(sql.setScrambleBound),
    // Bound by position: the one statement of every result (see positionalSql).
    recordResult: db.prepare<unknown[]>(positionalSql(sql.insertResult)),
    removeResults: p(sql.removeResults),
    resultMoves: p<{ id: number; moves_kind: StoredMovesKind; moves: string | Uint8Array }>(sql.resultMoves),
    listResults: p<ResultJoinRow>(sql.listResults),
    getResult: p<ResultJoinRow>(sql.getResult),
    allResults: p<ResultJoinRow>(sql.allResults),
    classResults: p<ResultJoinRow>(sql.classResults),
    getSummary: p<SummaryRow>(sql.getSummary),
    listSummaries: p<SummaryRow>(sql.listSummaries),
    allSummaries: p<SummaryRow>(sql.allSummaries),
    classSummaries: p<SummaryRow>(sql.classSummaries),
  };
}

class SqliteStore implements T.Store {
  private readonly db: Database.Database;
  private readonly stmts: ReturnType<typeof prepare>;
  private readonly moves: SqliteMoves;
  private readonly seals: SqliteSeals;
  private sealKey: SealKey | undefined;
  private readonly optima: SqliteOptima;
  private ladderTables: LadderStore | undefined;
  private participantTables: ParticipantStore | undefined;
  private submissionTables: SubmissionStore | undefined;
  private stderrTable: StderrStore | undefined;
  private readonly results: SqliteResultWrites;
  /** Where the log's checkpoints run once results come quickly (a thread of their own). */
  private readonly checkpoints: SqliteCheckpoints;

  private readonly readColumns: () => SummaryColumns;
  private readonly readMarker: () => string;
  private readonly readSince: (afterId: number) => T.ColumnsSince;

  /**
   * @param mayStartHead this process brought the database across the step that added the head (or made it),
   *   so a head without a seal is an old one, not one whose seal was removed (see Store.sealHead).
   */
  constructor(db: Database.Database, private mayStartHead: boolean) {
    this.db = db;
    this.readColumns = summaryColumnsReader(db);
    this.readMarker = changeMarkerReader(db);
    this.moves = new SqliteMoves(db);
    this.seals = new SqliteSeals(db);
    this.optima = new SqliteOptima(db);
    this.stmts = prepare(db);
    this.results = new SqliteResultWrites(db, this.stmts.recordResult, this.moves, this.seals, () => this.sealKey);
    this.checkpoints = new SqliteCheckpoints(db);
    this.readSince = sqliteColumnsSince(db, sharedSql(SQLITE), this.readColumns);
  }

  async addBot(bot: Omit<T.BotRecord, 'createdAt'>): Promise<void> {
    try {
      await retryBusy(() => this.stmts.addBot.run(sqliteArgs(bot.name, bot.kind, bot.cmd ?? null, bot.cwd ?? null, SQLITE.bool(bot.stdio), bot.tokenHash ?? null, nowIso(), bot.snapshot ?? null, runtimeText(bot.runtime), bot.owner ?? null, bot.source ?? null)));
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error(`bot "${bot.name}" is already registered`);
      throw err;
    }
  }

  async getBot(name: string): Promise<T.BotRecord | undefined> {
    const row = this.stmts.getBot.get(sqliteArgs(name));
    return row && toBot(row);
  }

  async listBots(): Promise<T.BotRecord[]> {
    return this.stmts.listBots.all({}).map(toBot);
  }

  async removeBot(name: string): Promise<boolean> {
    return (await retryBusy(() => this.stmts.removeBot.run(sqliteArgs(name)))).changes > 0;
  }

  async setBotSnapshot(name: string, snapshot: string, runtime: T.StoredRuntime | undefined): Promise<boolean> {
    return (await retryBusy(() => this.stmts.setBotSnapshot.run(sqliteArgs(name, snapshot, runtimeText(runtime))))).changes > 0;
  }

  async createMatch(m: T.NewMatch): Promise<T.MatchRecord> {
    if (m.scrambles.length === 0) throw new Error('createMatch: a match needs at least one scramble');
    const create = this.db.transaction(() => {
      const info = this.stmts.createMatch.run(sqliteArgs(encodeJson(m.config), m.seed, m.generatorVersion, JSON.stringify(m.bots), nowIso()));
      const id = Number(info.lastInsertRowid);
      if (this.sealKey) this.seals.sealMatch(this.sealKey, { ...m, id });
      this.insertScrambles(id, m.scrambles);
      return id;
    }).immediate;
    let id: number;
    try {
      id = await retryBusy(create);
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error('createMatch: two scrambles at one index');
      throw err;
    }
    const created = await this.getMatch(id);
    if (!created) throw new Error('createMatch: inserted row vanished');
    return created;
  }

  async getMatch(id: number): Promise<T.MatchRecord | undefined> {
    const row = this.stmts.getMatch.get(sqliteArgs(id));
    return row && toMatch(SQLITE, row);
  }

  async listMatches(limit?: number, filter: T.MatchFilter = {}): Promise<T.MatchRecord[]> {
    // SQLite treats a negative LIMIT as "no limit".
    const rows = this.stmts.listMatches.all(sqliteArgs(limit ?? -1, filter.status ?? null, filter.bot ?? null, filter.puzzleClass ?? null));
    return rows.map((r) => toMatch(SQLITE, r));
  }

  async setMatchStatus(id: number, status: T.MatchStatus): Promise<void> {
    const info = await retryBusy(() => this.stmts.setMatchStatus.run(sqliteArgs(status, nowIso(), id)));
    if (info.changes === 0) throw new Error(`setMatchStatus: no match ${id}`);
  }

  async addScrambles(matchId: number, scrambles: readonly T.NewScramble[]): Promise<T.ScrambleRecord[]> {
    try {
      return await retryBusy(this.db.transaction(() => this.insertScrambles(matchId, scrambles)).immediate);
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error(`addScrambles: match ${matchId} already has a scramble at that index`);
      if (isForeignKeyViolation(err)) throw new Error(`addScrambles: no match ${matchId}`);
      throw err;
    }
  }

  async listScrambles(matchId: number, page?: T.ScramblePage): Promise<T.ScrambleRecord[]> {
    const rows = page ? this.stmts.pageScrambles.all(sqliteArgs(matchId, page.from, page.limit)) : this.stmts.listScrambles.all(sqliteArgs(matchId));
    return rows.map((r) => toScramble(SQLITE, r));
  }

  async scrambleClasses(matchId: number): Promise<T.ScrambleClassCount[]> {
    return this.stmts.scrambleClasses.all(sqliteArgs(matchId)).map((r) => ({ puzzleClass: r.puzzle_class, count: r.n }));
  }

  async setScrambleBound(scrambleId: number, bound: Bound, note?: string): Promise<void> {
    const set = this.db.transaction(() => {
      const info = this.stmts.setScrambleBound.run(sqliteArgs(bound.optimal ?? null, bound.lowerBound, note ?? null, scrambleId));
      if (info.changes > 0 && this.sealKey) this.seals.sealScramble(this.sealKey, scrambleId);
      return info.changes;
    }).immediate;
    if ((await retryBusy(set)) === 0) throw new Error(`setScrambleBound: no scramble ${scrambleId}`);
  }

  async recordResult(r: T.ResultRecord): Promise<void> {
    await retryBusy(() => this.results.one(r));
    this.checkpoints.wrote(1);
  }

  async recordResults(rs: readonly T.ResultRecord[]): Promise<void> {
    await retryBusy(() => this.results.many(rs));
    this.checkpoints.wrote(rs.length);
  }

  async listResults(matchId: number): Promise<T.ResultRow[]> {
    return this.stmts.listResults.all(sqliteArgs(matchId)).map((row) => this.toResult(row));
  }

  async getResult(scrambleId: number, bot: string): Promise<T.ResultRow | undefined> {
    const row = this.stmts.getResult.get(sqliteArgs(scrambleId, bot));
    return row && this.toResult(row);
  }

  async getSummary(scrambleId: number, bot: string): Promise<T.ResultSummary | undefined> {
    const row = this.stmts.getSummary.get(sqliteArgs(scrambleId, bot));
    return row && toSummary(row);
  }

  async removeResults(bot: string): Promise<number> {
    // A removal on purpose leaves a (sealed) record of each numbered result it deletes, for arena audit.
    const remove = this.db.transaction(() => {
      this.seals.recordRemovals(this.sealKey, bot);
      return this.stmts.removeResults.run(sqliteArgs(bot)).changes;
    }).immediate;
    return retryBusy(remove);
  }

  private toResult(row: ResultJoinRow): T.ResultRow {
    const head = this.moves.head(row.moves_kind as StoredMovesKind, row.moves);
    return { ...toSummary(row), moves: joinStored(head, () => this.moves.blocks(row.result_id)) };
  }

  async allResults(puzzleClass?: string): Promise<T.ResultRow[]> {
    const rows = puzzleClass === undefined ? this.stmts.allResults.all({}) : this.stmts.classResults.all(sqliteArgs(puzzleClass));
    return rows.map((row) => this.toResult(row));
  }

  async listSummaries(matchId: number): Promise<T.ResultSummary[]> {
    return this.stmts.listSummaries.all(sqliteArgs(matchId)).map(toSummary);
  }

  async allSummaries(puzzleClass?: string): Promise<T.ResultSummary[]> {
    const rows = puzzleClass === undefined ? this.stmts.allSummaries.all({}) : this.stmts.classSummaries.all(sqliteArgs(puzzleClass));
    return rows.map(toSummary);
  }

  async summaryColumns(): Promise<SummaryColumns> {
    return this.readColumns();
  }

  async summaryColumnsSince(afterId: number): Promise<T.ColumnsSince> {
    return this.readSince(afterId);
  }

  async changeMarker(): Promise<string | undefined> {
    return this.readMarker();
  }

  async sealMeta(): Promise<T.SealMeta> {
    return this.seals.meta();
  }

  async claimSealKey(keyCheck: string): Promise<T.SealMeta> {
    const { meta, claimed } = await retryBusy(() => this.seals.claim(keyCheck));
    if (claimed) this.mayStartHead = true;
    return meta;
  }

  sealWith(key: SealKey | undefined): void {
    this.sealKey = key;
  }

  async sealHead(key: SealKey): Promise<boolean> {
    if (!this.mayStartHead) return this.seals.meta().headSeal !== undefined;
    return this.seals.sealHead(key);
  }

  async sealedTables(): Promise<T.SealedTables> {
    return this.seals.sealedTables();
  }

  async matchSeals(matchId: number): Promise<T.MatchSeals | undefined> {
    return this.seals.matchSeals(matchId);
  }

  async *readMoves(scrambleId: number, bot: string, from = 0): AsyncIterable<WireMoves> {
    const row = this.stmts.resultMoves.get(sqliteArgs(scrambleId, bot));
    if (row) yield* storedPieces(this.moves.head(row.moves_kind, row.moves), (seq) => this.moves.block(row.id, seq), from);
  }

  async knownOptima(keys: readonly string[]): Promise<Map<string, number>> {
    return this.optima.known(keys);
  }

  async addOptima(optima: readonly T.KnownOptimum[]): Promise<void> {
    await retryBusy(() => this.optima.add(optima, this.sealKey));
  }

  /**
   * Folds the write-ahead log into the database file and empties it before closing, so a clean stop leaves
   * one self-contained file that can be copied alone. A checkpoint that cannot finish (another process
   * reading, or no room on a full disk) leaves the log for the next close; nothing is lost either way.
   * Only a connection that wrote checkpoints: a truncating checkpoint holds the write lock while it copies
   * the log, and a reader that closes every second (a watching test, `arena show` in a loop) once starved a
   * running match's writes into "database is locked".
   */
  ladder(): LadderStore {
    return (this.ladderTables ??= sqliteLadder(this.db, () => this.sealKey));
  }

  participants(): ParticipantStore {
    return (this.participantTables ??= sqliteParticipants(this.db));
  }

  submissions(): SubmissionStore {
    return (this.submissionTables ??= sqliteSubmissions(this.db));
  }

  stderrs(): StderrStore {
    return (this.stderrTable ??= sqliteStderr(this.db));
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    // The thread's connection first, so that this one is the last and its checkpoint empties the log.
    await this.checkpoints.close();
    if (!this.db.open) return;
    try {
      // Not waiting: with another process writing or reading, the checkpoint is left to whoever closes last.
      this.db.pragma('busy_timeout = 0');
      const wrote = (this.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n > 0;
      if (wrote && !this.db.readonly) this.db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // The log stays beside the file, and the data with it.
    }
    this.db.close();
  }

  /** Inserts scrambles; the caller holds the transaction. */
  private insertScrambles(matchId: number, scrambles: readonly T.NewScramble[]): T.ScrambleRecord[] {
    return scrambles.map((s): T.ScrambleRecord => {
      const state = JSON.stringify(s.state);
      const info = this.stmts.addScramble.run({
        matchId,
        index: s.index,
        state,
        puzzleClass: s.puzzleClass,
        optimal: s.bound.optimal ?? null,
        lowerBound: s.bound.lowerBound,
        boundNote: s.boundNote ?? null,
      });
      if (this.sealKey) this.seals.sealScramble(this.sealKey, Number(info.lastInsertRowid), sha256Hex(state));
      return storedScramble(Number(info.lastInsertRowid), matchId, s);
    });
  }
}
