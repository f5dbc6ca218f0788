/**
 * The SQLite store's ladder tables (schema step in ./ladder-schema.ts): statements prepared once, kept out
 * of sqlite-store.ts.
 */
import type Database from 'better-sqlite3';
import { toGame, toVersion, type GameRow, type VersionRow } from '../ladder-rows.ts';
import type { BotVersion, LadderGame, LadderStore, NewBotVersion, NewLadderGame, VersionStatus } from '../ladder-types.ts';
import { nowIso } from '../row-codec.ts';
import { gameSeal, gamesCountSeal, versionSeal } from '../seal.ts';
import type { SealKey } from '../types.ts';

/**
 * The ladder tables of one SQLite connection. A version or game written while `keyOf` gives the database's
 * key is sealed in the same transaction (src/store/seal.ts); a game is resealed when its match is set.
 */
export function sqliteLadder(db: Database.Database, keyOf: () => SealKey | undefined = () => undefined): LadderStore {
  const sealVersion = db.prepare<[string, number]>(`UPDATE bot_versions SET seal = ? WHERE id = ?`);
  const sealGame = db.prepare<[string, number, number]>(`UPDATE ladder_games SET seal = ?, seq = ? WHERE id = ?`);
  const gameSeq = db.prepare<[number], number | null>(`SELECT seq FROM ladder_games WHERE id = ?`).pluck();
  const sealedGames = db.prepare<[], number>(`SELECT sealed_games FROM seal_meta WHERE one = 1`).pluck();
  const countGame = db.prepare<[number, string]>(`UPDATE seal_meta SET sealed_games = ?, games_seal = ? WHERE one = 1`);
  /**
   * Seals a game (the caller holds the transaction): a new one gets the next number among the sealed games
   * and the count is resealed; one created unsealed stays so (sealing it now would vouch for its row).
   */
  const resealGame = (id: number, created: boolean): LadderGame => {
    const game = toGame(getGame.get(id)!);
    const k = keyOf();
    if (!k) return game;
    let seq = gameSeq.get(id);
    if (created) {
      seq = sealedGames.get()! + 1;
      countGame.run(seq, gamesCountSeal(k, seq));
    }
    if (seq !== null && seq !== undefined) sealGame.run(gameSeal(k, game, seq), seq, id);
    return game;
  };
  const byHash = db.prepare<[string, string], VersionRow>(`SELECT * FROM bot_versions WHERE bot = ? AND hash = ?`);
  const nextNumber = db.prepare<[string], number>(`SELECT coalesce(max(number), 0) + 1 FROM bot_versions WHERE bot = ?`).pluck();
  const insert = db.prepare(
    `INSERT INTO bot_versions (bot, number, hash, command, folder, status, created_at, updated_at)
     VALUES (@bot, @number, @hash, @command, @folder, 'new', @now, @now)`,
  );
  const setCurrent = db.prepare<[number, string, number]>(`UPDATE bot_versions SET current = (id = ?) WHERE bot = ? AND current <> (id = ?)`);
  const save = db.transaction((v: NewBotVersion): BotVersion => {
    let row = byHash.get(v.bot, v.hash);
    if (!row) {
      insert.run({ bot: v.bot, number: nextNumber.get(v.bot)!, hash: v.hash, command: v.command, folder: v.folder ?? null, now: nowIso() });
      row = byHash.get(v.bot, v.hash)!;
      const k = keyOf();
      if (k) sealVersion.run(versionSeal(k, toVersion(row)), row.id as number);
    }
    setCurrent.run(row.id as number, v.bot, row.id as number);
    return toVersion(byHash.get(v.bot, v.hash)!);
    // IMMEDIATE: it reads before it writes, and only a transaction holding the write lock first can wait for it.
  }).immediate;
  const update = db.prepare(
    `UPDATE bot_versions SET status = coalesce(@status, status), note = CASE WHEN @setNote THEN @note ELSE note END,
            classes = coalesce(@classes, classes), updated_at = @now WHERE id = @id`,
  );
  const all = db.prepare<[], VersionRow>(`SELECT * FROM bot_versions ORDER BY id`);
  const ofBot = db.prepare<[string], VersionRow>(`SELECT * FROM bot_versions WHERE bot = ? ORDER BY id`);
  const addGame = db.prepare(
    `INSERT INTO ladder_games (seed, puzzle_class, purpose, subject, entries, why, created_at)
     VALUES (@seed, @puzzleClass, @purpose, @subject, @entries, @why, @now)`,
  );
  const getGame = db.prepare<[number], GameRow>(`SELECT * FROM ladder_games WHERE id = ?`);
  const setMatch = db.prepare<[number, number]>(`UPDATE ladder_games SET match_id = ? WHERE id = ?`);
  const games = db.prepare<[number, number], GameRow>(`SELECT * FROM ladder_games WHERE id < ? ORDER BY id DESC LIMIT ?`);
  const bySeed = db.prepare<[string], number>(`SELECT id FROM matches WHERE seed = ? ORDER BY id DESC LIMIT 1`).pluck();
  const getState = db.prepare<[string], string>(`SELECT value FROM ladder_state WHERE key = ?`).pluck();
  const setState = db.prepare<[string, string]>(`INSERT INTO ladder_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  const mustChange = (changes: number, what: string): void => {
    if (changes !== 1) throw new Error(`ladder: no ${what}`);
  };
  return {
    saveVersion: async (v) => save(v),
    async updateVersion(id, patch: { status?: VersionStatus; note?: string | null; classes?: readonly string[] }) {
      const r = update.run({
        id,
        status: patch.status ?? null,
        setNote: patch.note !== undefined ? 1 : 0,
        note: patch.note ?? null,
        classes: patch.classes ? JSON.stringify(patch.classes) : null,
        now: nowIso(),
      });
      mustChange(r.changes, `version ${id}`);
    },
    listVersions: async (bot) => (bot === undefined ? all.all() : ofBot.all(bot)).map(toVersion),
    addGame: async (g: NewLadderGame): Promise<LadderGame> =>
      db.transaction(() => resealGame(Number(addGame.run({ ...g, subject: g.subject ?? null, entries: JSON.stringify(g.entries), now: nowIso() }).lastInsertRowid), true))(),
    async setGameMatch(gameId, matchId) {
      db.transaction(() => {
        mustChange(setMatch.run(matchId, gameId).changes, `ladder game ${gameId}`);
        resealGame(gameId, false);
      })();
    },
    listGames: async (o = {}) => games.all(o.before ?? Number.MAX_SAFE_INTEGER, o.limit ?? -1).map(toGame),
    matchIdBySeed: async (seed) => bySeed.get(seed),
    getState: async (key) => getState.get(key),
    async setState(key, value) {
      setState.run(key, value);
    },
  };
}
