/**
 * The PostgreSQL store's bot stderr (schema step in ../steps/stderr-schema.ts), kept out of pg-store.ts.
 * An append locks its row (made empty first if new) for the read and the rewrite, so workers appending to
 * one row at once never lose either's text. Reads are retried across a reconnect; appends are not.
 */
import type pg from 'pg';
import { joinCapped } from '../../core/capped-text.ts';
import { withReconnect, withTransaction } from './pg-connect.ts';
import { toCappedText, type StderrRow, type StderrStore } from '../stderr-types.ts';

/** The stderr table of a PostgreSQL pool. */
export function pgStderr(pool: pg.Pool): StderrStore {
  const read = <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => withReconnect(() => pool.query<R>(sql, params), true);
  return {
    async append(matchId, bot, text) {
      await withTransaction(pool, async (c) => {
        await c.query(
          `INSERT INTO arena.bot_stderr (match_id, bot, head, tail, cut_bytes) VALUES ($1, $2, '', '', 0) ON CONFLICT (match_id, bot) DO NOTHING`,
          [matchId, bot],
        );
        const row = (await c.query<StderrRow>(`SELECT head, tail, cut_bytes FROM arena.bot_stderr WHERE match_id = $1 AND bot = $2 FOR UPDATE`, [matchId, bot])).rows[0]!;
        const joined = joinCapped(toCappedText(row), text);
        await c.query(`UPDATE arena.bot_stderr SET head = $3, tail = $4, cut_bytes = $5 WHERE match_id = $1 AND bot = $2`, [
          matchId,
          bot,
          joined.head,
          joined.tail,
          joined.cutBytes,
        ]);
      });
    },
    async read(matchId, bot) {
      const row = (await read<StderrRow>(`SELECT head, tail, cut_bytes FROM arena.bot_stderr WHERE match_id = $1 AND bot = $2`, [matchId, bot])).rows[0];
      return row && toCappedText(row);
    },
    async bots(matchId) {
      return (await read<{ bot: string }>(`SELECT bot FROM arena.bot_stderr WHERE match_id = $1 ORDER BY bot COLLATE "C"`, [matchId])).rows.map((r) => r.bot);
    },
  };
}
