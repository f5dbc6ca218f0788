/**
 * Statistics of a match: for a pair of bots W-D-L, score, Elo and normalized Elo with exact intervals, LOS and
 * the sign test, all agreeing; per-bot summaries of results. Pure math, no I/O.
 */
import type { Bound } from '../core/types.ts';
import { VERDICTS } from '../core/verdict.ts';
import type { Verdict } from '../core/verdict.ts';
import { compareResults } from './outcome.ts';
import { scoreQuantile } from './score-distribution.ts';
import { binomialTails } from './binomial.ts';
import { likelihoodOfSuperiority, signTestP } from './sign-test.ts';
import { NELO_PER_T } from './elo-scale.ts';
import type { Contender, Outcome, TieBreak } from './outcome.ts';

export { NELO_PER_T, Z_95 } from './elo-scale.ts';

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

/**
 * What a pair's match says about the first bot against the second. Every number comes from one model (each
 * scramble an independent win, draw or loss) and they agree: the interval excludes an even score exactly when
 * `pValue` < 1 − level, and then `los` is beyond level + (1 − level)/2 on the same side.
 */
export interface PairStats extends Wdl {
  readonly games: number;
  /** Confidence level of the intervals (0.95 unless asked otherwise). */
  readonly level: number;
  /** (W + D/2) / N; null when N = 0 (so are all the estimates below). */
  readonly score: number | null;
  /** Ends of the exact confidence interval on the expected score (see {@link scoreInterval}). */
  readonly scoreLow: number | null;
  readonly scoreHigh: number | null;
  /** Logistic Elo difference of the score; ±Infinity for a score of 1 or 0. Never NaN. */
  readonly elo: number | null;
  /** The score interval's ends on the Elo scale (possibly ±Infinity). */
  readonly eloLow: number | null;
  readonly eloHigh: number | null;
  /** Half the interval width, as cutechess-cli prints it ("± x"); Infinity when an end is infinite. */
  readonly eloError: number | null;
  /**
   * Normalized Elo (fishtest, fastchess): (score − 1/2) / σ · 800/ln 10, σ the per-game standard deviation of
   * the score; its interval is the score interval scaled the same way. Null when σ = 0 (every game the same
   * result), where the scale does not exist.
   */
  readonly nElo: number | null;
  readonly nEloLow: number | null;
  readonly nEloHigh: number | null;
  /** Likelihood of superiority, P(pW > pL) under a uniform prior; null when N = 0. */
  readonly los: number | null;
  /** Two-sided exact sign-test p-value of W against L, draws ignored; 1 when W + L = 0. */
  readonly pValue: number;
  /** pValue < 1 − level, which is the same as the interval excluding an even score. */
  readonly significant: boolean;
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
 * Exact confidence interval on the expected score of a W-D-L record at `level`.
 *
 * Each end is a quantile of the score under a Dirichlet distribution, the trinomial form of the Clopper–Pearson
 * interval: the lower end is the (1 − level)/2 quantile under Dirichlet(W, D, L + 1), the upper end the
 * matching upper quantile under Dirichlet(W + 1, D, L). With no draws this is exactly Clopper–Pearson on the
 * win share. Its coverage was checked by exact enumeration (at least the nominal level; see the tests), and at
 * an even score it is the exact sign test: P(s ≤ 1/2) under Dirichlet(W, D, L + 1) is P(Beta(W, L + 1) ≤ 1/2)
 * = P(Binomial(W + L, 1/2) ≥ W), the sign test's upper tail. So the lower end is above 1/2 exactly when that
 * tail is below (1 − level)/2, and symmetrically for the upper end: the interval and the p-value cannot
 * disagree, whatever the sample size. That equivalence is built in (the quantile search is anchored at 1/2 with
 * the exact tail), not left to the rounding of a numerical integral.
 */
export function scoreInterval(wdl: Wdl, level = 0.95): [number, number] {
  const { wins, draws, losses } = wdl;
  if (!(level > 0 && level < 1)) throw new RangeError(`scoreInterval: level ${level} is not in (0, 1)`);
  checkCounts(wdl);
  if (wins + draws + losses === 0) return [0, 1];
  const tail = (1 - level) / 2;
  const low = lowerEnd(wins, draws, losses, tail);
  // The upper end is the lower end of the same record seen from the other side: s ↦ 1 − s swaps W and L.
  const high = 1 - lowerEnd(losses, draws, wins, tail);
  return [low, high];
}

/** The `tail` quantile of the score under Dirichlet(W, D, L + 1), anchored at 1/2 by the exact sign-test tail. */
function lowerEnd(wins: number, draws: number, losses: number, tail: number): number {
  const atHalf = binomialTails(wins, wins + losses, 0.5).atLeast;
  return scoreQuantile(tail, { a: wins, b: draws, c: losses + 1 }, { x: 0.5, cdf: atHalf });
}

function checkCounts({ wins, draws, losses }: Wdl): void {
  for (const c of [wins, draws, losses]) {
    if (!Number.isInteger(c) || c < 0) throw new RangeError(`bad W-D-L count ${c}: counts are non-negative integers`);
  }
}

/**
 * Score, Elo and normalized Elo with their exact intervals, LOS and the sign-test p-value of a W-D-L record,
 * all from the trinomial model (see {@link PairStats} for how they agree).
 */
export function pairStats(wdl: Wdl, level = 0.95): PairStats {
  checkCounts(wdl);
  const { wins, draws, losses } = wdl;
  const games = wins + draws + losses;
  const pValue = signTestP(wins, losses);
  const significant = pValue < 1 - level;
  if (games === 0) {
    return {
      wins, draws, losses, games, level, score: null, scoreLow: null, scoreHigh: null, elo: null, eloLow: null, eloHigh: null,
      eloError: null, nElo: null, nEloLow: null, nEloHigh: null, los: null, pValue, significant,
    };
  }
  const score = (wins + draws / 2) / games;
  const [scoreLow, scoreHigh] = scoreInterval(wdl, level);
  const eloLow = eloFromScore(scoreLow);
  const eloHigh = eloFromScore(scoreHigh);
  // An infinite end gives an infinite half-width (Infinity − x), never Infinity − Infinity = NaN: with both
  // ends equal the width is 0 by definition.
  const eloError = eloLow === eloHigh ? 0 : (eloHigh - eloLow) / 2;
  const sigma = Math.sqrt((wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games);
  const nelo = (s: number): number | null => (sigma > 0 ? ((s - 0.5) / sigma) * NELO_PER_T : null);
  return {
    wins, draws, losses, games, level, score, scoreLow, scoreHigh,
    elo: eloFromScore(score), eloLow, eloHigh, eloError,
    nElo: nelo(score), nEloLow: nelo(scoreLow), nEloHigh: nelo(scoreHigh),
    los: likelihoodOfSuperiority(wins, losses), pValue, significant,
  };
}

/**
 * The same statistics from the second bot's point of view: W and L swapped, every estimate and interval
 * mirrored. Identical to `pairStats` of the swapped record (the interval is built symmetrically), without
 * computing it again.
 */
export function reversePairStats(s: PairStats): PairStats {
  const neg = (x: number | null): number | null => (x === null ? null : -x);
  const flip = (x: number | null): number | null => (x === null ? null : 1 - x);
  return {
    ...s,
    wins: s.losses,
    losses: s.wins,
    score: flip(s.score),
    scoreLow: flip(s.scoreHigh),
    scoreHigh: flip(s.scoreLow),
    elo: neg(s.elo),
    eloLow: neg(s.eloHigh),
    eloHigh: neg(s.eloLow),
    nElo: neg(s.nElo),
    nEloLow: neg(s.nEloHigh),
    nEloHigh: neg(s.nEloLow),
    los: flip(s.los),
  };
}

/** Head-to-head statistics of a list of per-scramble outcomes. */
export function matchStats(outcomes: readonly Outcome[], level = 0.95): PairStats {
  return pairStats(tally(outcomes), level);
}

// ---- from stored results ----

/** The fields of a stored result the statistics read (a ResultRow fits). */
export interface ScoredResult extends Contender {
  readonly scrambleId: number;
  readonly cpuMs?: number;
  readonly bot: string;
  readonly bound?: Bound;
}

/**
 * Outcomes of bot `a` against bot `b` on every scramble both answered, in the order of `rows`. `tie` is the
 * match's rule for equal moves (see {@link compareResults}).
 */
export function headToHead(rows: readonly ScoredResult[], a: string, b: string, tie: TieBreak = {}): Outcome[] {
  const ofB = new Map<number, ScoredResult>();
  for (const r of rows) if (r.bot === b) ofB.set(r.scrambleId, r);
  const out: Outcome[] = [];
  for (const r of rows) {
    if (r.bot !== a) continue;
    const other = ofB.get(r.scrambleId);
    if (other) out.push(compareResults(r, other, tie));
  }
  return out;
}

/**
 * W-D-L for every pair of bots that met on at least one scramble, each pair once with `a` < `b` (code-unit
 * order), sorted by (a, b). This is the input of the Bradley–Terry fit.
 */
export function pairTallies(rows: readonly ScoredResult[], tie: TieBreak = {}): PairTally[] {
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
        const o = compareResults(x, y, tie);
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
  /**
   * Median and total CPU time of the bot's processes over the results where it was measured (see
   * ResultRecord.cpuMs); null when it was measured on none (a remote bot, no /proc).
   */
  readonly medianCpuMs: number | null;
  readonly totalCpuMs: number | null;
}

/** Summarises one bot's results. */
export function summarizeBot(results: ReadonlyArray<Contender & { readonly bound?: Bound; readonly cpuMs?: number }>): BotSummary {
  const verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  let moveSum = 0;
  let gapSum = 0;
  let gapCount = 0;
  let optimalSolves = 0;
  let totalWallMs = 0;
  const walls: number[] = [];
  const cpus: number[] = [];
  for (const r of results) {
    verdicts[r.verdict]++;
    totalWallMs += r.wallMs;
    walls.push(r.wallMs);
    if (r.cpuMs !== undefined) cpus.push(r.cpuMs);
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
    medianCpuMs: median(cpus),
    totalCpuMs: cpus.length > 0 ? cpus.reduce((t, c) => t + c, 0) : null,
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
