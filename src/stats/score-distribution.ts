/**
 * The mean score s = pW + pD/2 of a win/draw/loss distribution (pW, pD, pL) drawn from a Dirichlet(a, b, c):
 * its distribution function and quantiles. The exact interval on a head-to-head score is built from these
 * (see `scoreInterval` in match-stats.ts). Pure and deterministic.
 *
 * How: write T = pW + pL (the decisive share) and U = pW / T. Then T ~ Beta(a + c, b) and U ~ Beta(a, c) are
 * independent, and s = (1 + T·(2U − 1)) / 2, so
 *   P(s ≤ x) = P(T·(2U − 1) ≤ y), y = 2x − 1,
 *            = P(T ≤ y) [y ≥ 0; there 2U − 1 ≤ 1 settles it]  +  ∫_{|y|}^1 f_T(t) · I_{(1 + y/t)/2}(a, c) dt,
 * a one-dimensional integral of a Beta density times a regularized incomplete Beta function.
 */
import { betaLogDensity, incompleteBetaInt } from './binomial.ts';
import { normalQuantile } from './normal.ts';
import { increasingRoot, integrate } from './numeric.ts';

/**
 * Dirichlet parameters of (pW, pD, pL): non-negative integers (counts, possibly plus one), which make every
 * Beta function here a binomial sum; a parameter of 0 means that outcome has probability 0.
 */
export interface DirichletWdl {
  readonly a: number;
  readonly b: number;
  readonly c: number;
}

function checkParams({ a, b, c }: DirichletWdl): void {
  if (![a, b, c].every((v) => Number.isInteger(v) && v >= 0) || a + b + c === 0) {
    throw new RangeError(`score distribution: bad Dirichlet parameters (${a}, ${b}, ${c})`);
  }
}

const ibeta = incompleteBetaInt;

/** Panel edges of the integral over T, in standard deviations from its mean. */
const PANEL_EDGES = [-20, -10, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 10, 20];

/** P(s ≤ x) for (pW, pD, pL) ~ Dirichlet(a, b, c). */
export function scoreCdf(x: number, params: DirichletWdl): number {
  checkParams(params);
  const { a, b, c } = params;
  if (x < 0) return 0;
  if (x >= 1) return 1;
  const y = 2 * x - 1;
  // Degenerate cases, where one or two outcomes have probability 0 and s is a plain Beta variable (or constant).
  if (b === 0) return a === 0 ? 1 : c === 0 ? 0 : ibeta((1 + y) / 2, a, c);
  if (a === 0) return c === 0 ? (y >= 0 ? 1 : 0) : 1 - ibeta(-y, c, b); // s = (1 − pL)/2, pL ~ Beta(c, b)
  if (c === 0) return ibeta(y, a, b); // s = (1 + pW)/2, pW ~ Beta(a, b)

  const p = a + c;
  const logDensity = betaLogDensity(p, b);
  const integrand = (t: number): number => {
    if (t <= 0 || t >= 1) return 0;
    const f = Math.exp(logDensity(t));
    return f === 0 ? 0 : f * ibeta((1 + y / t) / 2, a, c);
  };
  const from = Math.abs(y);
  const head = y > 0 ? ibeta(y, p, b) : 0;
  // Integrate only where T has mass: its density is negligible 40 standard deviations from the mean (below
  // 1e-18 even in the exponential tail of a Beta(1, n)). Panels narrow near the mean and widen outwards, so
  // the adaptive rule starts close to converged however peaked the density is.
  const n = p + b;
  const mean = p / n;
  const sd = Math.sqrt((mean * (1 - mean)) / (n + 1));
  const lo = Math.max(from, mean - 40 * sd);
  const hi = Math.min(1, mean + 40 * sd);
  const breaks = PANEL_EDGES.map((k) => mean + k * sd);
  const body = hi > lo ? integrate(integrand, lo, hi, 1e-13, breaks) : 0;
  return Math.min(1, Math.max(0, head + body));
}

/**
 * The q-quantile of s: the smallest x with P(s ≤ x) ≥ q (0 < q < 1). `known`, if given, is a point whose
 * distribution function value the caller has computed exactly (`known.cdf`); the answer is then guaranteed to be
 * on the right side of it (above it when known.cdf < q), whatever the rounding in the numerical integral.
 */
export function scoreQuantile(q: number, params: DirichletWdl, known?: { readonly x: number; readonly cdf: number }): number {
  if (!(q > 0 && q < 1)) throw new RangeError(`scoreQuantile: q = ${q} is not in (0, 1)`);
  checkParams(params);
  const { a, b, c } = params;
  // Point masses: s is the constant 0, 1/2 or 1.
  if (b === 0 && a === 0) return 0;
  if (b === 0 && c === 0) return 1;
  if (a === 0 && c === 0) return 0.5;
  let lo = 0;
  let hi = 1;
  if (known) {
    if (known.cdf < q) lo = known.x;
    else hi = known.x;
  }
  const f = (x: number): number => scoreCdf(x, params) - q;
  // Narrow the bracket from the normal approximation first, stepping out by doubling strides: the root finder
  // then converges in a few steps instead of crawling across a distribution function that is flat at 0 or 1
  // almost everywhere when the counts are large.
  const n = a + b + c;
  const mean = (a + b / 2) / n;
  const sd = Math.sqrt(((a + b / 4) / n - mean * mean) / (n + 1));
  const x = Math.min(hi, Math.max(lo, mean + normalQuantile(q) * sd));
  if (x > lo && x < hi) {
    const below = f(x) < 0; // the quantile is above x
    if (below) lo = x;
    else hi = x;
    for (let stride = sd, at = x; ; stride *= 2) {
      const next = below ? at + stride : at - stride;
      if (below ? next >= hi : next <= lo) break;
      const stillBelow = f(next) < 0;
      if (stillBelow !== below) {
        if (below) hi = next;
        else lo = next;
        break;
      }
      if (below) lo = next;
      else hi = next;
      at = next;
    }
  }
  // The root finder needs f(lo) < 0 ≤ f(hi); at the ends of [0, 1] that holds for any non-degenerate law,
  // and at the known point it holds by the exact value, even if the integral there rounds the other way.
  const g = (x: number): number => (x === lo ? -1 : x === hi ? Math.max(0, f(x)) : f(x));
  const root = increasingRoot(g, lo, hi, 1e-13);
  // Above the quantile's level at the known point, the quantile lies strictly below it: keep it there even
  // when the search could not separate the two in double precision.
  if (known && known.cdf > q && root >= known.x) return nextBelow(known.x);
  return root;
}

/** The largest double below a positive x. */
function nextBelow(x: number): number {
  const below = x - x * Number.EPSILON;
  return below < x ? below : x - Number.MIN_VALUE;
}
