/**
 * The SQLite Store (better-sqlite3). The only importer of better-sqlite3 together with ./schema.ts (and
 * ./sqlite-columns.ts, the leaderboard's columnar read).
 * Every write method is its own transaction and is committed when its promise resolves (WAL,
 * synchronous=NORMAL: a committed result survives a killed process; only an OS crash may lose the last few).
 * better-sqlite3 is synchronous: the methods do their work before returning a settled promise, which keeps
 * the per-result cost of the embedded default low while callers treat every store alike.
 */
import Database from 'better-sqlite3';
import type { Bound, PuzzleState, WireMoves } from '../core/types.ts';
import type { SummaryColumns } from '../core/summary-columns.ts';
import type {
  BotRecord,
  MatchFilter,
  MatchRecord,
  MatchSeals,
  MatchStatus,
  NewMatch,
  NewScramble,
  ResultRecord,
  ResultRow,
  ResultSummary,
  ScrambleClassCount,
  ScramblePage,
  ScrambleRecord,
  SealMeta,
  Store,
  KnownOptimum,
} from './types.ts';
import { migrate } from './schema.ts';
import { encodeJson, makeBound, nowIso } from './row-codec.ts';
import { SqliteMoves, type StoredMovesKind } from './sqlite-moves.ts';
import { changeMarkerReader, summaryColumnsReader } from './sqlite-columns.ts';
import { sha256Hex, type SealKey } from './seal.ts';
import { SqliteSeals } from './sqlite-seals.ts';
import { isForeignKeyViolation, isUniqueViolation, oneLine, RESULT_SELECT, sqliteCode, SUMMARY_SELECT } from './sqlite-rows.ts';
import { toBot, toMatch, toScramble, toSummary, type BotRow, type JoinedResultRow, type JoinedSummaryRow, type MatchRow, type ScrambleRow } from './sqlite-rows.ts';
import { SqliteOptima } from './sqlite-optima.ts';
import { SqliteResultWrites } from './sqlite-result-writes.ts';

/** How long a writer waits for another connection's lock before SQLITE_BUSY (ms). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens (creating if needed) and migrates the database at `file`. Throws an Error whose message is a bare
 * one-line reason (the caller adds the path) when the file cannot be opened, is not a SQLite database,
 * belongs to another program, or has a newer schema.
 */
