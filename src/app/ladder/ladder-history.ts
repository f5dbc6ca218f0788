/**
 * A bot's rating chart on the ladder: in one class, each of its versions' rating after successive ladder
 * games, fitted as the leaderboard's history is (every head-to-head up to that game), with bots named by
 * version so an old version's line stops where the new one starts.
 */
import type { AppContext } from '../context.ts';
import { labelOf } from './ladder.ts';
import { relabel } from './ladder-ratings.ts';
import { ladderStandings } from './ladder-standings.ts';
import { ratedResults } from '../records/rated-results.ts';
import { ratingHistoryOfColumns, type RatingHistory } from '../../stats/rating-history.ts';

/** The history of `bot`'s versions in `puzzleClass` (default: the class where its versions played most). */
export async function versionHistory(ctx: AppContext, bot: string, puzzleClass?: string): Promise<RatingHistory | undefined> {
  const standings = await ladderStandings(ctx);
  const mine = new Map(standings.versions.filter((v) => v.bot === bot).map((v) => [String(v.id), labelOf(v)]));
  let cls = puzzleClass;
  if (cls === undefined) {
    let most = 0;
    for (const [name, board] of standings.boards) {
      const games = [...board.values()].filter((r) => mine.has(String(r.versionId))).reduce((n, r) => n + r.games, 0);
      if (games > most) [most, cls] = [games, name];
    }
  }
  if (cls === undefined) return undefined;
  const h = ratingHistoryOfColumns(relabel((await ratedResults(ctx)).columns, standings.games), cls);
  const ratings = Object.fromEntries(Object.entries(h.ratings).flatMap(([id, series]) => (mine.has(id) ? [[mine.get(id)!, series]] : [])));
  return { puzzleClass: cls, matches: h.matches, ratings };
}
