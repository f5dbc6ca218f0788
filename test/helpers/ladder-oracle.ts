/**
 * Ladder ratings from scratch, the independent way: every result relabelled by version and fitted by the
 * leaderboard's own Bradley–Terry fit (leaderboardOfColumns), against which the game-by-game ratings of
 * src/stats/ladder-tallies.ts are checked.
 */
import { relabel, type LadderBoards, type VersionRating } from '../../src/app/ladder/ladder-ratings.ts';
import { addContribution, boardsOfTotals, type Contribution, type Totals } from '../../src/stats/ladder-tallies.ts';
import type { SummaryColumns } from '../../src/core/summary-columns.ts';
import { leaderboardOfColumns } from '../../src/stats/leaderboard.ts';
import type { LadderGame } from '../../src/store/ladder-types.ts';

/** Per class, each version's rating from every result of the ladder games. */
export function boardsOf(c: SummaryColumns, games: readonly LadderGame[]): LadderBoards {
  const out = new Map<string, Map<number, VersionRating>>();
  for (const board of leaderboardOfColumns(relabel(c, games))) {
    const m = new Map<number, VersionRating>();
    for (const { bot, ...rest } of board.entries) m.set(Number(bot), { ...rest, versionId: Number(bot) });
    out.set(board.puzzleClass, m);
  }
  return out;
}

/** The game-by-game ratings of these contributions. */
export function boardsOfContributions(all: readonly Contribution[]): LadderBoards {
  const t: Totals = new Map();
  for (const c of all) addContribution(t, c);
  return boardsOfTotals(t);
}
