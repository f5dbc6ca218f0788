/**
 * The PostgreSQL Store (the `pg` driver), for results shared by many machines. Same contract as the SQLite
 * store (test/unit/store-contract.test.ts runs against both): every write is committed when its promise
 * resolves, results are idempotent by (scramble, bot) with the first write winning.
 *
 * Every statement goes through {@link withReconnect}: a server restart stalls a call instead of failing it.
 * Reads and the idempotent writes (results, status, removals) are retried after any connection loss;
 * inserts that would duplicate a row if run twice are retried only when they surely never reached the
 * server.
 */
import type pg from 'pg';
import type { Bound, PuzzleState, WireMoves } from '../core/types.ts';
import { createPgPool, describeConnectError, withReconnect, withTransaction } from './pg-connect.ts';
import { migratePg } from './pg-schema.ts';
import { pgAddOptima, pgKnownOptima } from './pg-optima.ts';
import { pgLadder } from './pg-ladder.ts';
import { pgChangeMarker } from './pg-changes.ts';
import type { LadderStore } from './ladder-types.ts';
import { columnsOf, type SummaryColumns } from '../core/summary-columns.ts';
import { encodeJson, encodeMoves, makeBound } from './row-codec.ts';
import { recordedMovesDigest } from './moves-digest.ts';
import { RESULT_SELECT, SUMMARY_SELECT, toBot, toMatch, toResult, toScramble, toSummary, type BotRow, type MatchRow, type ResultJoinRow, type ScrambleRow, type SummaryRow } from './pg-rows.ts';
import * as seals from './pg-seals.ts';
import { sha256Hex, type SealKey } from './seal.ts';
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


const MATCH_COLUMNS = 'id, config, seed, generator_version, bots, status, created_at';

/** Options of {@link openPgStore}. */
export interface PgStoreOptions {
  /** Most connections (default 4). */
  readonly maxConnections?: number;
  /** application_name seen by the server (default "puzzle-arena"). */
  readonly applicationName?: string;
}

/** A PostgreSQL store also hands its pool to the job queue, so one process keeps one set of connections. */
export interface PgStore extends Store {
  readonly pool: pg.Pool;
  readonly url: string;
}

/** The store as a PostgreSQL store, or undefined for any other implementation. */
export function asPgStore(store: Store): PgStore | undefined {
  return store instanceof PostgresStore ? store : undefined;
}

/**
 * Connects to `url`, migrating the schema if needed. Throws an Error with a one-line message when the server
 * cannot be reached, the login or database is wrong, the schema is newer than this code, or the `arena`
 * schema belongs to someone else.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = createPgPool(url, { max: options.maxConnections, applicationName: options.applicationName });
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    const code = (err as { code?: unknown }).code;
    // Our own refusals (newer schema, foreign schema) have no driver code and are already one line.
    throw new Error(code === undefined ? (err as Error).message.split('\n')[0] : describeConnectError(url, err));
  }
  return new PostgresStore(pool, url);
}

function pgCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

/** PostgreSQL text cannot hold U+0000; only a broken bot's note or reason would carry one. */
function pgText(s: string | undefined): string | null {
  return s === undefined ? null : s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s;
}

class PostgresStore implements PgStore {
  readonly pool: pg.Pool;
  readonly url: string;
  private closed = false;
  private sealKey: SealKey | undefined;
  private ladderTables: LadderStore | undefined;

  constructor(pool: pg.Pool, url: string) {
    this.pool = pool;
    this.url = url;
  }

