/**
 * The generalized sequential probability ratio test of fishtest and fastchess on a trinomial W/D/L record:
 * H0 "the difference is elo0" against H1 "it is elo1", in logistic Elo or (the default, since optimal solvers
 * draw often) normalized Elo. Pure math: the match runner asks after every recorded scramble.
 *
 * The statistic is the generalized log-likelihood ratio LLR = ℓ(q₁) − ℓ(q₀), where ℓ(q) = W ln q_W + D ln q_D +
 * L ln q_L and q_h maximizes ℓ among the W/D/L laws that satisfy hypothesis h: expected score
 * s_h = 1/(1 + 10^(−elo_h/400)) (logistic), or t-value (E[x] − 1/2)/σ = t_h = nelo_h · ln 10/800 (normalized).
 * Writing u = q_W + q_L (the decisive share) and δ = q_W − q_L, the constraint fixes δ given u: δ = 2s_h − 1
 * (logistic) or δ = c·√u with c = t_h/√(1 + t_h²) (normalized, since σ² = (u − δ²)/4 for a W/D/L law). So each
 * maximization is over one variable, of a concave function: a safeguarded Newton iteration finds it. The test
 * accepts H1 at LLR ≥ ln((1 − β)/α) and H0 at LLR ≤ ln(β/(1 − α)) (Wald's bounds).
 */
import { reject, ok, type Result } from '../core/types.ts';
import { NELO_PER_T } from './elo-scale.ts';
import type { Wdl } from './match-stats.ts';

/** The Elo scale of the hypotheses. */
export type EloModel = 'normalized' | 'logistic';

/** An SPRT's design: hypotheses, error rates and scale. */
export interface SprtParams {
  readonly elo0: number;
  readonly elo1: number;
  /** Probability of accepting H1 when H0 holds. */
  readonly alpha: number;
  /** Probability of accepting H0 when H1 holds. */
  readonly beta: number;
  readonly model: EloModel;
}

/** Where a test stands after some games. */
export interface SprtState {
  readonly llr: number;
  readonly lower: number;
  readonly upper: number;
  /** 'H1' once LLR ≥ upper, 'H0' once LLR ≤ lower, else null (keep playing). */
  readonly decision: 'H0' | 'H1' | null;
}

/** Largest |Elo| a hypothesis may name: beyond it the score is 1 to double precision. */
const MAX_ELO = 1000;

/** Checks a design; a rejection names the bad field. */
export function validateSprt(p: SprtParams): Result<SprtParams> {
  for (const [name, v] of [['elo0', p.elo0], ['elo1', p.elo1]] as const) {
    if (!Number.isFinite(v) || Math.abs(v) > MAX_ELO) return reject('sprt', `${name} must be a number between −${MAX_ELO} and ${MAX_ELO} (got ${v})`);
  }
  if (!(p.elo0 < p.elo1)) return reject('sprt', `elo0 must be below elo1 (got elo0=${p.elo0}, elo1=${p.elo1})`);
  for (const [name, v] of [['alpha', p.alpha], ['beta', p.beta]] as const) {
    if (!(v > 0 && v < 1)) return reject('sprt', `${name} must be between 0 and 1, exclusive (got ${v})`);
  }
  if (!(p.alpha + p.beta < 1)) return reject('sprt', `alpha + beta must be below 1 (got ${p.alpha + p.beta})`);
  if (p.model !== 'normalized' && p.model !== 'logistic') return reject('sprt', `model must be normalized or logistic (got ${String(p.model)})`);
  return ok(p);
}

/**
 * Parses `elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=normalized|logistic]` (the order is free; alpha and
 * beta default to 0.05, model to normalized).
 */
export function parseSprt(text: string): Result<SprtParams> {
  const fields = new Map<string, string>();
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return reject('sprt', `expected key=value, got "${item}" (e.g. elo0=0,elo1=5)`);
    const key = item.slice(0, eq).trim();
    if (!['elo0', 'elo1', 'alpha', 'beta', 'model'].includes(key)) {
      return reject('sprt', `unknown key "${key}" (known: elo0, elo1, alpha, beta, model)`);
    }
    if (fields.has(key)) return reject('sprt', `"${key}" is given twice`);
    fields.set(key, item.slice(eq + 1).trim());
  }
  for (const key of ['elo0', 'elo1']) if (!fields.has(key)) return reject('sprt', `missing ${key} (e.g. elo0=0,elo1=5)`);
  const num = (key: string, fallback: number): number => {
    const v = fields.get(key);
    return v === undefined ? fallback : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(v) ? Number(v) : NaN;
  };
  const model = fields.get('model') ?? 'normalized';
  return validateSprt({
    elo0: num('elo0', NaN),
    elo1: num('elo1', NaN),
    alpha: num('alpha', 0.05),
    beta: num('beta', 0.05),
    model: model as EloModel,
  });
}

