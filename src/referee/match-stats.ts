/**
 * Statistics of a match: W-D-L, score, Elo difference with a 95% interval and a sign test for a pair of
 * bots, and per-bot summaries of results. Pure math, no I/O.
 */
import type { Bound } from '../core/types.ts';
import { VERDICTS } from '../core/verdict.ts';
import type { Verdict } from '../core/verdict.ts';
import { compareResults } from './outcome.ts';
import type { Contender, Outcome } from './outcome.ts';

/** Two-sided 95% standard normal quantile, Φ⁻¹(0.975). */
export const Z_95 = 1.959963984540054;

/** Wins, draws and losses of one bot against another. */
export interface Wdl {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/** W-D-L of bot `a` against bot `b` (a's wins are b's losses). */
export interface PairTally extends Wdl {
  readonly a: string;
  readonly b: string;
}

/** What a pair's match says about the first bot against the second. */
export interface PairStats extends Wdl {
  readonly games: number;
  /** (W + D/2) / N; null when N = 0. */
  readonly score: number | null;
  /** Elo difference; ±Infinity for a score of 1 or 0, null when N = 0. Never NaN. */
  readonly elo: number | null;
  /** Ends of the confidence interval on the Elo difference (possibly ±Infinity); null when N = 0. */
  readonly eloLow: number | null;
  readonly eloHigh: number | null;
  /** Half the interval width, as cutechess-cli prints it ("± x"); Infinity when an end is infinite. */
  readonly eloError: number | null;
  /** Two-sided sign-test p-value of W against L, draws ignored; 1 when W + L = 0. */
  readonly pValue: number;
}

/** Counts a list of outcomes (from the first bot's point of view). */
export function tally(outcomes: readonly Outcome[]): Wdl {
  let wins = 0;
  let draws = 0;
  let losses = 0;
  for (const o of outcomes) {
    if (o === 1) wins++;
    else if (o === 0) draws++;
    else losses++;
  }
  return { wins, draws, losses };
}

/** Elo difference for an expected score: −400·log10(1/score − 1); +Infinity at 1, −Infinity at 0. */
export function eloFromScore(score: number): number {
  if (!(score >= 0 && score <= 1)) throw new RangeError(`eloFromScore: score ${score} is not in [0, 1]`);
  if (score === 1) return Infinity;
  if (score === 0) return -Infinity;
  // `400 * log10(score / (1 − score))`, written so an even score gives +0 rather than −0.
  return 400 * Math.log10(score / (1 - score));
}

/**
 * Score, Elo difference and its interval for a W-D-L record, as cutechess-cli and fastchess compute it for
 * independent games: the per-game score variance gives a normal interval on the mean score, clamped to
 * [0, 1], whose ends are mapped through the logistic to Elo. `z` sets the confidence (default 95%).
 */
export function pairStats(wdl: Wdl, z: number = Z_95): PairStats {
  const { wins, draws, losses } = wdl;
  const games = wins + draws + losses;
  const pValue = signTestP(wins, losses);
  if (games === 0) {
    return { wins, draws, losses, games, score: null, elo: null, eloLow: null, eloHigh: null, eloError: null, pValue };
  }
  const w = wins / games;
  const d = draws / games;
  const l = losses / games;
  const score = w + d / 2;
  const perGameVariance = w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2;
  const stdev = Math.sqrt(perGameVariance / games);
  // With every game the same result the sample variance is 0 and the normal interval collapses to a point,
  // claiming certainty after 3 games. The Wilson interval stays honest there: 10-0 gives (0.72, 1], not {1}.
  const [lowScore, highScore] =
    perGameVariance === 0 ? wilson(score, games, z) : [clamp01(score - z * stdev), clamp01(score + z * stdev)];
  const eloLow = eloFromScore(lowScore);
  const eloHigh = eloFromScore(highScore);
  // An infinite end gives an infinite half-width (Infinity − x), never Infinity − Infinity = NaN: with both
  // ends equal (score 0 or 1, zero variance) the width is 0 by definition.
  const eloError = eloLow === eloHigh ? 0 : (eloHigh - eloLow) / 2;
  return { wins, draws, losses, games, score, elo: eloFromScore(score), eloLow, eloHigh, eloError, pValue };
}

/** Wilson score interval for a proportion `p` observed over `n` trials. */
function wilson(p: number, n: number, z: number): [number, number] {
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Exact ends where the maths has them, so rounding never turns a 0-7 record's Elo end finite.
  return [p === 0 ? 0 : clamp01(centre - half), p === 1 ? 1 : clamp01(centre + half)];
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/**
 * Two-sided exact sign test: the probability, under "each decisive game is a fair coin", of a split at least
 * as lopsided as `wins` vs `losses`. Computed in log space, summing the binomial tail from its largest term
 * down, so it neither overflows nor loses the small tail for large N (O(min(W, L)) time).
 */
export function signTestP(wins: number, losses: number): number {
  if (!Number.isInteger(wins) || !Number.isInteger(losses) || wins < 0 || losses < 0) {
    throw new RangeError(`signTestP: counts must be non-negative integers (got ${wins}, ${losses})`);
  }
  const n = wins + losses;
  if (n === 0) return 1;
  const k = Math.min(wins, losses);
  // log C(n, k) = Σ_{j=1..k} log((n − k + j) / j)
  let logC = 0;
  for (let j = 1; j <= k; j++) logC += Math.log((n - k + j) / j);
  let term = Math.exp(logC - n * Math.LN2);
  let sum = term;
  // P(X = i − 1) = P(X = i) · i / (n − i + 1): each step down the tail shrinks the term.
  for (let i = k; i >= 1 && term > sum * 1e-17; i--) {
    term *= i / (n - i + 1);
    sum += term;
  }
  return Math.min(1, 2 * sum);
}

/** Head-to-head statistics of a list of per-scramble outcomes. */
export function matchStats(outcomes: readonly Outcome[], z: number = Z_95): PairStats {
  return pairStats(tally(outcomes), z);
}

// ---- from stored results ----

/** The fields of a stored result the statistics read (a ResultRow fits). */
export interface ScoredResult extends Contender {
  readonly scrambleId: number;
  readonly bot: string;
  readonly bound?: Bound;
}

/**
 * Outcomes of bot `a` against bot `b` on every scramble both answered, in the order of `rows`. `marginMs`
 * overrides the default time margin of {@link compareResults}.
 */
export function headToHead(rows: readonly ScoredResult[], a: string, b: string, marginMs?: number): Outcome[] {
  const ofB = new Map<number, ScoredResult>();
  for (const r of rows) if (r.bot === b) ofB.set(r.scrambleId, r);
  const out: Outcome[] = [];
  for (const r of rows) {
    if (r.bot !== a) continue;
    const other = ofB.get(r.scrambleId);
    if (other) out.push(compareResults(r, other, marginMs));
  }
  return out;
}

/**
 * W-D-L for every pair of bots that met on at least one scramble, each pair once with `a` < `b` (code-unit
 * order), sorted by (a, b). This is the input of the Bradley–Terry fit.
 */
export function pairTallies(rows: readonly ScoredResult[], marginMs?: number): PairTally[] {
  const byScramble = new Map<number, ScoredResult[]>();
  for (const r of rows) {
    const list = byScramble.get(r.scrambleId);
    if (list) list.push(r);
    else byScramble.set(r.scrambleId, [r]);
  }
  const counts = new Map<string, { a: string; b: string; wins: number; draws: number; losses: number }>();
  for (const list of byScramble.values()) {
    const sorted = [...list].sort((x, y) => compareText(x.bot, y.bot));
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const x = sorted[i];
        const y = sorted[j];
        if (x.bot === y.bot) continue;
        const key = `${x.bot}\u0000${y.bot}`;
        let c = counts.get(key);
        if (!c) counts.set(key, (c = { a: x.bot, b: y.bot, wins: 0, draws: 0, losses: 0 }));
        const o = compareResults(x, y, marginMs);
        if (o === 1) c.wins++;
        else if (o === 0) c.draws++;
        else c.losses++;
      }
    }
  }
  return [...counts.values()].sort((p, q) => compareText(p.a, q.a) || compareText(p.b, q.b));
}