  /** One statement, retried across a reconnect when `idempotent` (see the file comment). */
  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[], idempotent: boolean): Promise<pg.QueryResult<R>> {
    return withReconnect(() => this.pool.query<R>(sql, params), idempotent);
  }

  private tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return withTransaction(this.pool, fn);
  }

  async addBot(bot: Omit<BotRecord, 'createdAt'>): Promise<void> {
    try {
      await this.q(
        `INSERT INTO arena.bots (name, kind, cmd, cwd, stdio, token_hash) VALUES ($1, $2, $3, $4, $5, $6)`,
        [bot.name, bot.kind, bot.cmd ?? null, bot.cwd ?? null, bot.stdio ?? null, bot.tokenHash ?? null],
        false,
      );
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new Error(`bot "${bot.name}" is already registered`);
      throw err;
    }
  }

  async getBot(name: string): Promise<BotRecord | undefined> {
    const { rows } = await this.q<BotRow>(`SELECT * FROM arena.bots WHERE name = $1`, [name], true);
    return rows[0] && toBot(rows[0]);
  }

  async listBots(): Promise<BotRecord[]> {
    // COLLATE "C": byte order, the same as SQLite's and the memory store's, whatever the server's locale.
    const { rows } = await this.q<BotRow>(`SELECT * FROM arena.bots ORDER BY name COLLATE "C"`, [], true);
    return rows.map(toBot);
  }

  async removeBot(name: string): Promise<boolean> {
    const { rowCount } = await this.q(`DELETE FROM arena.bots WHERE name = $1`, [name], true);
    return (rowCount ?? 0) > 0;
  }

  async createMatch(m: NewMatch): Promise<MatchRecord> {
    if (m.scrambles.length === 0) throw new Error('createMatch: a match needs at least one scramble');
    try {
      return await this.tx(async (c) => {
        const { rows } = await c.query<MatchRow>(
          `INSERT INTO arena.matches (config, seed, generator_version, bots, status)
           VALUES ($1, $2, $3, $4, 'running') RETURNING ${MATCH_COLUMNS}`,
          [encodeJson(m.config), m.seed, m.generatorVersion, JSON.stringify(m.bots)],
        );
        if (this.sealKey) await seals.sealPgMatch(c, this.sealKey, { ...m, id: rows[0].id });
        await insertScrambles(c, rows[0].id, m.scrambles, this.sealKey);
        return toMatch(rows[0]);
      });
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new Error('createMatch: two scrambles at one index');
      throw err;
    }
  }

  async getMatch(id: number): Promise<MatchRecord | undefined> {
    const { rows } = await this.q<MatchRow>(`SELECT ${MATCH_COLUMNS} FROM arena.matches WHERE id = $1`, [id], true);
    return rows[0] && toMatch(rows[0]);
  }

  async listMatches(limit?: number, filter: MatchFilter = {}): Promise<MatchRecord[]> {
    // A null filter field does not narrow. Bots and classes match whole-word prefixes (see MatchFilter).
    const { rows } = await this.q<MatchRow>(
      `SELECT ${MATCH_COLUMNS} FROM arena.matches m
       WHERE ($2::text IS NULL OR m.status = $2)
         AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(m.bots) b(v)
              WHERE b.v = $3 OR left(b.v, length($3) + 1) = $3 || ' '))
         AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM arena.scrambles s WHERE s.match_id = m.id
              AND (s.puzzle_class = $4 OR left(s.puzzle_class, length($4) + 1) = $4 || ' ')))
       ORDER BY m.id DESC LIMIT $1`,
      [limit ?? null, filter.status ?? null, filter.bot ?? null, filter.puzzleClass ?? null],
      true,
    );
    return rows.map(toMatch);
  }

  async setMatchStatus(id: number, status: MatchStatus): Promise<void> {
    const { rowCount } = await this.q(
      `UPDATE arena.matches SET status = $1, updated_at = now() WHERE id = $2`,
      [status, id],
      true,
    );
    if (rowCount === 0) throw new Error(`setMatchStatus: no match ${id}`);
  }

  async addScrambles(matchId: number, scrambles: readonly NewScramble[]): Promise<ScrambleRecord[]> {
    try {
      return await this.tx((c) => insertScrambles(c, matchId, scrambles, this.sealKey));
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new Error(`addScrambles: match ${matchId} already has a scramble at that index`);
      if (pgCode(err) === FOREIGN_KEY_VIOLATION) throw new Error(`addScrambles: no match ${matchId}`);
      throw err;
    }
  }

  async listScrambles(matchId: number, page?: ScramblePage): Promise<ScrambleRecord[]> {
    const { rows } = page
      ? await this.q<ScrambleRow>(
          `SELECT * FROM arena.scrambles WHERE match_id = $1 AND idx >= $2 ORDER BY idx LIMIT $3`,
          [matchId, page.from, page.limit],
          true,
        )
      : await this.q<ScrambleRow>(`SELECT * FROM arena.scrambles WHERE match_id = $1 ORDER BY idx`, [matchId], true);
    return rows.map(toScramble);
  }

  async setScrambleBound(scrambleId: number, bound: Bound, note?: string): Promise<void> {
    const sql = `UPDATE arena.scrambles SET optimal = $1, lower_bound = $2, bound_note = $3 WHERE id = $4`;
    const params = [bound.optimal ?? null, bound.lowerBound, pgText(note), scrambleId];
    const key = this.sealKey;
    // Sealed: the new bound and its seal in one transaction (retried whole: setting a bound twice is harmless).
    const { rowCount } = key
      ? await withReconnect(() => this.tx(async (c) => {
          const done = await c.query(sql, params);
          await seals.resealPgScramble(c, key, scrambleId);
          return done;
        }), true)
      : await this.q(sql, params, true);
    if (rowCount === 0) throw new Error(`setScrambleBound: no scramble ${scrambleId}`);
  }

  async scrambleClasses(matchId: number): Promise<ScrambleClassCount[]> {
    const { rows } = await this.q<{ puzzle_class: string; n: string }>(
      `SELECT puzzle_class, count(*) AS n FROM arena.scrambles WHERE match_id = $1 GROUP BY puzzle_class ORDER BY min(idx)`,
      [matchId],
      true,
    );
    // count(*) is a bigint, which pg hands over as text.
    return rows.map((r) => ({ puzzleClass: r.puzzle_class, count: Number(r.n) }));
  }

  async recordResult(r: ResultRecord): Promise<void> {
    const moves = encodeMoves(r.moves);
    // A string PostgreSQL text cannot hold is stored as a JSON string literal instead (lossless).
    const [kind, text] = moves.kind === 'text' && moves.text.includes('\u0000') ? ['json', JSON.stringify(moves.text)] : [moves.kind, moves.text];
    // ON CONFLICT: a retried job writes the pair again; the first write wins. Safe to retry after a lost
    // connection for the same reason.
    const insert = `INSERT INTO arena.results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, reported_ms,
                                    claimed_optimal, note, error_index, error, worker, cpu, nodes, cpu_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         ON CONFLICT (scramble_id, bot) DO NOTHING`;
    const params = [
      r.scrambleId, r.bot, r.verdict, r.moveCount, kind, text, r.wallMs, r.reportedMs ?? null,
      r.claimedOptimal ?? null, pgText(r.note), r.errorIndex ?? null, pgText(r.error), pgText(r.worker), pgText(r.cpu), r.nodes ?? null, r.cpuMs ?? null,
    ];
    try {
      if (this.sealKey) await seals.recordSealedPg(this.pool, this.sealKey, r, recordedMovesDigest(r.moves), insert, params);
      else await this.q(insert, params, true);
    } catch (err) {
      if (pgCode(err) === FOREIGN_KEY_VIOLATION) throw new Error(`recordResult: no scramble ${r.scrambleId}`);
      throw err;
    }
  }

  async listResults(matchId: number): Promise<ResultRow[]> {
    const { rows } = await this.q<ResultJoinRow>(`${RESULT_SELECT} WHERE s.match_id = $1 ORDER BY s.idx, r.id`, [matchId], true);
    return rows.map(toResult);
  }

  async getResult(scrambleId: number, bot: string): Promise<ResultRow | undefined> {
    const { rows } = await this.q<ResultJoinRow>(`${RESULT_SELECT} WHERE r.scramble_id = $1 AND r.bot = $2`, [scrambleId, bot], true);
    return rows[0] && toResult(rows[0]);
  }

  async removeResults(bot: string): Promise<number> {
    // A removal on purpose leaves a (sealed) record of each numbered result it deletes, for arena audit.
    const { rowCount } = await withReconnect(() => this.tx(async (c) => {
      await seals.recordPgRemovals(c, this.sealKey, bot);
      return c.query(`DELETE FROM arena.results WHERE bot = $1`, [bot]);
    }), true);
    return rowCount ?? 0;
  }

  async allResults(puzzleClass?: string): Promise<ResultRow[]> {
    const { rows } = await this.q<ResultJoinRow>(
      `${RESULT_SELECT} WHERE $1::text IS NULL OR s.puzzle_class = $1 ORDER BY s.match_id, s.idx, r.id`,
      [puzzleClass ?? null],
      true,
    );
    return rows.map(toResult);
  }

  async listSummaries(matchId: number): Promise<ResultSummary[]> {
    const { rows } = await this.q<SummaryRow>(`${SUMMARY_SELECT} WHERE s.match_id = $1 ORDER BY s.idx, r.id`, [matchId], true);
    return rows.map(toSummary);
  }

  async allSummaries(puzzleClass?: string): Promise<ResultSummary[]> {
    const { rows } = await this.q<SummaryRow>(
      `${SUMMARY_SELECT} WHERE $1::text IS NULL OR s.puzzle_class = $1 ORDER BY s.match_id, s.idx, r.id`,
      [puzzleClass ?? null],
      true,
    );
    return rows.map(toSummary);
  }

  async summaryColumns(): Promise<SummaryColumns> {
    return columnsOf(await this.allSummaries());
  }

  async changeMarker(): Promise<string | undefined> {
    // PostgreSQL has no cheap counterpart of SQLite's data_version: triggers count writes (pg-changes.ts).
    return pgChangeMarker(this.pool);
  }

  async sealMeta(): Promise<SealMeta> {
    return withReconnect(() => seals.pgSealMeta(this.pool), true);
  }

  async claimSealKey(keyCheck: string): Promise<SealMeta> {
    return withReconnect(() => seals.pgClaimSealKey(this.pool, keyCheck), true);
  }

  sealWith(key: SealKey | undefined): void {
    this.sealKey = key;
  }

  matchSeals(matchId: number): Promise<MatchSeals | undefined> {
    return seals.pgMatchSeals(this.pool, matchId);
  }

  async *readMoves(scrambleId: number, bot: string): AsyncIterable<WireMoves> {
    const moves = await seals.pgReadMoves(this.pool, scrambleId, bot);
    if (moves !== undefined) yield moves;
  }

  async knownOptima(keys: readonly string[]): Promise<Map<string, number>> {
    return pgKnownOptima((sql, params, idempotent) => this.q(sql, params, idempotent), keys);
  }

  async addOptima(optima: readonly KnownOptimum[]): Promise<void> {
    await pgAddOptima((sql, params, idempotent) => this.q(sql, params, idempotent), optima);
  }

  ladder(): LadderStore {
    return (this.ladderTables ??= pgLadder(this.pool));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

/** Inserts scrambles in one statement; the caller holds the transaction. */
async function insertScrambles(c: pg.PoolClient, matchId: number, scrambles: readonly NewScramble[], key?: SealKey): Promise<ScrambleRecord[]> {
  if (scrambles.length === 0) return [];
  const states = scrambles.map((s) => JSON.stringify(s.state));
  const { rows } = await c.query<{ id: number; idx: number }>(
    `INSERT INTO arena.scrambles (match_id, idx, state, puzzle_class, optimal, lower_bound, bound_note)
     SELECT $1, * FROM unnest($2::int[], $3::json[], $4::text[], $5::int[], $6::int[], $7::text[])
     RETURNING id, idx`,
    [
      matchId,
      scrambles.map((s) => s.index),
      states,
      scrambles.map((s) => s.puzzleClass),
      scrambles.map((s) => s.bound.optimal ?? null),
      scrambles.map((s) => s.bound.lowerBound),
      scrambles.map((s) => pgText(s.boundNote)),
    ],
  );
  const idOf = new Map(rows.map((r) => [r.idx, r.id]));
  if (key) await seals.sealPgScrambles(c, key, matchId, scrambles, idOf, states.map(sha256Hex));
  return scrambles.map((s) => ({
    id: idOf.get(s.index)!,
    matchId,
    index: s.index,
    // Hand back what a later read returns: a JSON copy, not the caller's object.
    state: JSON.parse(JSON.stringify(s.state)) as PuzzleState,
    puzzleClass: s.puzzleClass,
    bound: makeBound(s.bound.optimal, s.bound.lowerBound),
    ...(s.boundNote !== undefined ? { boundNote: s.boundNote } : {}),
  }));
}
