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
import type { Bound, WireMoves } from '../../core/types.ts';
import { createPgPool, describeConnectError, withReconnect, withTransaction } from './pg-connect.ts';
import { migratePg } from './pg-schema.ts';
import { PG_HEAD_VERSION } from '../steps/seal-schema.ts';
import { pgAddOptima, pgKnownOptima } from './pg-optima.ts';
import { pgLadder } from './pg-ladder.ts';
import { pgParticipants } from './pg-participants.ts';
import { pgSubmissions } from './pg-submissions.ts';
import type { SubmissionStore } from '../submission-types.ts';
import type { ParticipantStore } from '../participant-types.ts';
import { pgStderr } from './pg-stderr.ts';
import type { StderrStore } from '../stderr-types.ts';
import { pgColumnsSince } from './pg-columns-since.ts';
import { pgChangeMarker } from './pg-changes.ts';
import type { LadderStore } from '../ladder-types.ts';
import { columnsOf, type SummaryColumns } from '../../core/summary-columns.ts';
import { encodeJson, nowIso, storedScramble } from '../row-codec.ts';
import { recordedMovesDigest } from '../moves-digest.ts';
import { POSTGRES, runtimeText, toBot, toMatch, toScramble, toSummary, type BotRow, type MatchRow, type ResultJoinRow, type ScrambleRow, type SummaryRow } from '../sql-rows.ts';
import { resultValues, sharedSql, storedText } from '../sql-text.ts';
import { joinStored, storedMovesOf, storedPieces } from '../stored-moves.ts';
import { pgMovesColumns, pgMovesHead, writePgBlocks, type PgMovesKind } from './pg-moves.ts';
import * as seals from './pg-seals.ts';
import { sha256Hex, type SealKey } from '../seal.ts';
import type * as T from '../types.ts';

const sql = sharedSql(POSTGRES);

/** Options of {@link openPgStore}. */
export interface PgStoreOptions {
  /** Most connections (default 4). */
  readonly maxConnections?: number;
  /** application_name seen by the server (default "puzzle-arena"). */
  readonly applicationName?: string;
}

/** A PostgreSQL store also hands its pool to the job queue, so one process keeps one set of connections. */
export interface PgStore extends T.Store {
  readonly pool: pg.Pool;
  readonly url: string;
}

/** The store as a PostgreSQL store, or undefined for any other implementation. */
export function asPgStore(store: T.Store): PgStore | undefined {
  return store instanceof PostgresStore ? store : undefined;
}

