/**
 * How much faster one bot is than another where speed is all that separates them: the paired ratio of their
 * times on the scrambles both solved in the same number of moves. Pure math.
 *
 * The estimate is the Hodges–Lehmann estimate of the log ratios, exp(median of the Walsh averages
 * (dᵢ + dⱼ)/2, i ≤ j, of dᵢ = ln(bᵢ/aᵢ)), with the confidence interval of the Wilcoxon signed-rank test
 * inverted: order statistics of the same Walsh averages. For symmetric log ratios it estimates the ratio of
 * geometric means; unlike the plain geometric mean and a t-interval it is not dragged by the odd garbage
 * collection pause, and its interval is exact for any number of pairs (distribution-free, continuous times).
 */
import type { ScoredResult } from './match-stats.ts';
import { normalQuantile } from './normal.ts';

/** The paired time ratio B/A: below 1 when B is faster. */
export interface SpeedRatio {
  /** Pairs used: scrambles both bots solved with equal moves, both times positive. */
  readonly pairs: number;
  /** Hodges–Lehmann estimate of B's time over A's; null without pairs. */
  readonly ratio: number | null;
  /** Interval ends; null when there are too few pairs for the level (fewer than 6 at 95%). */
  readonly low: number | null;
  readonly high: number | null;
  readonly level: number;
  /** How the signed-rank distribution was computed: exactly (up to 300 pairs) or by its normal limit. */
  readonly method: 'exact' | 'normal';
}

/** Largest number of pairs for the exact signed-rank distribution (an O(n³) table, 4.5 M cells at 300). */
const EXACT_MAX = 300;

/** The paired ratio of B's times over A's, with its `level` confidence interval. */
export function speedRatio(pairs: ReadonlyArray<readonly [aMs: number, bMs: number]>, level = 0.95): SpeedRatio {
  if (!(level > 0 && level < 1)) throw new RangeError(`speedRatio: level ${level} is not in (0, 1)`);
  const logs: number[] = [];
  for (const [a, b] of pairs) if (a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b)) logs.push(Math.log(b / a));
  const n = logs.length;
  const method = n <= EXACT_MAX ? 'exact' : 'normal';
  if (n === 0) return { pairs: 0, ratio: null, low: null, high: null, level, method };
  const d = Float64Array.from(logs).sort();
  const m = (n * (n + 1)) / 2;
  const hl = m % 2 === 1 ? walshOrderStatistic(d, (m + 1) / 2) : (walshOrderStatistic(d, m / 2) + walshOrderStatistic(d, m / 2 + 1)) / 2;
  const c = method === 'exact' ? exactSignedRankCutoff(n, (1 - level) / 2) : normalSignedRankCutoff(n, (1 - level) / 2);
  if (c < 1) return { pairs: n, ratio: Math.exp(hl), low: null, high: null, level, method };
  return {
    pairs: n,
    ratio: Math.exp(hl),
    low: Math.exp(walshOrderStatistic(d, c)),
    high: Math.exp(walshOrderStatistic(d, m + 1 - c)),
    level,
    method,
  };
}

/**
 * The times of bots `a` and `b` (`time` picks wall or CPU time) on every scramble both solved with the same
 * number of moves: the scrambles where only speed can separate them.
 */
export function tiedTimePairs(
  rows: readonly ScoredResult[],
  a: string,
  b: string,
  time: (r: ScoredResult) => number = (r) => r.wallMs,
): Array<[number, number]> {
  const ofB = new Map<number, ScoredResult>();
  for (const r of rows) if (r.bot === b && r.verdict === 'solved') ofB.set(r.scrambleId, r);
  const out: Array<[number, number]> = [];
  for (const r of rows) {
    if (r.bot !== a || r.verdict !== 'solved') continue;
    const other = ofB.get(r.scrambleId);
    if (other && other.moveCount === r.moveCount) out.push([time(r), time(other)]);
  }
  return out;
}

/**
 * The k-th smallest (1-based) Walsh average of sorted `d`, without listing all n(n+1)/2 of them: bisect on the
 * value with an O(n) count of the sums dᵢ + dⱼ ≤ 2v (two pointers over the sorted data), then read the largest
 * sum at or below the final upper end. Sums are compared doubled so every comparison is of the same rounded
 * numbers.
 */
function walshOrderStatistic(d: Float64Array, k: number): number {
  const n = d.length;
  let lo = 2 * d[0]; // the smallest sum: count ≥ 1
  let hi = 2 * d[n - 1]; // the largest: count = all
  if (countAtMost(d, lo) >= k) return lo / 2;
  // Invariant: count(lo) < k ≤ count(hi). Halve until no double lies between them.
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (countAtMost(d, mid) >= k) hi = mid;
    else lo = mid;
  }
  // The k-th sum is the largest sum ≤ hi.
  let best = -Infinity;
  for (let i = 0, j = n - 1; i < n; i++) {
    while (j >= i && d[i] + d[j] > hi) j--;
    if (j < i) break;
    best = Math.max(best, d[i] + d[j]);
  }
  return best / 2;
}

/** Number of pairs i ≤ j with d[i] + d[j] ≤ s, for sorted d. */
function countAtMost(d: Float64Array, s: number): number {
  let count = 0;
  for (let i = 0, j = d.length - 1; i < d.length; i++) {
    while (j >= i && d[i] + d[j] > s) j--;
    if (j < i) break;
    count += j - i + 1;
  }
  return count;
}

/**
 * The largest c with P(T⁺ ≤ c − 1) ≤ tail under the null distribution of the signed-rank statistic of n pairs
 * (each rank counted with a fair sign): then [W₍c₎, W₍M+1−c₎] covers with probability ≥ 1 − 2·tail. The
 * distribution is built by adding one rank at a time, as probabilities (halved each step) so it never overflows;
 * they are exact dyadic fractions up to 53 ranks, and the comparison allows for rounding beyond.
 */
export function exactSignedRankCutoff(n: number, tail: number): number {
  const m = (n * (n + 1)) / 2;
  const dist = new Float64Array(m + 1);
  dist[0] = 1;
  let top = 0;
  for (let r = 1; r <= n; r++) {
    top += r;
    // In place, from the top down, so dist[s − r] is still the previous step's value when it is read.
    for (let s = top; s >= 0; s--) dist[s] = (dist[s] + (s >= r ? dist[s - r] : 0)) / 2;
  }
  let cumulative = 0;
  let c = 0;
  // P(T⁺ ≤ c) accumulates until it passes the tail; c + 1 is then the last value that kept it within.
  for (let s = 0; s <= m; s++) {
    cumulative += dist[s];
    if (cumulative > tail * (1 + 1e-12)) break;
    c = s + 1;
  }
  return c;
}

/** The normal-limit version of {@link exactSignedRankCutoff}, with a continuity correction, for many pairs. */
export function normalSignedRankCutoff(n: number, tail: number): number {
  const m = (n * (n + 1)) / 2;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  return Math.floor(m / 2 + 0.5 + normalQuantile(tail) * sd);
}
