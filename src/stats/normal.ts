/**
 * The standard normal distribution function and its inverse, to about 1e-15, for the large-sample branches
 * and starting guesses of the exact methods. Pure math.
 */

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/** erfc(x) for x ≥ 0. */
function erfcNonNegative(x: number): number {
  if (x < 2) {
    // erf(x) = 2/√π · e^(−x²) · Σ 2^n x^(2n+1) / (1·3·…·(2n+1)): all terms positive, so no cancellation.
    let term = x;
    let sum = x;
    for (let n = 1; term > sum * 1e-17; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
    }
    return 1 - TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum;
  }
  // Laplace's continued fraction erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), evaluated
  // from the tail up; 80 levels are far more than x ≥ 2 needs for full precision.
  let f = x;
  for (let k = 80; k >= 1; k--) f = x + k / 2 / f;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

/** Φ(x) = P(Z ≤ x) for a standard normal Z, with a tiny tail kept to full relative precision. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const t = x / Math.SQRT2;
  return t < 0 ? erfcNonNegative(-t) / 2 : 1 - erfcNonNegative(t) / 2;
}

/** Φ⁻¹(p): Newton's method on Φ from a logistic starting guess, kept inside a shrinking bracket. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new RangeError(`normalQuantile: p = ${p} is not in [0, 1]`);
  }
  if (p === 0.5) return 0;
  // Work in the lower half, where Φ keeps relative precision; the upper half by symmetry.
  const lowerHalf = p < 0.5;
  const target = lowerHalf ? p : 1 - p;
  let lo = -40;
  let hi = 0;
  // Start near the answer: the tail asymptote Φ(x) ≈ φ(x)/|x| far out, a logistic fit near the middle.
  const r = -2 * Math.log(target);
  let x = target < 1e-3 ? -Math.sqrt(r - Math.log(r * 2 * Math.PI)) : 0.6 * Math.log(target / (1 - target));
  for (let i = 0; i < 100; i++) {
    const fx = normalCdf(x) - target;
    if (fx === 0) break;
    if (fx < 0) lo = x;
    else hi = x;
    const density = Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
    let next = x - fx / density;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x))) {
      x = next;
      break;
    }
    x = next;
  }
  return lowerHalf ? x : -x;
}
