/**
 * Every stored result reduced to what ratings read, one typed array per field: the leaderboard of 100,000
 * results is a few megabytes of numbers instead of 100,000 objects with a dozen properties each (building
 * those objects was most of the page's time). Pure: stores fill it (each its own way), src/stats rates it.
 */
import type { Bound } from './types.ts';
import { VERDICTS, type Verdict } from './verdict.ts';

/** The fields of a stored result that ratings read (a store's ResultSummary has them all). */
export interface ColumnSource {
  readonly scrambleId: number;
  readonly matchId: number;
  readonly bot: string;
  readonly puzzleClass: string;
  readonly verdict: Verdict;
  readonly moveCount: number;
  readonly wallMs: number;
  readonly bound: Bound;
}

/**
 * Results as columns: row `i` of every array is one result, and the results of one scramble are adjacent
 * (head-to-head counting walks them without sorting). Names are stored once, rows hold their index.
 */
export interface SummaryColumns {
  readonly length: number;
  /** Distinct bot names; `bot[i]` indexes this list. */
  readonly bots: readonly string[];
  /** Distinct puzzle classes; `puzzleClass[i]` indexes this list. */
  readonly classes: readonly string[];
  readonly scrambleId: Int32Array;
  readonly matchId: Int32Array;
  readonly bot: Int32Array;
  readonly puzzleClass: Int32Array;
  /** Index into {@link VERDICTS}. */
  readonly verdict: Uint8Array;
  readonly moveCount: Int32Array;
  readonly wallMs: Float64Array;
  /** The exact optimum, or −1 when only the lower bound is known. */
  readonly optimal: Int32Array;
  readonly lowerBound: Int32Array;
}

/** Verdict codes as {@link SummaryColumns.verdict} holds them. */
export const VERDICT_CODE: Readonly<Record<Verdict, number>> = Object.fromEntries(VERDICTS.map((v, i) => [v, i])) as Record<Verdict, number>;

/** Empty columns for `n` rows, to be filled by a store. */
export function allocateColumns(n: number, bots: readonly string[], classes: readonly string[]): SummaryColumns {
  return {
    length: n,
    bots,
    classes,
    scrambleId: new Int32Array(n),
    matchId: new Int32Array(n),
    bot: new Int32Array(n),
    puzzleClass: new Int32Array(n),
    verdict: new Uint8Array(n),
    moveCount: new Int32Array(n),
    wallMs: new Float64Array(n),
    optimal: new Int32Array(n),
    lowerBound: new Int32Array(n),
  };
}

/** The columns of a list of result summaries in any order (stores without a faster path, unit tests). */
export function columnsOf(list: readonly ColumnSource[]): SummaryColumns {
  // Stable: results of one scramble become adjacent, otherwise the order is kept.
  const rows = [...list].sort((a, b) => a.scrambleId - b.scrambleId);
  const botIndex = new Map<string, number>();
  const classIndex = new Map<string, number>();
  const indexOf = (m: Map<string, number>, key: string): number => {
    let i = m.get(key);
    if (i === undefined) m.set(key, (i = m.size));
    return i;
  };
  const n = rows.length;
  const bot = new Int32Array(n);
  const puzzleClass = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    bot[i] = indexOf(botIndex, rows[i].bot);
    puzzleClass[i] = indexOf(classIndex, rows[i].puzzleClass);
  }
  const c = allocateColumns(n, [...botIndex.keys()], [...classIndex.keys()]);
  c.bot.set(bot);
  c.puzzleClass.set(puzzleClass);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    c.scrambleId[i] = r.scrambleId;
    c.matchId[i] = r.matchId;
    c.verdict[i] = VERDICT_CODE[r.verdict];
    c.moveCount[i] = r.moveCount;
    c.wallMs[i] = r.wallMs;
    c.optimal[i] = r.bound.optimal ?? -1;
    c.lowerBound[i] = r.bound.lowerBound;
  }
  return c;
}

/** Makes each scramble's results adjacent when a store's read did not (a stable sort by scramble id). */
export function groupByScramble(c: SummaryColumns): SummaryColumns {
  let sorted = true;
  for (let i = 1; i < c.length && sorted; i++) sorted = c.scrambleId[i - 1] <= c.scrambleId[i];
  if (sorted) return c;
  const order = Int32Array.from({ length: c.length }, (_, i) => i).sort((x, y) => c.scrambleId[x] - c.scrambleId[y] || x - y);
  const out = allocateColumns(c.length, c.bots, c.classes);
  for (const key of ['scrambleId', 'matchId', 'bot', 'puzzleClass', 'verdict', 'moveCount', 'wallMs', 'optimal', 'lowerBound'] as const) {
    const from = c[key];
    const to = out[key];
    for (let i = 0; i < order.length; i++) to[i] = from[order[i]];
  }
  return out;
}
