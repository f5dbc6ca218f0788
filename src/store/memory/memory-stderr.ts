/** The in-memory store's bot stderr, for unit tests: the SQL stores' behaviour in a map. */
import { joinCapped, NO_TEXT, type CappedText } from '../../core/capped-text.ts';
import type { StderrStore } from '../stderr-types.ts';

/** Bot stderr held in a map by match and bot. */
export function memoryStderr(): StderrStore {
  const kept = new Map<string, CappedText>();
  const key = (matchId: number, bot: string): string => JSON.stringify([matchId, bot]);
  return {
    async append(matchId, bot, text) {
      kept.set(key(matchId, bot), joinCapped(kept.get(key(matchId, bot)) ?? NO_TEXT, text));
    },
    async read(matchId, bot) {
      const t = kept.get(key(matchId, bot));
      return t && { ...t };
    },
    async bots(matchId) {
      const names = [...kept.keys()].map((k) => JSON.parse(k) as [number, string]).filter(([m]) => m === matchId);
      return names.map(([, b]) => b).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
  };
}