/** Wald's bounds for the error rates. */
export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** The generalized log-likelihood ratio of H1 against H0 for a W/D/L record (0 for no games). */
export function sprtLlr(wdl: Wdl, p: SprtParams): number {
  if (wdl.wins + wdl.draws + wdl.losses === 0) return 0;
  return maxLogLikelihood(wdl, p.elo1, p.model) - maxLogLikelihood(wdl, p.elo0, p.model);
}

/** LLR, bounds and the decision, if any. */
export function sprtState(wdl: Wdl, p: SprtParams): SprtState {
  const llr = sprtLlr(wdl, p);
  const { lower, upper } = sprtBounds(p.alpha, p.beta);
  return { llr, lower, upper, decision: llr >= upper ? 'H1' : llr <= lower ? 'H0' : null };
}

/** Logistic Elo to expected score. */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** max ℓ(q) over the W/D/L laws q of the hypothesis "the difference is `elo`" on the model's scale. */
function maxLogLikelihood(wdl: Wdl, elo: number, model: EloModel): number {
  const { wins, draws, losses } = wdl;
  if (model === 'logistic') {
    // ℓ(u) = W ln(u + δ) + L ln(u − δ) + D ln(1 − u) − (W + L) ln 2, concave on [|δ|, 1].
    const d = 2 * scoreFromElo(elo) - 1;
    const u = concaveArgmax(
      Math.abs(d),
      1,
      (x) => ratio(wins, x + d) + ratio(losses, x - d) - ratio(draws, 1 - x),
      (x) => -ratio(wins, (x + d) ** 2) - ratio(losses, (x - d) ** 2) - ratio(draws, (1 - x) ** 2),
      wdl,
    );
    return xlog(wins, (u + d) / 2) + xlog(draws, 1 - u) + xlog(losses, (u - d) / 2);
  }
  // With v = √u and c = t/√(1 + t²): q_W = v(v + c)/2, q_L = v(v − c)/2, q_D = 1 − v², and
  // ℓ(v) = (W + L) ln v + W ln(v + c) + L ln(v − c) + D ln(1 − v²) − (W + L) ln 2, concave on [|c|, 1].
  const t = elo / NELO_PER_T;
  const c = t / Math.sqrt(1 + t * t);
  const v = concaveArgmax(
    Math.abs(c),
    1,
    (x) => ratio(wins + losses, x) + ratio(wins, x + c) + ratio(losses, x - c) - ratio(2 * draws * x, 1 - x * x),
    (x) =>
      -ratio(wins + losses, x * x) - ratio(wins, (x + c) ** 2) - ratio(losses, (x - c) ** 2) - ratio(2 * draws * (1 + x * x), (1 - x * x) ** 2),
    wdl,
  );
  return xlog(wins, (v * (v + c)) / 2) + xlog(draws, 1 - v * v) + xlog(losses, (v * (v - c)) / 2);
}

/**
 * The maximizer on [lo, hi] of a concave function given its first and second derivatives: Newton's method kept
 * inside a bracket that shrinks around the sign change of the derivative (bisection when a step leaves it).
 * With no draws the maximum is at hi (ℓ only grows with the decisive share); with only draws, at lo.
 */
function concaveArgmax(lo: number, hi: number, d1: (x: number) => number, d2: (x: number) => number, wdl: Wdl): number {
  if (wdl.draws === 0) return hi;
  if (wdl.wins + wdl.losses === 0) return lo;
  let x = (lo + hi) / 2;
  for (let i = 0; i < 100; i++) {
    const g = d1(x);
    const step = -g / d2(x);
    // Converged: the Newton step is below the resolution of x (at the root itself it is 0).
    if (!(Math.abs(step) > 1e-15)) return x;
    if (g > 0) lo = x;
    else hi = x;
    let next = x + step;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (hi - lo <= 1e-15) return next;
    x = next;
  }
  return x;
}

/** count / denominator, with a zero count contributing 0 even where the denominator is 0. */
function ratio(count: number, denominator: number): number {
  return count === 0 ? 0 : count / denominator;
}

/** count · ln p with 0 · ln 0 = 0. */
function xlog(count: number, p: number): number {
  return count === 0 ? 0 : count * Math.log(Math.max(p, Number.MIN_VALUE));
}
