/**
 * A class's rating history: the leaderboard's fit as it stood after each match, for the history chart. Pure;
 * the incremental twin is BoardTallies.history (board-tallies.ts), held equal to this by a test.
 */
import { fitBradleyTerry } from './bradley-terry.ts';
import { addPairCounts, botOrder, byMatch, talliesOf } from './column-tallies.ts';
import type { PairTally } from './match-stats.ts';
import { columnsOf, VERDICT_CODE, type ColumnSource, type SummaryColumns } from '../core/summary-columns.ts';

/** Points on a history chart at most. */
export const MAX_POINTS = 24;

/** Ratings of one class after successive matches: `ratings[bot][i]` after `matches[i]`, null before its first game. */
export interface RatingHistory {
  readonly puzzleClass: string;
  readonly matches: readonly number[];
  readonly ratings: Readonly<Record<string, (number | null)[]>>;
}


/** {@link ratingHistoryOfColumns} of result objects. */
export function ratingHistoryOf(rows: readonly ColumnSource[], puzzleClass: string): RatingHistory {
  return ratingHistoryOfColumns(columnsOf(rows), puzzleClass);
}

/**
 * The ratings of one class as they stood after each match, fitted the way the leaderboard rates (one
 * Bradley–Terry fit over every head-to-head up to that match, declined scrambles left out, so the last point
 * is the leaderboard's rating), sampled to at most 24 points. Each match's tallies are counted once and
 * accumulated, so the cost is one pass over the class's results plus 24 small fits.
 */
export function ratingHistoryOfColumns(c: SummaryColumns, puzzleClass: string): RatingHistory {
  const k = c.classes.indexOf(puzzleClass);
  const picked: number[] = [];
  for (let i = 0; i < c.length; i++) if (c.puzzleClass[i] === k && c.verdict[i] !== VERDICT_CODE.unsupported) picked.push(i);
  const order = botOrder(c);
  const { matchId, bot } = c;
  const rows = byMatch(c, Int32Array.from(picked));
  // Where each match's results start in `rows`.
  const starts: number[] = [];
  for (let i = 0; i < rows.length; i++) if (i === 0 || matchId[rows[i]] !== matchId[rows[i - 1]]) starts.push(i);
  starts.push(rows.length);
  const present = new Set<number>();
  for (const i of rows) present.add(order.rank[bot[i]]);
  const bots = order.names.filter((_, r) => present.has(r));
  const ratings: Record<string, (number | null)[]> = Object.fromEntries(bots.map((b) => [b, []]));
  const matches: number[] = [];
  const tallies: PairTally[] = [];
  const count = starts.length - 1;
  const step = Math.max(1, Math.ceil(count / MAX_POINTS));
  const n = order.names.length;
  for (let m = 0; m < count; m++) {
    const counts = new Int32Array(3 * n * n);
    addPairCounts(c, rows.subarray(starts[m], starts[m + 1]), order, counts);
    tallies.push(...talliesOf(counts, order));
    if ((count - 1 - m) % step !== 0) continue;
    matches.push(matchId[rows[starts[m]]]);
    const fit = tallies.length ? fitBradleyTerry(tallies) : undefined;
    const byBot = new Map(fit?.ratings.map((e) => [e.name, e.rating]) ?? []);
    for (const b of bots) ratings[b].push(byBot.has(b) ? Math.round(byBot.get(b)! * 10) / 10 : null);
  }
  return { puzzleClass, matches, ratings };
}
