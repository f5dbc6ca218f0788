/**
 * What the leaderboard fits on, kept up to date a result at a time: per class, each bot pair's wins, draws
 * and losses and each bot's results, solves, move and gap sums, declines and sorted wall times. Adding the
 * rows of new results costs those rows and the earlier results of their scrambles (their head-to-head
 * partners); a board then costs a Bradley–Terry fit over pairs, not a pass over every result. The boards
 * equal {@link leaderboardOfColumns} on the same columns exactly (test/unit/incremental-board.test.ts):
 * the same comparisons, integer sums, the same medians and the fit given the same tallies in the same order.
 */
import { VERDICT_CODE, type SummaryColumns } from '../core/summary-columns.ts';
import { VERDICTS, type Verdict } from '../core/verdict.ts';
import { fitBradleyTerry } from './bradley-terry.ts';
import { botOrder, talliesOf } from './column-tallies.ts';
import { entryOf, rankEntries, type ClassBoard } from './leaderboard.ts';
import { MAX_POINTS, type RatingHistory } from './rating-history.ts';
import type { PairTally } from './match-stats.ts';
import { compareResults, type Contender } from './outcome.ts';

const SOLVED = VERDICT_CODE.solved;
const UNSUPPORTED = VERDICT_CODE.unsupported;
/** Pair keys: lower bot index times this plus the higher (exact in a double for any realistic bot count). */
const PAIR = 2 ** 21;

interface BotTally {
  results: number;
  solved: number;
  moveSum: number;
  gapSum: number;
  declined: number;
  /** Wall times of the results, sorted in [0, wallLen). */
  walls: Float64Array;
  wallLen: number;
}

interface ClassTally {
  readonly bots: Map<number, BotTally>;
  /** Pair key → [wins, draws, losses] of the lower bot index. */
  readonly pairs: Map<number, Int32Array>;
  /** The same per match (every match with a result that counts, even one without a game), for the history. */
  readonly matches: Map<number, Map<number, Int32Array>>;
  played: number;
  /** Rows added so far (including declines): moves whenever the class's board may have changed. */
  version: number;
}

/** Per-class tallies of results added so far (bots and classes by their index in the columns). */
export class BoardTallies {
  private readonly byClass: (ClassTally | undefined)[] = [];

  /**
   * Counts the rows at `rows` (increasing positions in `c`, whose scrambles' earlier rows are already
   * counted and stand before them, as LiveColumns.add places them).
   */
  add(c: SummaryColumns, rows: Int32Array): void {
    const pending = new Map<BotTally, number[]>();
    const x = { verdict: 'solved' as Verdict, moveCount: 0, wallMs: 0 };
    const y = { ...x };
    for (const p of rows) {
      const t = this.classTally(c.puzzleClass[p]);
      t.version++;
      const b = botTally(t, c.bot[p]);
      if (c.verdict[p] === UNSUPPORTED) {
        b.declined++;
        continue;
      }
      t.played++;
      b.results++;
      let inMatch = t.matches.get(c.matchId[p]);
      if (!inMatch) t.matches.set(c.matchId[p], (inMatch = new Map()));
      const walls = pending.get(b);
      if (walls) walls.push(c.wallMs[p]);
      else pending.set(b, [c.wallMs[p]]);
      if (c.verdict[p] === SOLVED) {
        b.solved++;
        b.moveSum += c.moveCount[p];
        b.gapSum += c.moveCount[p] - (c.optimal[p] >= 0 ? c.optimal[p] : c.lowerBound[p]);
      }
      // Its games: every earlier result of the same scramble by another bot.
      for (let q = p - 1; q >= 0 && c.scrambleId[q] === c.scrambleId[p]; q--) {
        if (c.verdict[q] === UNSUPPORTED || c.bot[q] === c.bot[p]) continue;
        const [lo, hi] = c.bot[q] < c.bot[p] ? [q, p] : [p, q];
        load(x, c, lo);
        load(y, c, hi);
        const o = compareResults(x as Contender, y as Contender);
        const key = c.bot[lo] * PAIR + c.bot[hi];
        const slot = o === 1 ? 0 : o === 0 ? 1 : 2;
        countIn(t.pairs, key)[slot]++;
        countIn(inMatch, key)[slot]++;
      }
    }
    for (const [b, walls] of pending) addWalls(b, walls);
  }

  /** How many rows of class `k` were added: equal versions mean an unchanged class. */
  version(k: number): number {
    return this.byClass[k]?.version ?? 0;
  }

  /** The boards of every class with a result that counts, by class name; `c` names the bots and classes. */
  boards(c: SummaryColumns): ClassBoard[] {
    const order = botOrder(c);
    const atRank = new Int32Array(order.names.length);
    order.rank.forEach((r, i) => (atRank[r] = i));
    const classes = this.byClass.flatMap((t, k) => (t && t.played > 0 ? [{ name: c.classes[k], t }] : []));
    return classes.sort((a, b) => a.name.localeCompare(b.name)).map(({ name, t }) => {
      // The pairs in the order talliesOf lists them: by the lower rank, then the higher.
      const pairs: { ra: number; rb: number; w: number; d: number; l: number }[] = [];
      for (const [key, [w, d, l]] of t.pairs) {
        const ri = order.rank[Math.floor(key / PAIR)];
        const rj = order.rank[key % PAIR];
        pairs.push(ri < rj ? { ra: ri, rb: rj, w, d, l } : { ra: rj, rb: ri, w: l, d, l: w });
      }
      pairs.sort((p, q) => p.ra - q.ra || p.rb - q.rb);
      const tallies: PairTally[] = pairs.map((p) => ({ a: order.names[p.ra], b: order.names[p.rb], wins: p.w, draws: p.d, losses: p.l }));
      const players = order.names.filter((_, r) => (t.bots.get(atRank[r])?.results ?? 0) > 0);
      const fit = fitBradleyTerry(tallies, { players });
      return {
        puzzleClass: name,
        entries: rankEntries(
          fit.ratings.map((r) => {
            const s = t.bots.get(atRank[order.names.indexOf(r.name)])!;
            return entryOf(r, { ...s, medianWallMs: median(s) }, s.declined);
          }),
        ),
      };
    });
  }

