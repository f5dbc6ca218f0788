import { columnsOf, VERDICT_CODE, type ColumnSource, type SummaryColumns } from '../core/summary-columns.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import { addPairCounts, botOrder, rowsByClass, talliesOf, type BotOrder } from './column-tallies.ts';

/** One bot's line on the leaderboard of one puzzle class. */
export interface LeaderboardEntry {
  readonly bot: string;
  /** Bradley–Terry rating on the Elo scale, mean 0 within the class. */
  readonly rating: number;
  readonly low: number;
  readonly high: number;
  /** Head-to-head scramble games against other bots. */
  readonly games: number;
  /** Results that count: every verdict but `unsupported`. */
  readonly results: number;
  /** Scrambles of the class the bot declined (`unsupported`): neither games nor results. */
  readonly declined: number;
  readonly solveRate: number;
  readonly meanMoves: number | null;
  readonly meanGap: number | null;
  readonly medianWallMs: number | null;
  /**
   * Fewer than {@link PROVISIONAL_GAMES} head-to-head games: the rating is a guess from a handful of
   * outcomes, so the entry is listed after every established one (see {@link rankEntries}).
   */
  readonly provisional: boolean;
}

/**
 * Head-to-head games an entry needs to be ranked among the established ones. Below it a few lucky (or
 * unlucky) outcomes against one opponent decide the rating: three crashes against a strong bot rated a
 * crashing bot above one that solved all of twenty scrambles a little slower than the same opponent.
 */
export const PROVISIONAL_GAMES = 10;

/**
 * The leaderboard's order: established entries first, then provisional ones; within each, by rating, then
 * by the lower end of the interval (the better measured first), then by name. Ranking every entry by the
 * lower end alone was tried and is not enough: twenty lost games pull a bot's whole interval below that of
 * a bot with three lost games, whose interval is merely wide.
 */
export function rankEntries(entries: readonly LeaderboardEntry[]): LeaderboardEntry[] {
  return [...entries].sort(
    (x, y) => Number(x.provisional) - Number(y.provisional) || y.rating - x.rating || y.low - x.low || (x.bot < y.bot ? -1 : x.bot > y.bot ? 1 : 0),
  );
}

/** The leaderboard of one puzzle class, best first. */
export interface ClassBoard {
  readonly puzzleClass: string;
  readonly entries: LeaderboardEntry[];
}

/**
 * Fits one Bradley–Terry rating per bot and puzzle class from every head-to-head scramble outcome in the
 * database (a scramble where two bots both have a result is one game between them).
 *
 * `unsupported` is a bot declining a class it does not claim to solve, not a loss: those results enter
 * neither the games nor the solve rate, and a bot that declined everything in a class is not listed there.
 */
export function buildLeaderboard(rows: readonly ColumnSource[]): ClassBoard[] {
  return leaderboardOfColumns(columnsOf(rows));
}

const SOLVED = VERDICT_CODE.solved;
const UNSUPPORTED = VERDICT_CODE.unsupported;

/**
 * {@link buildLeaderboard} on result columns (what the store reads for 100,000 results in one query), for
 * the classes `keep` accepts. Counting runs on typed arrays; only the fit sees names.
 */
export function leaderboardOfColumns(c: SummaryColumns, keep: (puzzleClass: string) => boolean = () => true): ClassBoard[] {
  const order = botOrder(c);
  const n = order.names.length;
  const byClass = rowsByClass(c);
  const classes = c.classes.map((name, k) => ({ name, k })).filter((x) => byClass[x.k].length > 0 && keep(x.name));
  const boards: ClassBoard[] = [];
  for (const { name: puzzleClass, k } of classes.sort((a, b) => a.name.localeCompare(b.name))) {
    const all = byClass[k];
    const declined = new Int32Array(n);
    let playedCount = 0;
    for (const i of all) {
      if (c.verdict[i] === UNSUPPORTED) declined[order.rank[c.bot[i]]]++;
      else playedCount++;
    }
    // Scramble ids are global, so results of different matches never pair up by accident.
    if (playedCount === 0) continue;
    const played = new Int32Array(playedCount);
    let w = 0;
    for (const i of all) if (c.verdict[i] !== UNSUPPORTED) played[w++] = i;
    const summaries = botSummaries(c, played, order);
    const counts = new Int32Array(3 * n * n);
    addPairCounts(c, played, order, counts);
    const players = order.names.filter((_, r) => summaries[r].results > 0);
    const fit = fitBradleyTerry(talliesOf(counts, order), { players });
    boards.push({
      puzzleClass,
      entries: rankEntries(
        fit.ratings.map((r) => {
          const rank = order.names.indexOf(r.name);
          return entryOf(r, summaries[rank], declined[rank]);
        }),
      ),
    });
  }
  return boards;
}

/** A bot's rating and its own figures, as a leaderboard row shows them. */
export function entryOf(
  r: Pick<LeaderboardEntry, 'rating' | 'low' | 'high' | 'games'> & { readonly name: string },
  s: { readonly results: number; readonly solved: number; readonly moveSum: number; readonly gapSum: number; readonly medianWallMs: number | null },
  declined: number,
): LeaderboardEntry {
  return {
    bot: r.name,
    rating: r.rating,
    low: r.low,
    high: r.high,
    games: r.games,
    results: s.results,
    declined,
    solveRate: s.results ? s.solved / s.results : 0,
    meanMoves: s.solved > 0 ? s.moveSum / s.solved : null,
    meanGap: s.solved > 0 ? s.gapSum / s.solved : null,
    medianWallMs: s.medianWallMs,
    provisional: r.games < PROVISIONAL_GAMES,
  };
}

interface Tally {
  results: number;
  solved: number;
  moveSum: number;
  gapSum: number;
  medianWallMs: number | null;
}

/** Per bot (by rank): results, solves, move and gap sums over solves, and the median wall time. */
function botSummaries(c: SummaryColumns, rows: Int32Array, order: BotOrder): Tally[] {
  const n = order.names.length;
  const out: Tally[] = Array.from({ length: n }, () => ({ results: 0, solved: 0, moveSum: 0, gapSum: 0, medianWallMs: null }));
  for (const i of rows) out[order.rank[c.bot[i]]].results++;
  // Each bot's wall times in one slice of a shared array, sorted in place for the median.
  const start = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) start[r + 1] = start[r] + out[r].results;
  const walls = new Float64Array(rows.length);
  const fill = start.slice(0, n);
  for (const i of rows) {
    const r = order.rank[c.bot[i]];
    walls[fill[r]++] = c.wallMs[i];
    if (c.verdict[i] !== SOLVED) continue;
    const t = out[r];
    t.solved++;
    t.moveSum += c.moveCount[i];
    t.gapSum += c.moveCount[i] - (c.optimal[i] >= 0 ? c.optimal[i] : c.lowerBound[i]);
  }
  for (let r = 0; r < n; r++) {
    const len = out[r].results;
    if (len === 0) continue;
    const s = walls.subarray(start[r], start[r + 1]).sort();
    const mid = len >> 1;
    out[r].medianWallMs = len % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  }
  return out;
}
