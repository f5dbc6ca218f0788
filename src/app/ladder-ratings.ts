/**
 * Ratings per bot version: the results of ladder games, each bot relabelled as the version it played as,
 * fitted per class by the leaderboard's own Bradley–Terry fit. It reads the leaderboard's cached result
 * columns (refreshed only when the database changed), so the ladder, its page and the leaderboard share
 * one read of the results.
 */
import { allocateColumns, type SummaryColumns } from '../core/summary-columns.ts';
import { leaderboardOfColumns, type LeaderboardEntry } from '../referee/leaderboard.ts';
import type { LadderGame } from '../store/ladder-types.ts';
import type { AppContext } from './context.ts';
import { ratedResults } from './rated-results.ts';

/** One version's standing in one class. */
export interface VersionRating extends Omit<LeaderboardEntry, 'bot'> {
  readonly versionId: number;
}

/** Per class, each version's rating (versions with no ladder result in a class are absent). */
export type LadderBoards = ReadonlyMap<string, ReadonlyMap<number, VersionRating>>;

/** The ratings of every version in every class, from the ladder's games. */
export async function ladderBoards(ctx: AppContext, games: readonly LadderGame[]): Promise<LadderBoards> {
  const rated = await ratedResults(ctx);
  return boardsOf(rated.columns, games);
}

/** {@link ladderBoards} on given columns (pure; unit tests feed it directly). */
export function boardsOf(c: SummaryColumns, games: readonly LadderGame[]): LadderBoards {
  const relabelled = relabel(c, games);
  const out = new Map<string, Map<number, VersionRating>>();
  for (const board of leaderboardOfColumns(relabelled)) {
    const m = new Map<number, VersionRating>();
    for (const { bot, ...rest } of board.entries) m.set(Number(bot), { ...rest, versionId: Number(bot) });
    out.set(board.puzzleClass, m);
  }
  return out;
}

/**
 * Only the rows of ladder games, each bot named by the id of the version it played as. Rows keep their
 * order, so the results of one scramble stay adjacent as the fit needs.
 */
export function relabel(c: SummaryColumns, games: readonly LadderGame[]): SummaryColumns {
  const byMatch = new Map<number, Map<string, number>>();
  for (const g of games) if (g.matchId !== undefined) byMatch.set(g.matchId, new Map(g.entries.map((e) => [e.bot, e.versionId])));
  const keep: number[] = [];
  const label: number[] = [];
  const names: string[] = [];
  const index = new Map<number, number>();
  for (let i = 0; i < c.length; i++) {
    const version = byMatch.get(c.matchId[i]!)?.get(c.bots[c.bot[i]!]!);
    if (version === undefined) continue;
    let k = index.get(version);
    if (k === undefined) {
      index.set(version, (k = names.length));
      names.push(String(version));
    }
    keep.push(i);
    label.push(k);
  }
  const out = allocateColumns(keep.length, names, c.classes);
  keep.forEach((i, j) => {
    out.scrambleId[j] = c.scrambleId[i]!;
    out.matchId[j] = c.matchId[i]!;
    out.bot[j] = label[j]!;
    out.puzzleClass[j] = c.puzzleClass[i]!;
    out.verdict[j] = c.verdict[i]!;
    out.moveCount[j] = c.moveCount[i]!;
    out.wallMs[j] = c.wallMs[i]!;
    out.optimal[j] = c.optimal[i]!;
    out.lowerBound[j] = c.lowerBound[i]!;
  });
  return out;
}
