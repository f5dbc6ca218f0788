/**
 * Every result as the rating pages read it, kept per store while the database is unchanged: the leaderboard,
 * its history and a bot's standing are refitted from 100,000 results only when a write has been committed
 * since (the store's change marker moved: a new result, a purge, a raised bound). The marker is read before
 * the results, so a write that lands in between leaves an older marker beside newer results, which only
 * costs one more read next time; nothing stale is ever served.
 */
import { leaderboardOfColumns, type ClassBoard } from '../stats/leaderboard.ts';
import type { SummaryColumns } from '../core/summary-columns.ts';
import type { Store } from '../store/types.ts';
import type { AppContext } from './context.ts';
import { ratingHistoryOfColumns, type RatingHistory } from './rating-history.ts';

/** The results and what is derived from them, each computed once per database state. */
export interface RatedResults {
  readonly columns: SummaryColumns;
  /** The leaderboard of every class. */
  boards(): ClassBoard[];
  /** The rating history of one class. */
  history(puzzleClass: string): RatingHistory;
  /** The class of the newest match with a result on the leaderboard (the one a visitor has just played). */
  latestClass(): string | undefined;
}

const cache = new WeakMap<Store, { marker: string; rated: RatedResults }>();

/** The results of `ctx`'s database, from the cache when nothing was written since they were read. */
export async function ratedResults(ctx: AppContext): Promise<RatedResults> {
  const marker = await ctx.store.changeMarker();
  const hit = marker === undefined ? undefined : cache.get(ctx.store);
  if (hit && hit.marker === marker) return hit.rated;
  const rated = derive(await ctx.store.summaryColumns());
  if (marker !== undefined) cache.set(ctx.store, { marker, rated });
  return rated;
}

function derive(columns: SummaryColumns): RatedResults {
  let boards: ClassBoard[] | undefined;
  let latest: { cls: string | undefined } | undefined;
  const histories = new Map<string, RatingHistory>();
  const boardsOf = () => (boards ??= leaderboardOfColumns(columns));
  return {
    columns,
    boards: boardsOf,
    latestClass: () => (latest ??= { cls: newestClass(columns, new Set(boardsOf().map((b) => b.puzzleClass))) }).cls,
    history: (puzzleClass) => {
      let h = histories.get(puzzleClass);
      if (!h) histories.set(puzzleClass, (h = ratingHistoryOfColumns(columns, puzzleClass)));
      return h;
    },
  };
}

/**
 * The class of the newest match (match ids grow with creation) among the results of classes in `shown`;
 * a match of several classes gives the class of its last result in the columns.
 */
function newestClass(c: SummaryColumns, shown: ReadonlySet<string>): string | undefined {
  let best = -1;
  let cls: string | undefined;
  for (let i = 0; i < c.length; i++) {
    const name = c.classes[c.puzzleClass[i]];
    if (c.matchId[i] >= best && shown.has(name)) {
      best = c.matchId[i];
      cls = name;
    }
  }
  return cls;
}

/**
 * The leaderboard of every class and the rating history of one: the chosen class, else the class of the
 * newest match (what was just played), not the alphabetically first.
 */
export async function leaderboardView(ctx: AppContext, puzzleClass?: string): Promise<{ boards: ClassBoard[]; history?: RatingHistory }> {
  const rated = await ratedResults(ctx);
  const boards = rated.boards();
  const cls = puzzleClass ?? rated.latestClass() ?? boards[0]?.puzzleClass;
  return { boards, ...(cls !== undefined ? { history: rated.history(cls) } : {}) };
}

/** The rating history of one class from the database. */
export async function ratingHistory(ctx: AppContext, puzzleClass: string): Promise<RatingHistory> {
  return (await ratedResults(ctx)).history(puzzleClass);
}
