import { buildLeaderboard } from '../referee/leaderboard.ts';
import type { ResultSummary } from '../store/types.ts';
import type { AppContext } from './context.ts';

/** Ratings of one class after successive matches: `ratings[bot][i]` after `matches[i]`, null before its first game. */
export interface RatingHistory {
  readonly puzzleClass: string;
  readonly matches: readonly number[];
  readonly ratings: Readonly<Record<string, (number | null)[]>>;
}

/** Points on a history chart at most: each is one rating fit over all results up to that match. */
const MAX_POINTS = 24;

/**
 * The ratings of one class as they stood after each match (refit from every result up to it, the way the
 * leaderboard rates), sampled to at most 24 points so a long history costs a bounded number of fits.
 */
export async function ratingHistory(ctx: AppContext, puzzleClass: string, rows?: readonly ResultSummary[]): Promise<RatingHistory> {
  const all = (rows ?? (await ctx.store.allSummaries(puzzleClass))).filter((r) => r.puzzleClass === puzzleClass);
  const matchIds = [...new Set(all.map((r) => r.matchId))].sort((a, b) => a - b);
  const step = Math.max(1, Math.ceil(matchIds.length / MAX_POINTS));
  const points = matchIds.filter((_, i) => (matchIds.length - 1 - i) % step === 0);
  const bots = [...new Set(all.map((r) => r.bot))].sort();
  const ratings: Record<string, (number | null)[]> = Object.fromEntries(bots.map((b) => [b, []]));
  const sorted = [...all].sort((a, b) => a.matchId - b.matchId);
  let upto = 0;
  for (const m of points) {
    while (upto < sorted.length && sorted[upto].matchId <= m) upto++;
    const board = buildLeaderboard(sorted.slice(0, upto)).find((b) => b.puzzleClass === puzzleClass);
    const byBot = new Map(board?.entries.map((e) => [e.bot, e.rating]) ?? []);
    for (const b of bots) ratings[b].push(byBot.has(b) ? Math.round(byBot.get(b)! * 10) / 10 : null);
  }
  return { puzzleClass, matches: points, ratings };
}
