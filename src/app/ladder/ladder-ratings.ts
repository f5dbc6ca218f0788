/**
 * Ratings per bot version, their types, and the results of ladder games with each bot relabelled as the
 * version it played as (for the per-version rating chart; the ratings themselves are kept game by game in
 * src/stats/ladder-tallies.ts, and tests check them against the leaderboard's fit of relabelled results).
 */
import { allocateColumns, type SummaryColumns } from '../../core/summary-columns.ts';
import type { LadderGame } from '../../store/ladder-types.ts';

export type { LadderBoards, VersionRating } from '../../stats/ladder-tallies.ts';

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
