/**
 * Seals in the PostgreSQL store (see ./seal.ts). A sealed result is written in one transaction that first
 * locks its match's row: results of one match from many workers are numbered one at a time, and the count's
 * seal always covers exactly the rows committed with it.
 */
import type pg from 'pg';
import type { Bound } from '../../core/types.ts';
import { withReconnect, withTransaction } from './pg-connect.ts';
import type { GameRow, VersionRow } from '../ladder-rows.ts';
import { makeBound, opt, SEAL_META_COLUMNS, sealMetaOf } from '../row-codec.ts';
import { headParams, headUpdateSql, sealedTablesOf, sealedTablesSql, unsealedOf, unsealedSql, type SqlDialect, type UnsealedRow } from '../seal-head.ts';
import { countSeal, matchCountSeal, matchSeal, removalSeal, resultSeal, scrambleSeal, type MatchSealed, type SealKey } from '../seal.ts';
import type { MatchSeals, NewScramble, ResultRecord, SealedTables, SealMeta } from '../types.ts';

type Db = pg.Pool | pg.PoolClient;

const POSTGRES: SqlDialect = { ns: 'arena.', p: (n) => `$${n}` };

/** The database's id and key check. */
export async function pgSealMeta(db: Db): Promise<SealMeta> {
  const { rows } = await db.query(`SELECT ${SEAL_META_COLUMNS} FROM arena.seal_meta WHERE one = 1`);
  if (!rows[0]) throw new Error('arena.seal_meta has no row');
  return sealMetaOf(rows[0]);
}

/** Records `keyCheck` as the database's key unless it has one; `claimed` when this call recorded it. */
export async function pgClaimSealKey(db: Db, keyCheck: string): Promise<{ meta: SealMeta; claimed: boolean }> {
  const r = await db.query(
    `UPDATE arena.seal_meta SET key_check = $1, after_match = (SELECT coalesce(max(id), 0) FROM arena.matches),
                                after_result = (SELECT coalesce(max(id), 0) FROM arena.results)
     WHERE one = 1 AND key_check IS NULL`,
    [keyCheck],
  );
  return { meta: await pgSealMeta(db), claimed: (r.rowCount ?? 0) > 0 };
}

/** Seals the head if it has none (see Store.sealHead; the caller says whether it may). */
export function pgSealHead(pool: pg.Pool, k: SealKey): Promise<boolean> {
  return withReconnect(
    () =>
      withTransaction(pool, async (c) => {
        const meta = sealMetaOf((await c.query(`SELECT ${SEAL_META_COLUMNS} FROM arena.seal_meta WHERE one = 1 FOR UPDATE`)).rows[0]);
        const params = headParams(k, meta, unsealedOf((await c.query<UnsealedRow>(unsealedSql(POSTGRES))).rows[0]!));
        if (params) await c.query(headUpdateSql(POSTGRES), params);
        return (await pgSealMeta(c)).headSeal !== undefined;
      }),
    true,
  );
}

/** The optima and the ladder's tables with their seals, read in one snapshot. */
export function pgSealedTables(pool: pg.Pool): Promise<SealedTables> {
  const sql = sealedTablesSql(POSTGRES);
  return withReconnect(
    () =>
      withTransaction(pool, async (c) => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const optima = await c.query<{ state_key: string; optimal: number; seal: string | null }>(sql.optima);
        const versions = await c.query<VersionRow & { seal: string | null }>(sql.versions);
        const games = await c.query<GameRow & { seq: number | null; seal: string | null }>(sql.games);
        const unsealed = await c.query<UnsealedRow>(unsealedSql(POSTGRES));
        return sealedTablesOf(optima.rows, versions.rows, games.rows, unsealedOf(unsealed.rows[0]!));
      }),
    true,
  );
}

/** Numbers and seals a match just created, and reseals the count (inside its transaction, which it serializes). */
export async function sealPgMatch(c: pg.PoolClient, k: SealKey, m: Omit<MatchSealed, 'seq'>): Promise<void> {
  const { rows } = await c.query<{ sealed_matches: number }>(`SELECT sealed_matches FROM arena.seal_meta WHERE one = 1 FOR UPDATE`);
  const seq = Number(rows[0].sealed_matches) + 1;
  await c.query(`UPDATE arena.matches SET seal = $1, seq = $2 WHERE id = $3`, [matchSeal(k, { ...m, seq }), seq, m.id]);
  await c.query(`UPDATE arena.seal_meta SET sealed_matches = $1, matches_seal = $2 WHERE one = 1`, [seq, matchCountSeal(k, seq)]);
}

/** Seals scrambles just inserted (inside their transaction); `ids` by index, `digests` of their stored text. */
export async function sealPgScrambles(c: pg.PoolClient, k: SealKey, matchId: number, scrambles: readonly NewScramble[], ids: ReadonlyMap<number, number>, digests: readonly string[]): Promise<void> {
  if (scrambles.length === 0) return;
  const seals = scrambles.map((s, i) => scrambleSeal(k, { ...s, matchId, stateSha256: digests[i] }));
  await c.query(
    `UPDATE arena.scrambles s SET state_sha256 = v.d, seal = v.seal FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(id, d, seal) WHERE s.id = v.id`,
    [scrambles.map((s) => ids.get(s.index)), digests, seals],
  );
}

