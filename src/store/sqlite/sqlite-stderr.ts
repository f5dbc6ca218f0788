/**
 * The SQLite store's bot stderr (schema step in ../steps/stderr-schema.ts): statements prepared once, kept
 * out of sqlite-store.ts. An append reads and rewrites its row in one immediate transaction, so two
 * processes appending to one row never lose either's text.
 */
import type Database from 'better-sqlite3';
import { joinCapped, NO_TEXT } from '../../core/capped-text.ts';
import { toCappedText, type StderrRow, type StderrStore } from '../stderr-types.ts';

/** The stderr table of one SQLite connection. */
export function sqliteStderr(db: Database.Database): StderrStore {
  const one = db.prepare<[number, string], StderrRow>(`SELECT head, tail, cut_bytes FROM bot_stderr WHERE match_id = ? AND bot = ?`);
  const put = db.prepare(
    `INSERT INTO bot_stderr (match_id, bot, head, tail, cut_bytes) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (match_id, bot) DO UPDATE SET head = excluded.head, tail = excluded.tail, cut_bytes = excluded.cut_bytes`,
  );
  const names = db.prepare<[number], { bot: string }>(`SELECT bot FROM bot_stderr WHERE match_id = ? ORDER BY bot`);
  return {
    async append(matchId, bot, text) {
      db.transaction(() => {
        const row = one.get(matchId, bot);
        const joined = joinCapped(row ? toCappedText(row) : NO_TEXT, text);
        put.run(matchId, bot, joined.head, joined.tail, joined.cutBytes);
      }).immediate();
    },
    async read(matchId, bot) {
      const row = one.get(matchId, bot);
      return row && toCappedText(row);
    },
    async bots(matchId) {
      return names.all(matchId).map((r) => r.bot);
    },
  };
}
