/** The in-memory store's ladder tables, for unit tests; behaves as the SQLite one does. */
import type { BotVersion, LadderGame, LadderStore } from '../ladder-types.ts';
import { nowIso } from '../row-codec.ts';
import { gameSeal, gamesCountSeal, versionSeal } from '../seal.ts';
import type { SealedTables, SealKey } from '../types.ts';

/** The memory ladder, and its rows with their seals (what the SQL stores keep in a seal column). */
export interface MemoryLadder extends LadderStore {
  sealed(): Pick<SealedTables, 'versions' | 'games'>;
  /** The count of sealed games and its seal, as seal_meta keeps them in the SQL stores. */
  gameCount(): { sealedGames: number; gamesSeal?: string };
}

/**
 * Ladder tables on plain arrays; `matchIdBySeed` finds a match by seed in the owning store, and `onWrite`
 * moves its change marker (a ladder write changes what the ladder's pages read, as on SQLite).
 */
export function memoryLadder(
  matchIdBySeed: (seed: string) => number | undefined,
  onWrite: () => void = () => undefined,
  keyOf: () => SealKey | undefined = () => undefined,
): MemoryLadder {
  let versions: BotVersion[] = [];
  const games: LadderGame[] = [];
  const versionSeals = new Map<number, string>();
  const gameSeals = new Map<number, { seq: number; seal: string }>();
  let sealedGames = 0;
  let gamesSeal: string | undefined;
  const sealGame = (g: LadderGame, created: boolean): void => {
    const k = keyOf();
    if (!k) return;
    let seq = gameSeals.get(g.id)?.seq;
    if (created) {
      seq = ++sealedGames;
      gamesSeal = gamesCountSeal(k, seq);
    }
    if (seq !== undefined) gameSeals.set(g.id, { seq, seal: gameSeal(k, g, seq) });
  };
  const state = new Map<string, string>();
  const copy = <T>(v: T): T => structuredClone(v);
  const version = (id: number): BotVersion => {
    const v = versions.find((x) => x.id === id);
    if (!v) throw new Error(`ladder: no version ${id}`);
    return v;
  };
  return {
    async saveVersion(v) {
      onWrite();
      let found = versions.find((x) => x.bot === v.bot && x.hash === v.hash);
      if (!found) {
        const now = nowIso();
        const number = versions.filter((x) => x.bot === v.bot).length + 1;
        found = { id: versions.length + 1, bot: v.bot, number, hash: v.hash, command: v.command, ...(v.folder !== undefined ? { folder: v.folder } : {}), status: 'new', classes: [], current: true, createdAt: now, updatedAt: now };
        versions.push(found);
        const k = keyOf();
        if (k) versionSeals.set(found.id, versionSeal(k, found));
      }
      const id = found.id;
      versions = versions.map((x) => (x.bot === v.bot ? { ...x, current: x.id === id } : x));
      return copy(version(id));
    },
    async updateVersion(id, patch) {
      onWrite();
      const v = version(id);
      const { note: _drop, ...rest } = v;
      const note = patch.note === undefined ? v.note : patch.note === null ? undefined : patch.note;
      const next: BotVersion = { ...rest, ...(note !== undefined ? { note } : {}), status: patch.status ?? v.status, classes: patch.classes ? [...patch.classes] : v.classes, updatedAt: nowIso() };
      versions = versions.map((x) => (x.id === id ? next : x));
    },
    listVersions: async (bot) => copy(versions.filter((v) => bot === undefined || v.bot === bot)),
    async addGame(g) {
      onWrite();
      if (games.some((x) => x.seed === g.seed)) throw new Error(`ladder: a game with seed ${g.seed} exists`);
      const game: LadderGame = { ...copy(g), id: games.length + 1, createdAt: nowIso() };
      games.push(game);
      sealGame(game, true);
      return copy(game);
    },
    async setGameMatch(gameId, matchId) {
      onWrite();
      const i = games.findIndex((x) => x.id === gameId);
      if (i < 0) throw new Error(`ladder: no ladder game ${gameId}`);
      games[i] = { ...games[i]!, matchId };
      sealGame(games[i]!, false);
    },
    async listGames(o = {}) {
      const list = games.filter((g) => g.id < (o.before ?? Infinity)).reverse();
      return copy(o.limit === undefined ? list : list.slice(0, o.limit));
    },
    matchIdBySeed: async (seed) => matchIdBySeed(seed),
    getState: async (key) => state.get(key),
    async setState(key, value) {
      onWrite();
      state.set(key, value);
    },
    sealed: () => ({
      versions: versions.map((v) => ({ version: copy(v), ...(versionSeals.has(v.id) ? { seal: versionSeals.get(v.id)! } : {}) })),
      games: games.map((g) => ({ game: copy(g), ...(gameSeals.get(g.id) ?? {}) })),
    }),
    gameCount: () => ({ sealedGames, ...(gamesSeal !== undefined ? { gamesSeal } : {}) }),
  };
}