/** Reseals a scramble whose bound just changed; one stored before sealing began stays unsealed. */
export async function resealPgScramble(c: pg.PoolClient, k: SealKey, scrambleId: number): Promise<void> {
  const { rows } = await c.query<{ match_id: number; idx: number; puzzle_class: string; optimal: number | null; lower_bound: number; bound_note: string | null; state_sha256: string | null }>(
    `SELECT match_id, idx, puzzle_class, optimal, lower_bound, bound_note, state_sha256 FROM arena.scrambles WHERE id = $1`,
    [scrambleId],
  );
  const r = rows[0];
  if (!r || r.state_sha256 === null) return;
  const bound: Bound = makeBound(r.optimal, r.lower_bound);
  const seal = scrambleSeal(k, { matchId: r.match_id, index: r.idx, stateSha256: r.state_sha256, puzzleClass: r.puzzle_class, bound, ...opt('boundNote', r.bound_note) });
  await c.query(`UPDATE arena.scrambles SET seal = $1 WHERE id = $2`, [seal, scrambleId]);
}

/** The seal columns of a result about to be inserted, and the match whose count it raises. */
export interface PgResultSeal {
  readonly matchId: number;
  readonly seq: number;
  readonly movesSha256: string;
  readonly seal: string;
}

/**
 * Locks the match of `r`'s scramble (inside the result's transaction) and seals `r` as its next numbered
 * result: results of one match from many workers are numbered one at a time. After the insert, when it
 * inserted a row, {@link countPgResult} raises the match's count.
 */
export async function pgResultSeal(c: pg.PoolClient, k: SealKey, r: ResultRecord, movesSha256: string): Promise<PgResultSeal> {
  const { rows } = await c.query<{ match_id: number; idx: number; sealed_results: number }>(
    `SELECT s.match_id, s.idx, m.sealed_results FROM arena.scrambles s JOIN arena.matches m ON m.id = s.match_id
     WHERE s.id = $1 FOR NO KEY UPDATE OF m`,
    [r.scrambleId],
  );
  const s = rows[0];
  if (!s) throw new Error(`recordResult: no scramble ${r.scrambleId}`);
  const seq = s.sealed_results + 1;
  const { moves: _moves, scrambleId: _s, ...fields } = r;
  return { matchId: s.match_id, seq, movesSha256, seal: resultSeal(k, { ...fields, matchId: s.match_id, scrambleIndex: s.idx, seq, movesSha256 }) };
}

/** Raises the sealed count of a match after a sealed result was inserted (same transaction). */
export async function countPgResult(c: pg.PoolClient, k: SealKey, sealed: PgResultSeal): Promise<void> {
  await c.query(`UPDATE arena.matches SET sealed_results = $1, count_seal = $2 WHERE id = $3`, [sealed.seq, countSeal(k, sealed.matchId, sealed.seq), sealed.matchId]);
}

/** Before a bot's results are deleted (inside the same transaction): a removal for each numbered one. */
export async function recordPgRemovals(c: pg.PoolClient, k: SealKey | undefined, bot: string): Promise<void> {
  const { rows } = await c.query<{ match_id: number; seq: number; idx: number }>(
    `SELECT s.match_id, r.seq, s.idx FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id WHERE r.bot = $1 AND r.seq IS NOT NULL`,
    [bot],
  );
  for (const r of rows) {
    const seal = k ? removalSeal(k, { matchId: r.match_id, seq: r.seq, scrambleIndex: r.idx, bot }) : null;
    await c.query(
      `INSERT INTO arena.result_removals (match_id, seq, scramble_idx, bot, seal) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (match_id, seq) DO UPDATE SET scramble_idx = excluded.scramble_idx, bot = excluded.bot, seal = excluded.seal`,
      [r.match_id, r.seq, r.idx, bot, seal],
    );
  }
}

/** The seals of a match, read in one snapshot: the count and the rows it counts agree. */
export function pgMatchSeals(pool: pg.Pool, matchId: number): Promise<MatchSeals | undefined> {
  return withReconnect(
    () =>
      withTransaction(pool, async (c) => {
        await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
        return readSeals(c, matchId);
      }),
    true,
  );
}

async function readSeals(c: pg.PoolClient, matchId: number): Promise<MatchSeals | undefined> {
  const q = <R extends pg.QueryResultRow>(sql: string) => c.query<R>(sql, [matchId]);
  const m = (await q<{ seal: string | null; seq: number | null; sealed_results: number; count_seal: string | null }>(`SELECT seal, seq, sealed_results, count_seal FROM arena.matches WHERE id = $1`)).rows[0];
  if (!m) return undefined;
  const scrambles = await q<{ id: number; idx: number; state_sha256: string | null; seal: string | null }>(`SELECT id, idx, state_sha256, seal FROM arena.scrambles WHERE match_id = $1 ORDER BY idx`);
  const results = await q<{ id: number; scramble_id: number; bot: string; seq: number | null; moves_sha256: string | null; seal: string | null }>(
    `SELECT r.id, r.scramble_id, r.bot, r.seq, r.moves_sha256, r.seal FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id
     WHERE s.match_id = $1 ORDER BY s.idx, r.id`,
  );
  const removals = await q<{ seq: number; scramble_idx: number; bot: string; seal: string | null }>(`SELECT seq, scramble_idx, bot, seal FROM arena.result_removals WHERE match_id = $1 ORDER BY seq`);
  return {
    ...opt('seal', m.seal),
    ...opt('seq', m.seq),
    sealedResults: m.sealed_results,
    ...opt('countSeal', m.count_seal),
    scrambles: scrambles.rows.map((x) => ({ scrambleId: x.id, index: x.idx, ...opt('stateSha256', x.state_sha256), ...opt('seal', x.seal) })),
    results: results.rows.map((x) => ({ resultId: x.id, scrambleId: x.scramble_id, bot: x.bot, ...opt('seq', x.seq), ...opt('movesSha256', x.moves_sha256), ...opt('seal', x.seal) })),
    removals: removals.rows.map((x) => ({ seq: x.seq, scrambleIndex: x.scramble_idx, bot: x.bot, ...opt('seal', x.seal) })),
  };
}
