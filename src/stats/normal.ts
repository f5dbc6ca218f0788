/**
 * The standard normal distribution function and its inverse, for the large-sample branches and starting
 * guesses of the exact methods: stdlib-js's erfc-based normal CDF, and the quantile through erfcinv.
 */
import normalCdfOf from '@stdlib/stats-base-dists-normal-cdf';
import erfcinv from '@stdlib/math-base-special-erfcinv';

/** Φ(x) = P(Z ≤ x) for a standard normal Z, with a tiny lower tail kept to full relative precision (erfc). */
export function normalCdf(x: number): number {
  return normalCdfOf(x, 0, 1);
}

/**
 * Φ⁻¹(p) = −√2 · erfcinv(2p). Not stdlib's normal-quantile, which takes erfinv(2p − 1): 2p − 1 rounds to −1
 * below p ≈ 1e-17 and loses digits well before, where erfcinv(2p) keeps the far lower tail exact (2p is exact).
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile: p = ${p} is not in [0, 1]`);
  // erfcinv(1) is +0, so the middle would come out as −0; callers compare it with 0 and add it to a mean.
  if (p === 0.5) return 0;
  return -Math.SQRT2 * erfcinv(2 * p);
}