/**
 * Connects to `url`, migrating the schema if needed. Throws an Error with a one-line message when the server
 * cannot be reached, the login or database is wrong, the schema is newer than this code, or the `arena`
 * schema belongs to someone else.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = createPgPool(url, { max: options.maxConnections, applicationName: options.applicationName });
  let found: number;
  try {
    found = await migratePg(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    const code = (err as { code?: unknown }).code;
    // Our own refusals (newer schema, foreign schema) have no driver code and are already one line.
    throw new Error(code === undefined ? (err as Error).message.split('\n')[0] : describeConnectError(url, err));
  }
  return new PostgresStore(pool, url, found < PG_HEAD_VERSION);
}

function pgCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

class PostgresStore implements PgStore {
  readonly pool: pg.Pool;
  readonly url: string;
  private closed = false;
  private sealKey: SealKey | undefined;
  private ladderTables: LadderStore | undefined;
  private participantTables: ParticipantStore | undefined;
  private submissionTables: SubmissionStore | undefined;
  private stderrTable: StderrStore | undefined;

  /** @param mayStartHead this process migrated the database across the head's step (see Store.sealHead). */
  constructor(pool: pg.Pool, url: string, private mayStartHead: boolean) {
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

  async addBot(bot: Omit<T.BotRecord, 'createdAt'>): Promise<void> {
    try {
      await this.q(sql.addBot, [bot.name, bot.kind, bot.cmd ?? null, bot.cwd ?? null, bot.stdio ?? null, bot.tokenHash ?? null, nowIso(), bot.snapshot ?? null, runtimeText(bot.runtime), bot.owner ?? null, bot.source ?? null], false);
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new Error(`bot "${bot.name}" is already registered`);
      throw err;
    }
  }

  async getBot(name: string): Promise<T.BotRecord | undefined> {
    const { rows } = await this.q<BotRow>(sql.getBot, [name], true);
    return rows[0] && toBot(rows[0]);
  }

  async listBots(): Promise<T.BotRecord[]> {
    const { rows } = await this.q<BotRow>(sql.listBots, [], true);
    return rows.map(toBot);
  }

  async removeBot(name: string): Promise<boolean> {
    const { rowCount } = await this.q(sql.removeBot, [name], true);
    return (rowCount ?? 0) > 0;
  }

  async setBotSnapshot(name: string, snapshot: string, runtime: T.StoredRuntime | undefined): Promise<boolean> {
    const { rowCount } = await this.q(sql.setBotSnapshot, [name, snapshot, runtimeText(runtime)], true);
    return (rowCount ?? 0) > 0;
  }

  async createMatch(m: T.NewMatch): Promise<T.MatchRecord> {
    if (m.scrambles.length === 0) throw new Error('createMatch: a match needs at least one scramble');
    try {
      return await this.tx(async (c) => {
        const { rows } = await c.query<{ id: number }>(`${sql.createMatch} RETURNING id`, [encodeJson(m.config), m.seed, m.generatorVersion, JSON.stringify(m.bots), nowIso()]);
        const id = rows[0].id;
        if (this.sealKey) await seals.sealPgMatch(c, this.sealKey, { ...m, id });
        await insertScrambles(c, id, m.scrambles, this.sealKey);
        return toMatch(POSTGRES, (await c.query<MatchRow>(sql.getMatch, [id])).rows[0]);
      });
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new Error('createMatch: two scrambles at one index');
      throw err;
    }
  }

  async getMatch(id: number): Promise<T.MatchRecord | undefined> {
    const { rows } = await this.q<MatchRow>(sql.getMatch, [id], true);
    return rows[0] && toMatch(POSTGRES, rows[0]);
  }

  async listMatches(limit?: number, filter: T.MatchFilter = {}): Promise<T.MatchRecord[]> {
    const { rows } = await this.q<MatchRow>(
      sql.listMatches('json_array_elements_text(m.bots) b(value)'),
      [limit ?? null, filter.status ?? null, filter.bot ?? null, filter.puzzleClass ?? null],
      true,
    );
    return rows.map((r) => toMatch(POSTGRES, r));
  }

  async setMatchStatus(id: number, status: T.MatchStatus): Promise<void> {
    const { rowCount } = await this.q(sql.setMatchStatus, [status, nowIso(), id], true);
    if (rowCount === 0) throw new Error(`setMatchStatus: no match ${id}`);
  }

  async addScrambles(matchId: number, scrambles: readonly T.NewScramble[]): Promise<T.ScrambleRecord[]> {
    try {
      return await this.tx((c) => insertScrambles(c, matchId, scrambles, this.sealKey));
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw new Error(`addScrambles: match ${matchId} already has a scramble at that index`);
      if (pgCode(err) === FOREIGN_KEY_VIOLATION) throw new Error(`addScrambles: no match ${matchId}`);
      throw err;
    }
  }

  async listScrambles(matchId: number, page?: T.ScramblePage): Promise<T.ScrambleRecord[]> {
    const { rows } = page
      ? await this.q<ScrambleRow>(sql.pageScrambles, [matchId, page.from, page.limit], true)
      : await this.q<ScrambleRow>(sql.listScrambles, [matchId], true);
    return rows.map((r) => toScramble(POSTGRES, r));
  }

  async setScrambleBound(scrambleId: number, bound: Bound, note?: string): Promise<void> {
    const params = [bound.optimal ?? null, bound.lowerBound, storedText(POSTGRES, note), scrambleId];
    const key = this.sealKey;
    // Sealed: the new bound and its seal in one transaction (retried whole: setting a bound twice is harmless).
    const { rowCount } = key
      ? await withReconnect(() => this.tx(async (c) => {
          const done = await c.query(sql.setScrambleBound, params);
          await seals.resealPgScramble(c, key, scrambleId);
          return done;
        }), true)
      : await this.q(sql.setScrambleBound, params, true);
    if (rowCount === 0) throw new Error(`setScrambleBound: no scramble ${scrambleId}`);
  }

  async scrambleClasses(matchId: number): Promise<T.ScrambleClassCount[]> {
    const { rows } = await this.q<{ puzzle_class: string; n: number }>(sql.scrambleClasses, [matchId], true);
    return rows.map((r) => ({ puzzleClass: r.puzzle_class, count: Number(r.n) }));
  }

  async recordResult(r: T.ResultRecord): Promise<void> {
    const stored = storedMovesOf(r.moves);
    const moves = pgMovesColumns(stored);
    const key = this.sealKey;
    const digest = key ? recordedMovesDigest(r.moves) : '';
    const createdAt = nowIso();
    try {
      // ON CONFLICT: a retried job writes the pair again and the first write wins, which also makes every
      // path here safe to retry after a lost connection.
      if (!key && !stored.packed) {
        await this.q(sql.insertResult, resultValues(POSTGRES, r, moves, createdAt), true);
        return;
      }
      // The row, the blocks of a long answer and the seal commit together or not at all.
      await withReconnect(() => this.tx(async (c) => {
        const sealed = key ? await seals.pgResultSeal(c, key, r, digest) : undefined;
        const inserted = await c.query<{ id: number }>(`${sql.insertResult} RETURNING id`, resultValues(POSTGRES, r, moves, createdAt, sealed));
        const id = inserted.rows[0]?.id;
        if (id === undefined) return;
        if (stored.packed) await writePgBlocks(c, sql, id, stored.blocks);
        if (key && sealed) await seals.countPgResult(c, key, sealed);
      }), true);
    } catch (err) {
      if (pgCode(err) === FOREIGN_KEY_VIOLATION) throw new Error(`recordResult: no scramble ${r.scrambleId}`);
      throw err;
    }
  }

  async listResults(matchId: number): Promise<T.ResultRow[]> {
    return this.results(sql.listResults, [matchId]);
  }

  async getResult(scrambleId: number, bot: string): Promise<T.ResultRow | undefined> {
    return (await this.results(sql.getResult, [scrambleId, bot]))[0];
  }

  async getSummary(scrambleId: number, bot: string): Promise<T.ResultSummary | undefined> {
    const { rows } = await this.q<SummaryRow>(sql.getSummary, [scrambleId, bot], true);
    return rows[0] && toSummary(rows[0]);
  }

  async removeResults(bot: string): Promise<number> {
    // A removal on purpose leaves a (sealed) record of each numbered result it deletes, for arena audit.
    const { rowCount } = await withReconnect(() => this.tx(async (c) => {
      await seals.recordPgRemovals(c, this.sealKey, bot);
      return c.query(sql.removeResults, [bot]);
    }), true);
    return rowCount ?? 0;
  }

  async allResults(puzzleClass?: string): Promise<T.ResultRow[]> {
    return puzzleClass === undefined ? this.results(sql.allResults, []) : this.results(sql.classResults, [puzzleClass]);
  }

  async listSummaries(matchId: number): Promise<T.ResultSummary[]> {
    const { rows } = await this.q<SummaryRow>(sql.listSummaries, [matchId], true);
    return rows.map(toSummary);
  }

  async allSummaries(puzzleClass?: string): Promise<T.ResultSummary[]> {
    const { rows } = puzzleClass === undefined
      ? await this.q<SummaryRow>(sql.allSummaries, [], true)
      : await this.q<SummaryRow>(sql.classSummaries, [puzzleClass], true);
    return rows.map(toSummary);
  }

  async summaryColumns(): Promise<SummaryColumns> {
    return columnsOf(await this.allSummaries());
  }

  async summaryColumnsSince(afterId: number): Promise<T.ColumnsSince> {
    return pgColumnsSince(this.pool, sql, afterId);
  }

  async changeMarker(): Promise<string | undefined> {
    // PostgreSQL has no cheap counterpart of SQLite's data_version: triggers count writes (pg-changes.ts).
    return pgChangeMarker(this.pool);
  }

  async sealMeta(): Promise<T.SealMeta> {
    return withReconnect(() => seals.pgSealMeta(this.pool), true);
  }

  async claimSealKey(keyCheck: string): Promise<T.SealMeta> {
    const { meta, claimed } = await withReconnect(() => seals.pgClaimSealKey(this.pool, keyCheck), true);
    if (claimed) this.mayStartHead = true;
    return meta;
  }

  sealWith(key: SealKey | undefined): void {
    this.sealKey = key;
  }

  async sealHead(key: SealKey): Promise<boolean> {
    if (!this.mayStartHead) return (await this.sealMeta()).headSeal !== undefined;
    return seals.pgSealHead(this.pool, key);
  }

  sealedTables(): Promise<T.SealedTables> {
    return seals.pgSealedTables(this.pool);
  }

  matchSeals(matchId: number): Promise<T.MatchSeals | undefined> {
    return seals.pgMatchSeals(this.pool, matchId);
  }

  async *readMoves(scrambleId: number, bot: string, from = 0): AsyncIterable<WireMoves> {
    const { rows } = await this.q<{ id: number; moves_kind: PgMovesKind; moves: string }>(sql.resultMoves, [scrambleId, bot], true);
    const row = rows[0];
    if (!row) return;
    // One statement per block, none left open between them: a slow reader holds no connection.
    const block = async (seq: number) => (await this.q<{ block: Buffer }>(sql.moveBlock, [row.id, seq], true)).rows[0]?.block;
    yield* storedPieces(pgMovesHead(row.moves_kind, row.moves), block, from);
  }

  async knownOptima(keys: readonly string[]): Promise<Map<string, number>> {
    return pgKnownOptima((text, params, idempotent) => this.q(text, params, idempotent), keys);
  }

  async addOptima(optima: readonly T.KnownOptimum[]): Promise<void> {
    await pgAddOptima((text, params, idempotent) => this.q(text, params, idempotent), optima, this.sealKey);
  }

  ladder(): LadderStore {
    return (this.ladderTables ??= pgLadder(this.pool, () => this.sealKey));
  }

  participants(): ParticipantStore {
    return (this.participantTables ??= pgParticipants(this.pool));
  }

  submissions(): SubmissionStore {
    return (this.submissionTables ??= pgSubmissions(this.pool));
  }

  stderrs(): StderrStore {
    return (this.stderrTable ??= pgStderr(this.pool));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** Result rows with their moves joined (a packed answer's blocks read after its row). */
  private async results(text: string, params: unknown[]): Promise<T.ResultRow[]> {
    const { rows } = await this.q<ResultJoinRow>(text, params, true);
    const out: T.ResultRow[] = [];
    for (const row of rows) {
      const head = pgMovesHead(row.moves_kind as PgMovesKind, row.moves as string);
      const blocks = 'form' in head ? (await this.q<{ block: Buffer }>(sql.moveBlocks, [row.result_id], true)).rows.map((b) => b.block) : [];
      out.push({ ...toSummary(row), moves: joinStored(head, () => blocks) });
    }
    return out;
  }
}

/** Inserts scrambles in one statement; the caller holds the transaction. */
async function insertScrambles(c: pg.PoolClient, matchId: number, scrambles: readonly T.NewScramble[], key?: SealKey): Promise<T.ScrambleRecord[]> {
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
      scrambles.map((s) => storedText(POSTGRES, s.boundNote)),
    ],
  );
  const idOf = new Map(rows.map((r) => [r.idx, r.id]));
  if (key) await seals.sealPgScrambles(c, key, matchId, scrambles, idOf, states.map(sha256Hex));
  return scrambles.map((s) => storedScramble(idOf.get(s.index)!, matchId, s));
}
