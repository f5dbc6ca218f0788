/**
 * Every result as the rating pages read it, kept per store and brought up to date after a write by reading
 * only the results added since (their ids grow): the leaderboard, its history and a bot's standing used to
 * re-read and refit a million results on every write. The store's change marker is read before the
 * results, so a write that lands in between leaves an older marker beside newer results, which only costs
 * one more read next time; nothing stale is ever served. Anything but appends (a result deleted, a bound
 * changed: the store's `rewrites` mark; a result committed out of id order: its `total`) reads all again.
 */
import type { SummaryColumns } from '../../core/summary-columns.ts';
import { BoardTallies } from '../../stats/board-tallies.ts';
import type { ClassBoard } from '../../stats/leaderboard.ts';
import type { Store } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { LiveColumns } from './live-columns.ts';
import type { RatingHistory } from '../../stats/rating-history.ts';

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

/** What is kept of one store between requests. */
interface Kept {
  marker: string;
  lastId: number;
  rewrites: string;
  readonly live: LiveColumns;
  readonly tallies: BoardTallies;
  /** Histories by class, with the class's tally version they were computed at (a class without new rows keeps its history). */
  readonly histories: Map<string, { version: number; history: RatingHistory }>;
  rated: RatedResults;
}

const kept = new WeakMap<Store, Kept>();
/** One refresh at a time per store: two concurrent ones would append the same new rows twice. */
const queue = new WeakMap<Store, Promise<unknown>>();

/** The results of `ctx`'s database, from what was kept when nothing was written since, else brought up to date. */
export async function ratedResults(ctx: AppContext): Promise<RatedResults> {
  const store = ctx.store;
  const run = (queue.get(store) ?? Promise.resolve()).then(() => refresh(store));
  queue.set(store, run.catch(() => undefined));
  return run;
}

async function refresh(store: Store): Promise<RatedResults> {
  const marker = await store.changeMarker();
  const k = kept.get(store);
  if (marker === undefined) return (await readAll(store, '')).rated;
  if (k && k.marker === marker) return k.rated;
  if (k) {
    const read = await store.summaryColumnsSince(k.lastId);
    if (read.rewrites === k.rewrites && (read.total === undefined || read.total === k.live.length + read.columns.length)) {
      if (read.columns.length > 0) {
        // Half-added rows cannot be told apart: after a failure here the next request starts afresh.
        kept.delete(store);
        const placed = k.live.add(read.columns);
        const view = k.live.view();
        k.tallies.add(view, placed);
        k.rated = derive(view, k);
        kept.set(store, k);
      }
      k.marker = marker;
      k.lastId = read.lastId;
      return k.rated;
    }
  }
  const fresh = await readAll(store, marker);
  kept.set(store, fresh);
  return fresh.rated;
}

/** Every result read again, and the tallies counted from scratch. */
async function readAll(store: Store, marker: string): Promise<Kept> {
  const read = await store.summaryColumnsSince(0);
  const live = new LiveColumns(read.columns);
  const tallies = new BoardTallies();
  const view = live.view();
  tallies.add(view, Int32Array.from({ length: view.length }, (_, i) => i));
  const k: Kept = { marker, lastId: read.lastId, rewrites: read.rewrites, live, tallies, histories: new Map(), rated: undefined as unknown as RatedResults };
  k.rated = derive(view, k);
  return k;
}

function derive(columns: SummaryColumns, k: Kept): RatedResults {
  let boards: ClassBoard[] | undefined;
  let latest: { cls: string | undefined } | undefined;
  const boardsOf = () => (boards ??= k.tallies.boards(columns));
  return {
    columns,
    boards: boardsOf,
    latestClass: () => (latest ??= { cls: newestClass(columns, new Set(boardsOf().map((b) => b.puzzleClass))) }).cls,
    history: (puzzleClass) => {
      const version = k.tallies.version(columns.classes.indexOf(puzzleClass));
      const hit = k.histories.get(puzzleClass);
      if (hit && hit.version === version) return hit.history;
      const history = k.tallies.history(columns, puzzleClass);
      k.histories.set(puzzleClass, { version, history });
      return history;
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