  /**
   * The rating history of one class, equal to ratingHistoryOfColumns (rating-history.ts) on the
   * same columns: that fits the concatenated per-match tallies up to each sampled match, and a fit adds
   * every tally into per-pair sums (of whole and half points, exact in a double), so fitting the running
   * per-pair totals gives the same numbers from one pass over the matches' pairs instead of their results.
   */
  history(c: SummaryColumns, puzzleClass: string): RatingHistory {
    const t = this.byClass[c.classes.indexOf(puzzleClass)];
    const order = botOrder(c);
    const atRank = new Int32Array(order.names.length);
    order.rank.forEach((r, i) => (atRank[r] = i));
    const bots = t ? order.names.filter((_, r) => (t.bots.get(atRank[r])?.results ?? 0) > 0) : [];
    const ratings: Record<string, (number | null)[]> = Object.fromEntries(bots.map((b) => [b, []]));
    const matches: number[] = [];
    const ids = Int32Array.from(t ? t.matches.keys() : []).sort();
    const step = Math.max(1, Math.ceil(ids.length / MAX_POINTS));
    // Running totals by rank pair, laid out and oriented as talliesOf reads them.
    const n = order.names.length;
    const totals = new Int32Array(3 * n * n);
    const addPair = (counts: Int32Array, key: number) => {
      const ri = order.rank[Math.floor(key / PAIR)];
      const rj = order.rank[key % PAIR];
      const at = 3 * (Math.min(ri, rj) * n + Math.max(ri, rj));
      const [w, l] = ri < rj ? [0, 2] : [2, 0];
      totals[at] += counts[w];
      totals[at + 1] += counts[1];
      totals[at + 2] += counts[l];
    };
    for (let m = 0; m < ids.length; m++) {
      t!.matches.get(ids[m])!.forEach(addPair);
      if ((ids.length - 1 - m) % step !== 0) continue;
      matches.push(ids[m]);
      const tallies = talliesOf(totals, order);
      const fit = tallies.length ? fitBradleyTerry(tallies) : undefined;
      const byBot = new Map(fit?.ratings.map((e) => [e.name, e.rating]) ?? []);
      for (const b of bots) ratings[b].push(byBot.has(b) ? Math.round(byBot.get(b)! * 10) / 10 : null);
    }
    return { puzzleClass, matches, ratings };
  }

  private classTally(k: number): ClassTally {
    let t = this.byClass[k];
    if (!t) this.byClass[k] = t = { bots: new Map(), pairs: new Map(), matches: new Map(), played: 0, version: 0 };
    return t;
  }
}


function countIn(pairs: Map<number, Int32Array>, key: number): Int32Array {
  let counts = pairs.get(key);
  if (!counts) pairs.set(key, (counts = new Int32Array(3)));
  return counts;
}

function botTally(t: ClassTally, bot: number): BotTally {
  let b = t.bots.get(bot);
  if (!b) t.bots.set(bot, (b = { results: 0, solved: 0, moveSum: 0, gapSum: 0, declined: 0, walls: new Float64Array(16), wallLen: 0 }));
  return b;
}

function load(into: { verdict: Verdict; moveCount: number; wallMs: number }, c: SummaryColumns, row: number): void {
  into.verdict = VERDICTS[c.verdict[row]];
  into.moveCount = c.moveCount[row];
  into.wallMs = c.wallMs[row];
}

/** Keeps `b.walls` sorted: a few new times are inserted in place, many are appended and the lot re-sorted. */
function addWalls(b: BotTally, more: readonly number[]): void {
  const need = b.wallLen + more.length;
  if (need > b.walls.length) {
    const bigger = new Float64Array(Math.max(need, b.walls.length * 2));
    bigger.set(b.walls.subarray(0, b.wallLen));
    b.walls = bigger;
  }
  if (more.length > 16) {
    b.walls.set(more, b.wallLen);
    b.wallLen = need;
    b.walls.subarray(0, need).sort();
    return;
  }
  for (const v of more) {
    let lo = 0;
    let hi = b.wallLen;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (b.walls[mid] <= v) lo = mid + 1;
      else hi = mid;
    }
    b.walls.copyWithin(lo + 1, lo, b.wallLen);
    b.walls[lo] = v;
    b.wallLen++;
  }
}

function median(b: BotTally): number | null {
  const len = b.wallLen;
  if (len === 0) return null;
  const mid = len >> 1;
  return len % 2 === 1 ? b.walls[mid] : (b.walls[mid - 1] + b.walls[mid]) / 2;
}
