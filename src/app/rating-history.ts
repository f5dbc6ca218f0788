import { fitBradleyTerry } from '../referee/bradley-terry.ts';
import { buildLeaderboard, type ClassBoard } from '../referee/leaderboard.ts';
import { pairTallies, type PairTally } from '../referee/match-stats.ts';
import type { ResultSummary } from '../store/types.ts';
import type { AppContext } from './context.ts';

/** Ratings of one class after successive matches: `ratings[bot][i]` after `matches[i]`, null before its first game. */
export interface RatingHistory {
  readonly puzzleClass: string;
  readonly matches: readonly number[];
  readonly ratings: Readonly<Record<string, (number | null)[]>>;
}

/** Points on a history chart at most. */
const MAX_POINTS = 24;

/**
 * The ratings of one class as they stood after each match, fitted the way the leaderboard rates (one
 * Bradley–Terry fit over every head-to-head up to that match), sampled to at most 24 points. Each match's
 * tallies are counted once and accumulated, so the cost is one pass over the results plus 24 small fits.
 */
export function ratingHistoryOf(rows: readonly ResultSummary[], puzzleClass: string): RatingHistory {
  const byMatch = new Map<number, ResultSummary[]>();
  for (const r of rows) {
    if (r.puzzleClass !== puzzleClass) continue;
    const list = byMatch.get(r.matchId);
    if (list) list.push(r);
    else byMatch.set(r.matchId, [r]);
  }
  const ids = [...byMatch.keys()].sort((a, b) => a - b);
  const step = Math.max(1, Math.ceil(ids.length / MAX_POINTS));
  const bots = [...new Set([...byMatch.values()].flatMap((l) => l.map((r) => r.bot)))].sort();
  const ratings: Record<string, (number | null)[]> = Object.fromEntries(bots.map((b) => [b, []]));
  const matches: number[] = [];
  const tallies: PairTally[] = [];
  ids.forEach((id, i) => {
    tallies.push(...pairTallies(byMatch.get(id)!));
    if ((ids.length - 1 - i) % step !== 0) return;
    matches.push(id);
    const fit = tallies.length ? fitBradleyTerry(tallies) : undefined;
    const byBot = new Map(fit?.ratings.map((e) => [e.name, e.rating]) ?? []);
    for (const b of bots) ratings[b].push(byBot.has(b) ? Math.round(byBot.get(b)! * 10) / 10 : null);
  });
  return { puzzleClass, matches, ratings };
}

/** The leaderboard of every class and the rating history of one (the chosen class, or the first). */
export async function leaderboardView(ctx: AppContext, puzzleClass?: string): Promise<{ boards: ClassBoard[]; history?: RatingHistory }> {
  const rows = await ctx.store.allSummaries();
  const boards = buildLeaderboard(rows);
  const cls = puzzleClass ?? boards[0]?.puzzleClass;
  return { boards, ...(cls !== undefined ? { history: ratingHistoryOf(rows, cls) } : {}) };
}

/** The rating history of one class from the database. */
export async function ratingHistory(ctx: AppContext, puzzleClass: string): Promise<RatingHistory> {
  return ratingHistoryOf(await ctx.store.allSummaries(puzzleClass), puzzleClass);
}
