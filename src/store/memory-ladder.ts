/** The in-memory store's ladder tables, for unit tests; behaves as the SQLite one does. */
import type { BotVersion, LadderGame, LadderStore } from './ladder-types.ts';
import { nowIso } from './row-codec.ts';

/**
 * Ladder tables on plain arrays; `matchIdBySeed` finds a match by seed in the owning store, and `onWrite`
 * moves its change marker (a ladder write changes what the ladder's pages read, as on SQLite).
 */
export function memoryLadder(matchIdBySeed: (seed: string) => number | undefined, onWrite: () => void = () => undefined): LadderStore {
  let versions: BotVersion[] = [];
  const games: LadderGame[] = [];
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
      return copy(game);
    },
    async setGameMatch(gameId, matchId) {
      onWrite();
      const i = games.findIndex((x) => x.id === gameId);
      if (i < 0) throw new Error(`ladder: no ladder game ${gameId}`);
      games[i] = { ...games[i]!, matchId };
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
  };
}
