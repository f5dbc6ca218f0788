/**
 * Bradley–Terry ratings from head-to-head W-D-L records: P(i beats j) = 1 / (1 + e^(θj − θi)), a draw
 * counting half a win for each side. Fitted by Newton's method with a backtracking line search on the
 * log-posterior; reported on the Elo scale (400·log10), centred on mean 0, each with an approximate interval
 * from the inverse of the observed Fisher information. Pure and deterministic.
 */
import { Z_95 } from './elo-scale.ts';
import type { PairTally } from './match-stats.ts';

/** One bot's fitted rating. */
export interface BtRating {
  readonly name: string;
  /** Elo-scale rating; the mean over all bots is 0. */
  readonly rating: number;
  /** Approximate standard error of `rating`, Elo points. */
  readonly stderr: number;
  /** rating ∓ z·stderr (95% by default). */
  readonly low: number;
  readonly high: number;
  /** Real head-to-head games (scrambles against another bot), the prior's virtual games excluded. */
  readonly games: number;
}

/** The result of a fit. */
export interface BtFit {
  /** Best first; ties in name order. */
  readonly ratings: BtRating[];
  readonly iterations: number;
  /** False only if the iteration cap was hit (not expected: the objective is strictly concave). */
  readonly converged: boolean;
}

/** Options of {@link fitBradleyTerry}. */
export interface BtOptions {
  /** Bots to rate even without games (they get rating ≈ 0 and a wide interval). */
  readonly players?: readonly string[];
  /**
   * Virtual drawn games of each bot against a fixed reference of strength 0 (default 1). This weak prior keeps
   * an undefeated bot finite and makes the fit unique on a disconnected graph of games. Must be > 0.
   */
  readonly priorGames?: number;
  /** Normal quantile of the interval (default 95%). */
  readonly z?: number;
  readonly maxIterations?: number;
  /** Stop when no parameter moves more than this (natural-log units). */
  readonly tolerance?: number;
}

/** Elo points per natural-log unit of strength. */
const ELO_PER_NAT = 400 / Math.LN10;

/** Fits one rating per bot from all pairwise tallies (several tallies for the same pair add up). */
export function fitBradleyTerry(tallies: readonly PairTally[], options: BtOptions = {}): BtFit {
  const prior = options.priorGames ?? 1;
  const z = options.z ?? Z_95;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  if (!(prior > 0)) throw new RangeError(`fitBradleyTerry: priorGames must be > 0 (got ${prior})`);

  const names = collectNames(tallies, options.players ?? []);
  const n = names.length;
  const index = new Map(names.map((name, i) => [name, i]));
  // score[i][j]: points of i against j (wins + draws/2); games[i][j]: games between them. Dense: n is small.
  const score = matrix(n);
  const games = matrix(n);
  for (const t of tallies) {
    for (const c of [t.wins, t.draws, t.losses]) {
      if (!(c >= 0) || !Number.isFinite(c)) throw new RangeError(`fitBradleyTerry: bad count ${c} for ${t.a}–${t.b}`);
    }
    if (t.a === t.b) throw new RangeError(`fitBradleyTerry: a bot cannot play itself (${t.a})`);
    const i = index.get(t.a)!;
    const j = index.get(t.b)!;
    const total = t.wins + t.draws + t.losses;
    score[i][j] += t.wins + t.draws / 2;
    score[j][i] += t.losses + t.draws / 2;
    games[i][j] += total;
    games[j][i] += total;
  }

  const theta = new Float64Array(n);
  let iterations = 0;
  let converged = n === 0;
  while (!converged && iterations < maxIterations) {
    iterations++;
    const { gradient, information } = derivatives(theta, score, games, prior);
    const step = solveSpd(information, gradient);
    // Backtracking keeps every step an ascent: a full Newton step can overshoot far from the optimum.
    const before = logPosterior(theta, score, prior);
    let t = 1;
    let next = addScaled(theta, step, t);
    while (logPosterior(next, score, prior) < before - 1e-12 && t > 1e-6) {
      t /= 2;
      next = addScaled(theta, step, t);
    }
    let moved = 0;
    for (let i = 0; i < n; i++) moved = Math.max(moved, Math.abs(next[i] - theta[i]));
    theta.set(next);
    converged = moved < tolerance;
  }

  const { information } = derivatives(theta, score, games, prior);
  const covariance = invertSpd(information);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += theta[i] / n;
  // Variance of θi − mean(θ): the ratings are relative, so the uncertainty common to all bots cancels.
  let total = 0;
  const rowSums = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) rowSums[i] += covariance[i][j];
    total += rowSums[i];
  }
  const ratings = names.map((name, i): BtRating => {
    const variance = Math.max(0, covariance[i][i] - (2 / n) * rowSums[i] + total / (n * n));
    const rating = ELO_PER_NAT * (theta[i] - mean);
    const stderr = ELO_PER_NAT * Math.sqrt(variance);
    let played = 0;
    for (let j = 0; j < n; j++) played += games[i][j];
    return { name, rating, stderr, low: rating - z * stderr, high: rating + z * stderr, games: played };
  });
  ratings.sort((x, y) => y.rating - x.rating || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return { ratings, iterations, converged };
}

