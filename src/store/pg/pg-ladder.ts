/**
 * The PostgreSQL store's ladder tables (schema step in ./ladder-schema.ts), kept out of pg-store.ts. Reads
 * are retried across a reconnect; writes that are not idempotent are not.
 */
import type pg from 'pg';
import { withReconnect, withTransaction } from './pg-connect.ts';
import { toGame, toVersion, type GameRow, type VersionRow } from '../ladder-rows.ts';
import type { LadderStore } from '../ladder-types.ts';
import { nowIso } from '../row-codec.ts';
import { gameSeal, gamesCountSeal, versionSeal } from '../seal.ts';
import type { SealKey } from '../types.ts';

/**
 * The ladder tables of a PostgreSQL pool. A version or game written while `keyOf` gives the database's key
 * is sealed in the same transaction (src/store/seal.ts); a game is resealed when its match is set.
 */
export function pgLadder(pool: pg.Pool, keyOf: () => SealKey | undefined = () => undefined): LadderStore {
  /**
   * Seals a game inside the caller's transaction: a new one gets the next number among the sealed games (the
   * count's row locked, so two ladders number one at a time); one created unsealed stays so.
   */
  const resealGame = async (c: pg.PoolClient, id: number, created: boolean): Promise<GameRow | undefined> => {
    const row = (await c.query<GameRow & { seq: number | null }>(`SELECT * FROM arena.ladder_games WHERE id = $1`, [id])).rows[0];
    const k = keyOf();
    if (!row || !k) return row;
    let seq = row.seq;
    if (created) {
      const { rows } = await c.query<{ sealed_games: number }>(`SELECT sealed_games FROM arena.seal_meta WHERE one = 1 FOR UPDATE`);
      seq = Number(rows[0]!.sealed_games) + 1;
      await c.query(`UPDATE arena.seal_meta SET sealed_games = $1, games_seal = $2 WHERE one = 1`, [seq, gamesCountSeal(k, seq)]);
    }
    if (seq !== null) await c.query(`UPDATE arena.ladder_games SET seal = $1, seq = $2 WHERE id = $3`, [gameSeal(k, toGame(row), seq), seq, id]);
    return row;
  };
  const q = <R extends pg.QueryResultRow>(sql: string, params: unknown[], idempotent: boolean) => withReconnect(() => pool.query<R>(sql, params), idempotent);
  const mustChange = (n: number | null, what: string): void => {
    if (n !== 1) throw new Error(`ladder: no ${what}`);
  };
  return {
    saveVersion: (v) =>
      withTransaction(pool, async (c) => {
        // Serializes two ladders seeing the same bot change at once: one inserts, the other finds it.
        await c.query(`SELECT pg_advisory_xact_lock(hashtext('arena.bot_versions'))`);
        const now = nowIso();
        const inserted = await c.query(
          `INSERT INTO arena.bot_versions (bot, number, hash, command, folder, status, created_at, updated_at)
           SELECT $1, coalesce(max(number), 0) + 1, $2, $3, $4, 'new', $5, $5 FROM arena.bot_versions WHERE bot = $1
           ON CONFLICT (bot, hash) DO NOTHING`,
          [v.bot, v.hash, v.command, v.folder ?? null, now],
        );
        const { rows } = await c.query<VersionRow & { seal: string | null }>(`SELECT * FROM arena.bot_versions WHERE bot = $1 AND hash = $2`, [v.bot, v.hash]);
        const id = rows[0]!.id;
        const k = keyOf();
        // Only a version made now: sealing one found unsealed would vouch for a row someone else wrote.
        if (k && inserted.rowCount === 1) await c.query(`UPDATE arena.bot_versions SET seal = $1 WHERE id = $2`, [versionSeal(k, toVersion(rows[0]!)), id]);
        await c.query(`UPDATE arena.bot_versions SET current = CASE WHEN id = $1 THEN 1 ELSE 0 END WHERE bot = $2`, [id, v.bot]);
        return toVersion({ ...rows[0]!, current: 1 });
      }),
    async updateVersion(id, patch) {
      const r = await q(
        `UPDATE arena.bot_versions SET status = coalesce($2, status), note = CASE WHEN $3 THEN $4 ELSE note END,
                classes = coalesce($5, classes), updated_at = $6 WHERE id = $1`,
        [id, patch.status ?? null, patch.note !== undefined, patch.note ?? null, patch.classes ? JSON.stringify(patch.classes) : null, nowIso()],
        true,
      );
      mustChange(r.rowCount, `version ${id}`);
    },
    async listVersions(bot) {
      const { rows } = await q<VersionRow>(`SELECT * FROM arena.bot_versions WHERE $1::text IS NULL OR bot = $1 ORDER BY id`, [bot ?? null], true);
      return rows.map(toVersion);
    },
    addGame: (g) =>
      withTransaction(pool, async (c) => {
        const { rows } = await c.query<GameRow>(
          `INSERT INTO arena.ladder_games (seed, puzzle_class, purpose, subject, entries, why, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [g.seed, g.puzzleClass, g.purpose, g.subject ?? null, JSON.stringify(g.entries), g.why, nowIso()],
        );
        return toGame((await resealGame(c, Number(rows[0]!.id), true))!);
      }),
    setGameMatch: (gameId, matchId) =>
      withReconnect(
        () =>
          withTransaction(pool, async (c) => {
            mustChange((await c.query(`UPDATE arena.ladder_games SET match_id = $2 WHERE id = $1`, [gameId, matchId])).rowCount, `ladder game ${gameId}`);
            await resealGame(c, gameId, false);
          }),
        true,
      ),
    async listGames(o = {}) {
      const { rows } = await q<GameRow>(
        `SELECT * FROM arena.ladder_games WHERE id < $1 ORDER BY id DESC LIMIT $2`,
        [o.before ?? Number.MAX_SAFE_INTEGER, o.limit ?? null],
        true,
      );
      return rows.map(toGame);
    },
    async matchIdBySeed(seed) {
      const { rows } = await q<{ id: string }>(`SELECT id FROM arena.matches WHERE seed = $1 ORDER BY id DESC LIMIT 1`, [seed], true);
      return rows[0] ? Number(rows[0].id) : undefined;
    },
    async getState(key) {
      const { rows } = await q<{ value: string }>(`SELECT value FROM arena.ladder_state WHERE key = $1`, [key], true);
      return rows[0]?.value;
    },
    async setState(key, value) {
      await q(`INSERT INTO arena.ladder_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value], true);
    },
  };
}
