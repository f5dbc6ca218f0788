/**
 * Binomial tails, log-factorials and integer-parameter Beta functions, accurate for large n. The exact interval
 * on a score needs many incomplete Beta values with integer parameters, and I_u(a, c) = P(Binomial(a + c − 1, u)
 * ≥ a) ties them to the sign test's tails. The special functions are stdlib-js's (ports of Boost's and
 * Cephes'); this file fixes their argument conventions and checks arguments the way the statistics need.
 */
import betainc from '@stdlib/math-base-special-betainc';
import betaln from '@stdlib/math-base-special-betaln';
import binomcoefln from '@stdlib/math-base-special-binomcoefln';
import factorialln from '@stdlib/math-base-special-factorialln';

/** P(X ≤ k) and P(X ≥ k) for a binomial X. */
export interface BinomialTails {
  readonly atMost: number;
  readonly atLeast: number;
}

/** ln(n!) for a non-negative integer n. */
export function logFactorial(n: number): number {
  return factorialln(n);
}

/** ln C(n, k). */
export function logChoose(n: number, k: number): number {
  // Through ln B rather than three log-factorials, which cancel to a loss of about log10(n) digits for large n.
  return binomcoefln(n, k);
}

/**
 * Both tails of X ~ Binomial(n, p) at k. Each tail is its own regularized incomplete Beta, P(X ≥ k) = I_p(k,
 * n − k + 1) and P(X ≤ k) = 1 − I_p(k + 1, n − k) taken as the upper function, never as one minus the other
 * tail, so a tiny tail keeps its relative accuracy (stdlib's binomial-cdf gives only P(X ≤ k), and 1 − it
 * would round a tiny upper tail away).
 */
export function binomialTails(k: number, n: number, p: number): BinomialTails {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n || !(p >= 0 && p <= 1)) {
    throw new RangeError(`binomialTails: need integers 0 ≤ k ≤ n and 0 ≤ p ≤ 1 (got k = ${k}, n = ${n}, p = ${p})`);
  }
  if (p === 0) return { atMost: 1, atLeast: k === 0 ? 1 : 0 };
  if (p === 1) return { atMost: k === n ? 1 : 0, atLeast: 1 };
  return {
    atMost: k === n ? 1 : betainc(p, k + 1, n - k, true, true),
    atLeast: k === 0 ? 1 : betainc(p, k, n - k + 1, true, false),
  };
}

/** Regularized incomplete Beta I_x(a, b) for positive integers a, b: P(Binomial(a + b − 1, x) ≥ a). */
export function incompleteBetaInt(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return betainc(x, a, b, true, false);
}

/** ln of the Beta(a, b) density at t ∈ (0, 1), for positive integers a, b. */
export function logBetaDensityInt(t: number, a: number, b: number): number {
  return betaLogDensity(a, b)(t);
}

/**
 * The ln-density of Beta(a, b) as a function of t ∈ (0, 1), with ln B(a, b) computed once: an integrand calls
 * it thousands of times with the same parameters.
 */
export function betaLogDensity(a: number, b: number): (t: number) => number {
  const logNorm = -betaln(a, b);
  return (t) => logNorm + (a - 1) * Math.log(t) + (b - 1) * Math.log1p(-t);
}