/** One bot's results summarised. */
export interface BotSummary {
  readonly results: number;
  readonly verdicts: Readonly<Record<Verdict, number>>;
  readonly solved: number;
  /** Mean move count over solved results; null when none solved. */
  readonly meanMoves: number | null;
  /** Mean of (moves − optimum, or the lower bound when the optimum is unknown) over solved results with a bound. */
  readonly meanGap: number | null;
  /** Solved results whose optimum is known and was matched. */
  readonly optimalSolves: number;
  /** Median wall time over all results (a timeout counts with its own time); null when there are none. */
  readonly medianWallMs: number | null;
  readonly totalWallMs: number;
}

/** Summarises one bot's results. */
export function summarizeBot(results: ReadonlyArray<Contender & { readonly bound?: Bound }>): BotSummary {
  const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  let moveSum = 0;
  let gapSum = 0;
  let gapCount = 0;
  let optimalSolves = 0;
  let totalWallMs = 0;
  const walls: number[] = [];
  for (const r of results) {
    verdicts[r.verdict]++;
    totalWallMs += r.wallMs;
    walls.push(r.wallMs);
    if (r.verdict !== 'solved') continue;
    moveSum += r.moveCount;
    if (r.bound) {
      gapSum += r.moveCount - (r.bound.optimal ?? r.bound.lowerBound);
      gapCount++;
      if (r.bound.optimal !== undefined && r.moveCount === r.bound.optimal) optimalSolves++;
    }
  }
  const solved = verdicts.solved;
  return {
    results: results.length,
    verdicts,
    solved,
    meanMoves: solved > 0 ? moveSum / solved : null,
    meanGap: gapCount > 0 ? gapSum / gapCount : null,
    optimalSolves,
    medianWallMs: median(walls),
    totalWallMs,
  };
}

/** Summaries per bot, in bot-name order. */
export function summarizeBots(rows: readonly ScoredResult[]): Map<string, BotSummary> {
  const byBot = new Map<string, ScoredResult[]>();
  for (const r of rows) {
    const list = byBot.get(r.bot);
    if (list) list.push(r);
    else byBot.set(r.bot, [r]);
  }
  const names = [...byBot.keys()].sort(compareText);
  return new Map(names.map((name) => [name, summarizeBot(byBot.get(name)!)]));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