export function openSqliteStore(file: string): Store {
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (err) {
    throw new Error(oneLine(err));
  }
  try {
    // The first statement is where a garbage file is detected (SQLITE_NOTADB).
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (err) {
    db.close();
    throw new Error(sqliteCode(err) === 'SQLITE_NOTADB' ? 'not a SQLite database (file is not a database)' : oneLine(err));
  }
  return new SqliteStore(db);
}

class SqliteStore implements Store {
  private readonly db: Database.Database;
  // Prepared once: re-preparing per call would dominate the per-result cost.
  private readonly stmts;
  private readonly moves: SqliteMoves;
  private readonly seals: SqliteSeals;
  private sealKey: SealKey | undefined;
  private readonly optima: SqliteOptima;
  private readonly results: SqliteResultWrites;

  private readonly readColumns: () => SummaryColumns;
  private readonly readMarker: () => string;

  constructor(db: Database.Database) {
    this.db = db;
    this.readColumns = summaryColumnsReader(db);
    this.readMarker = changeMarkerReader(db);
    this.moves = new SqliteMoves(db);
    this.seals = new SqliteSeals(db);
    this.optima = new SqliteOptima(db);
    this.results = new SqliteResultWrites(db, this.moves, this.seals, () => this.sealKey);
    this.stmts = {
      addBot: db.prepare(
        `INSERT INTO bots (name, kind, cmd, cwd, stdio, token_hash, created_at)
         VALUES (@name, @kind, @cmd, @cwd, @stdio, @tokenHash, @createdAt)`,
      ),
      getBot: db.prepare<[string], BotRow>(`SELECT * FROM bots WHERE name = ?`),
      listBots: db.prepare<[], BotRow>(`SELECT * FROM bots ORDER BY name`),
      removeBot: db.prepare(`DELETE FROM bots WHERE name = ?`),
      createMatch: db.prepare(
        `INSERT INTO matches (config, seed, generator_version, bots, status, created_at, updated_at)
         VALUES (@config, @seed, @generatorVersion, @bots, 'running', @now, @now)`,
      ),
      getMatch: db.prepare<[number], MatchRow>(`SELECT * FROM matches WHERE id = ?`),
      // A null filter field does not narrow. Bots and classes match whole-word prefixes (see MatchFilter).
      listMatches: db.prepare<[{ status: string | null; bot: string | null; cls: string | null; limit: number }], MatchRow>(
        `SELECT * FROM matches m
         WHERE (@status IS NULL OR m.status = @status)
           AND (@bot IS NULL OR EXISTS (SELECT 1 FROM json_each(m.bots) b
                WHERE b.value = @bot OR substr(b.value, 1, length(@bot) + 1) = @bot || ' '))
           AND (@cls IS NULL OR EXISTS (SELECT 1 FROM scrambles s WHERE s.match_id = m.id
                AND (s.puzzle_class = @cls OR substr(s.puzzle_class, 1, length(@cls) + 1) = @cls || ' ')))
         ORDER BY m.id DESC LIMIT @limit`,
      ),
      setMatchStatus: db.prepare(`UPDATE matches SET status = ?, updated_at = ? WHERE id = ?`),
      addScramble: db.prepare(
        `INSERT INTO scrambles (match_id, idx, state, puzzle_class, optimal, lower_bound, bound_note)
         VALUES (@matchId, @index, @state, @puzzleClass, @optimal, @lowerBound, @boundNote)`,
      ),
      listScrambles: db.prepare<[number], ScrambleRow>(`SELECT * FROM scrambles WHERE match_id = ? ORDER BY idx`),
      setScrambleBound: db.prepare(`UPDATE scrambles SET optimal = ?, lower_bound = ?, bound_note = ? WHERE id = ?`),
      pageScrambles: db.prepare<[number, number, number], ScrambleRow>(
        `SELECT * FROM scrambles WHERE match_id = ? AND idx >= ? ORDER BY idx LIMIT ?`,
      ),
      scrambleClasses: db.prepare<[number], { puzzle_class: string; n: number }>(
        `SELECT puzzle_class, count(*) AS n FROM scrambles WHERE match_id = ? GROUP BY puzzle_class ORDER BY min(idx)`,
      ),
      listResults: db.prepare<[number], JoinedResultRow>(`${RESULT_SELECT} WHERE s.match_id = ? ORDER BY s.idx, r.id`),
      getResult: db.prepare<[number, string], JoinedResultRow>(`${RESULT_SELECT} WHERE r.scramble_id = ? AND r.bot = ?`),
      removeResults: db.prepare(`DELETE FROM results WHERE bot = ?`),
      resultMoves: db.prepare<[number, string], { id: number; moves_kind: StoredMovesKind; moves: string | Uint8Array }>(
        `SELECT id, moves_kind, moves FROM results WHERE scramble_id = ? AND bot = ?`,
      ),
      allResults: db.prepare<[], JoinedResultRow>(`${RESULT_SELECT} ORDER BY s.match_id, s.idx, r.id`),
      classResults: db.prepare<[string], JoinedResultRow>(
        `${RESULT_SELECT} WHERE s.puzzle_class = ? ORDER BY s.match_id, s.idx, r.id`,
      ),
      listSummaries: db.prepare<[number], JoinedSummaryRow>(`${SUMMARY_SELECT} WHERE s.match_id = ? ORDER BY s.idx, r.id`),
      allSummaries: db.prepare<[], JoinedSummaryRow>(`${SUMMARY_SELECT} ORDER BY s.match_id, s.idx, r.id`),
      classSummaries: db.prepare<[string], JoinedSummaryRow>(
        `${SUMMARY_SELECT} WHERE s.puzzle_class = ? ORDER BY s.match_id, s.idx, r.id`,
      ),
    };
  }

  async addBot(bot: Omit<BotRecord, 'createdAt'>): Promise<void> {
    try {
      this.stmts.addBot.run({
        name: bot.name,
        kind: bot.kind,
        cmd: bot.cmd ?? null,
        cwd: bot.cwd ?? null,
        stdio: bot.stdio === undefined ? null : bot.stdio ? 1 : 0,
        tokenHash: bot.tokenHash ?? null,
        createdAt: nowIso(),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error(`bot "${bot.name}" is already registered`);
      throw err;
    }
  }

  async getBot(name: string): Promise<BotRecord | undefined> {
    const row = this.stmts.getBot.get(name);
    return row && toBot(row);
  }

  async listBots(): Promise<BotRecord[]> {
    return this.stmts.listBots.all().map(toBot);
  }

  async removeBot(name: string): Promise<boolean> {
    return this.stmts.removeBot.run(name).changes > 0;
  }

  async createMatch(m: NewMatch): Promise<MatchRecord> {
    if (m.scrambles.length === 0) throw new Error('createMatch: a match needs at least one scramble');
    const create = this.db.transaction(() => {
      const info = this.stmts.createMatch.run({
        config: encodeJson(m.config),
        seed: m.seed,
        generatorVersion: m.generatorVersion,
        bots: JSON.stringify(m.bots),
        now: nowIso(),
      });
      const id = Number(info.lastInsertRowid);
      if (this.sealKey) this.seals.sealMatch(this.sealKey, { ...m, id });
      this.insertScrambles(id, m.scrambles);
      return id;
    });
    let id: number;
    try {
      id = create();
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error('createMatch: two scrambles at one index');
      throw err;
    }
    const created = this.stmts.getMatch.get(id);
    if (!created) throw new Error('createMatch: inserted row vanished');
    return toMatch(created);
  }

  async getMatch(id: number): Promise<MatchRecord | undefined> {
    const row = this.stmts.getMatch.get(id);
    return row && toMatch(row);
  }

  async listMatches(limit?: number, filter: MatchFilter = {}): Promise<MatchRecord[]> {
    // SQLite treats a negative LIMIT as "no limit".
    const rows = this.stmts.listMatches.all({
      status: filter.status ?? null,
      bot: filter.bot ?? null,
      cls: filter.puzzleClass ?? null,
      limit: limit ?? -1,
    });
    return rows.map(toMatch);
  }

  async setMatchStatus(id: number, status: MatchStatus): Promise<void> {
    const info = this.stmts.setMatchStatus.run(status, nowIso(), id);
    if (info.changes === 0) throw new Error(`setMatchStatus: no match ${id}`);
  }

  async addScrambles(matchId: number, scrambles: readonly NewScramble[]): Promise<ScrambleRecord[]> {
    try {
      return this.db.transaction(() => this.insertScrambles(matchId, scrambles))();
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error(`addScrambles: match ${matchId} already has a scramble at that index`);
      if (isForeignKeyViolation(err)) throw new Error(`addScrambles: no match ${matchId}`);
      throw err;
    }
  }

  async listScrambles(matchId: number, page?: ScramblePage): Promise<ScrambleRecord[]> {
    const rows = page ? this.stmts.pageScrambles.all(matchId, page.from, page.limit) : this.stmts.listScrambles.all(matchId);
    return rows.map(toScramble);
  }

  async scrambleClasses(matchId: number): Promise<ScrambleClassCount[]> {
    return this.stmts.scrambleClasses.all(matchId).map((r) => ({ puzzleClass: r.puzzle_class, count: r.n }));
  }

  async setScrambleBound(scrambleId: number, bound: Bound, note?: string): Promise<void> {
    const set = this.db.transaction(() => {
      const info = this.stmts.setScrambleBound.run(bound.optimal ?? null, bound.lowerBound, note ?? null, scrambleId);
      if (info.changes > 0 && this.sealKey) this.seals.sealScramble(this.sealKey, scrambleId);
      return info.changes;
    });
    if (set() === 0) throw new Error(`setScrambleBound: no scramble ${scrambleId}`);
  }

  async recordResult(r: ResultRecord): Promise<void> {
    this.results.one(r);
  }

  async recordResults(rs: readonly ResultRecord[]): Promise<void> {
    this.results.many(rs);
  }

  async listResults(matchId: number): Promise<ResultRow[]> {
    return this.stmts.listResults.all(matchId).map((row) => this.toResult(row));
  }

  async getResult(scrambleId: number, bot: string): Promise<ResultRow | undefined> {
    const row = this.stmts.getResult.get(scrambleId, bot);
    return row && this.toResult(row);
  }

  async removeResults(bot: string): Promise<number> {
    // A removal on purpose leaves a (sealed) record of each numbered result it deletes, for arena audit.
    return this.db.transaction(() => {
      this.seals.recordRemovals(this.sealKey, bot);
      return this.stmts.removeResults.run(bot).changes;
    })();
  }

  private toResult(row: JoinedResultRow): ResultRow {
    return { ...toSummary(row), moves: this.moves.read(row.result_id, row.moves_kind, row.moves) };
  }

  async allResults(puzzleClass?: string): Promise<ResultRow[]> {
    const rows = puzzleClass === undefined ? this.stmts.allResults.all() : this.stmts.classResults.all(puzzleClass);
    return rows.map((row) => this.toResult(row));
  }

  async listSummaries(matchId: number): Promise<ResultSummary[]> {
    return this.stmts.listSummaries.all(matchId).map(toSummary);
  }

  async allSummaries(puzzleClass?: string): Promise<ResultSummary[]> {
    const rows = puzzleClass === undefined ? this.stmts.allSummaries.all() : this.stmts.classSummaries.all(puzzleClass);
    return rows.map(toSummary);
  }

  async summaryColumns(): Promise<SummaryColumns> {
    return this.readColumns();
  }

  async changeMarker(): Promise<string | undefined> {
    return this.readMarker();
  }

  async sealMeta(): Promise<SealMeta> {
    return this.seals.meta();
  }

  async claimSealKey(keyCheck: string): Promise<SealMeta> {
    return this.seals.claim(keyCheck);
  }

  sealWith(key: SealKey | undefined): void {
    this.sealKey = key;
  }

  async matchSeals(matchId: number): Promise<MatchSeals | undefined> {
    return this.seals.matchSeals(matchId);
  }

  async *readMoves(scrambleId: number, bot: string): AsyncIterable<WireMoves> {
    const row = this.stmts.resultMoves.get(scrambleId, bot);
    if (row) yield* this.moves.pieces(row.id, row.moves_kind, row.moves);
  }

  async knownOptima(keys: readonly string[]): Promise<Map<string, number>> {
    return this.optima.known(keys);
  }

  async addOptima(optima: readonly KnownOptimum[]): Promise<void> {
    this.optima.add(optima);
  }

  /**
   * Folds the write-ahead log into the database file and empties it before closing, so a clean stop leaves
   * one self-contained file that can be copied alone. A checkpoint that cannot finish (another process
   * reading, or no room on a full disk) leaves the log for the next close; nothing is lost either way.
   * Only a connection that wrote checkpoints: a truncating checkpoint holds the write lock while it copies
   * the log, and a reader that closes every second (a watching test, `arena show` in a loop) once starved a
   * running match's writes into "database is locked".
   */
  async close(): Promise<void> {
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
  private insertScrambles(matchId: number, scrambles: readonly NewScramble[]): ScrambleRecord[] {
    return scrambles.map((s): ScrambleRecord => {
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
      return {
        id: Number(info.lastInsertRowid),
        matchId,
        index: s.index,
        // Hand back what a later read returns: a JSON copy, not the caller's object.
        state: JSON.parse(JSON.stringify(s.state)) as PuzzleState,
        puzzleClass: s.puzzleClass,
        bound: makeBound(s.bound.optimal, s.bound.lowerBound),
        ...(s.boundNote !== undefined ? { boundNote: s.boundNote } : {}),
      };
    });
  }
}
