/**
 * Binomial tails and log-factorials, accurate for large n. The exact interval on a score needs millions of
 * incomplete Beta values with integer parameters; I_u(a, c) = P(Binomial(a + c − 1, u) ≥ a) makes each a short
 * sum. Pure math.
 */

/** P(X ≤ k) and P(X ≥ k) for a binomial X. */
export interface BinomialTails {
  readonly atMost: number;
  readonly atLeast: number;
}

// ln(n!) for n < TABLE by running sums (exact to rounding), Stirling's series beyond, where its first omitted
// term is below 1e-19.
const TABLE = 1024;
const LOG_FACTORIAL = new Float64Array(TABLE);
for (let i = 1; i < TABLE; i++) LOG_FACTORIAL[i] = LOG_FACTORIAL[i - 1] + Math.log(i);
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

/** ln(n!) for a non-negative integer n. */
export function logFactorial(n: number): number {
  if (n < TABLE) return LOG_FACTORIAL[n];
  const inv = 1 / n;
  const inv2 = inv * inv;
  return (n + 0.5) * Math.log(n) - n + HALF_LOG_2PI + inv * (1 / 12 - inv2 * (1 / 360 - inv2 / 1260));
}

/** ln C(n, k). */
export function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * Both tails of X ~ Binomial(n, p) at k. The tail on the far side of k from the mean is summed outwards from
 * k, where its largest term is, until the terms stop mattering (O(√n) terms at worst, a few far out in a tail);
 * the other tail is its complement plus P(X = k). So a tiny tail keeps its relative accuracy.
 */
export function binomialTails(k: number, n: number, p: number): BinomialTails {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n || !(p >= 0 && p <= 1)) {
    throw new RangeError(`binomialTails: need integers 0 ≤ k ≤ n and 0 ≤ p ≤ 1 (got k = ${k}, n = ${n}, p = ${p})`);
  }
  if (p === 0) return { atMost: 1, atLeast: k === 0 ? 1 : 0 };
  if (p === 1) return { atMost: k === n ? 1 : 0, atLeast: 1 };
  const q = 1 - p;
  const pmf = Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
  let term = pmf;
  let small = pmf;
  const lower = k <= n * p;
  if (lower) {
    // P(X = i − 1) = P(X = i) · i q / ((n − i + 1) p)
    for (let i = k; i >= 1 && term > small * 1e-17; i--) {
      term *= (i * q) / ((n - i + 1) * p);
      small += term;
    }
  } else {
    // P(X = i + 1) = P(X = i) · (n − i) p / ((i + 1) q)
    for (let i = k; i < n && term > small * 1e-17; i++) {
      term *= ((n - i) * p) / ((i + 1) * q);
      small += term;
    }
  }
  small = Math.min(1, small);
  const large = Math.min(1, 1 - small + pmf);
  return lower ? { atMost: small, atLeast: large } : { atMost: large, atLeast: small };
}

/** Regularized incomplete Beta I_x(a, b) for positive integers a, b: P(Binomial(a + b − 1, x) ≥ a). */
export function incompleteBetaInt(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return binomialTails(a, a + b - 1, x).atLeast;
}

/** ln of the Beta(a, b) density at t ∈ (0, 1), for positive integers a, b. */
export function logBetaDensityInt(t: number, a: number, b: number): number {
  return logFactorial(a + b - 1) - logFactorial(a - 1) - logFactorial(b - 1) + (a - 1) * Math.log(t) + (b - 1) * Math.log1p(-t);
}