function collectNames(tallies: readonly PairTally[], players: readonly string[]): string[] {
  const set = new Set<string>(players);
  for (const t of tallies) {
    set.add(t.a);
    set.add(t.b);
  }
  // Sorted so the fit does not depend on input order.
  return [...set].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

function matrix(n: number): Float64Array[] {
  return Array.from({ length: n }, () => new Float64Array(n));
}

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** log σ(x), stable for large |x|. */
function logSigmoid(x: number): number {
  return x >= 0 ? -Math.log1p(Math.exp(-x)) : x - Math.log1p(Math.exp(x));
}

function logPosterior(theta: Float64Array, score: Float64Array[], prior: number): number {
  const n = theta.length;
  let ll = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) if (score[i][j] > 0) ll += score[i][j] * logSigmoid(theta[i] - theta[j]);
    // Virtual draws against the reference at 0: half a point each way.
    ll += (prior / 2) * (logSigmoid(theta[i]) + logSigmoid(-theta[i]));
  }
  return ll;
}

/** Gradient and negative Hessian (observed information) of the log-posterior. */
function derivatives(
  theta: Float64Array,
  score: Float64Array[],
  games: Float64Array[],
  prior: number,
): { gradient: Float64Array; information: Float64Array[] } {
  const n = theta.length;
  const gradient = new Float64Array(n);
  const information = matrix(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || games[i][j] === 0) continue;
      const p = sigmoid(theta[i] - theta[j]);
      gradient[i] += score[i][j] - games[i][j] * p;
      const w = games[i][j] * p * (1 - p);
      information[i][i] += w;
      information[i][j] -= w;
    }
    const q = sigmoid(theta[i]);
    gradient[i] += prior * (0.5 - q);
    information[i][i] += prior * q * (1 - q);
  }
  return { gradient, information };
}

function addScaled(x: Float64Array, d: Float64Array, t: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] + t * d[i];
  return out;
}

/** Lower-triangular Cholesky factor of a symmetric positive definite matrix. */
function cholesky(a: Float64Array[]): Float64Array[] {
  const n = a.length;
  const l = matrix(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i][j];
      for (let k = 0; k < j; k++) s -= l[i][k] * l[j][k];
      if (i === j) {
        // The prior makes the information strictly diagonally dominant, hence positive definite.
        if (!(s > 0)) throw new Error('bradley-terry: information matrix is not positive definite');
        l[i][i] = Math.sqrt(s);
      } else {
        l[i][j] = s / l[j][j];
      }
    }
  }
  return l;
}

function choleskySolve(l: Float64Array[], b: Float64Array): Float64Array {
  const n = l.length;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i][k] * y[k];
    y[i] = s / l[i][i];
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= l[k][i] * x[k];
    x[i] = s / l[i][i];
  }
  return x;
}

function solveSpd(a: Float64Array[], b: Float64Array): Float64Array {
  return choleskySolve(cholesky(a), b);
}

function invertSpd(a: Float64Array[]): Float64Array[] {
  const n = a.length;
  const l = cholesky(a);
  const inv = matrix(n);
  for (let c = 0; c < n; c++) {
    const e = new Float64Array(n);
    e[c] = 1;
    const col = choleskySolve(l, e);
    for (let r = 0; r < n; r++) inv[r][c] = col[r];
  }
  return inv;
}
