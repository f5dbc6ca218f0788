/**
 * Two numerical tools the statistics need: an adaptive integral of a smooth function and a bracketed root.
 * Pure and deterministic.
 */

// Gauss–Kronrod 7–15 rule on [−1, 1] (the QUADPACK pair): the Kronrod nodes, their weights, and the weights of
// the embedded 7-point Gauss rule, whose nodes are the odd-indexed Kronrod nodes. Checked against
// numpy.polynomial.legendre.leggauss(7) and by integrating x^k exactly for k ≤ 22.
const XK = [
  0.991455371120812639206854697526329, 0.949107912342758524526189684047851, 0.864864423359769072789712788640926,
  0.741531185599394439863864773280788, 0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
  0.207784955007898467600689403773245, 0,
];
const WK = [
  0.02293532201052922496373200805897, 0.063092092629978553290700663189204, 0.104790010322250183839876322541518,
  0.140653259715525918745189590510238, 0.16900472663926790282658342659855, 0.190350578064785409913256402421014,
  0.204432940075298892414161999234649, 0.209482141084727828012999174891714,
];
const WG = [
  0.129484966168869693270611432679082, 0.27970539148927666790146777142378, 0.381830050505118944950369775488975,
  0.417959183673469387755102040816327,
];

/** One Kronrod estimate of ∫_a^b f and the difference from the Gauss estimate (its error bound). */
function kronrod(f: (x: number) => number, a: number, b: number): { value: number; error: number } {
  const centre = (a + b) / 2;
  const half = (b - a) / 2;
  const fc = f(centre);
  let k = WK[7] * fc;
  let g = WG[3] * fc;
  for (let i = 0; i < 7; i++) {
    const dx = half * XK[i];
    const sum = f(centre - dx) + f(centre + dx);
    k += WK[i] * sum;
    if (i % 2 === 1) g += WG[i >> 1] * sum;
  }
  return { value: k * half, error: Math.abs((k - g) * half) };
}

/**
 * ∫ f over [a, b], first split at `breaks` (where f has a kink, and around a peak: a Kronrod rule never samples
 * a panel's ends, so a peak much narrower than its panel can go unseen), then
 * refined globally, QUADPACK-style: the panel with the largest Gauss–Kronrod error estimate is halved until
 * the estimates add up to at most `tolerance` (absolute), or to rounding level relative to the integral.
 */
export function integrate(f: (x: number) => number, a: number, b: number, tolerance = 1e-13, breaks: readonly number[] = []): number {
  if (!(b > a)) return 0;
  const points = [a, ...breaks.filter((x) => x > a && x < b).sort((x, y) => x - y), b];
  const panels: Array<{ lo: number; hi: number; value: number; error: number }> = [];
  for (let i = 0; i + 1 < points.length; i++) panels.push({ lo: points[i], hi: points[i + 1], ...kronrod(f, points[i], points[i + 1]) });
  // The cap bounds the work for an integrand that is not smooth; it is far above what a smooth one needs.
  while (panels.length < 2000) {
    let value = 0;
    let error = 0;
    let worst = 0;
    for (let i = 0; i < panels.length; i++) {
      value += panels[i].value;
      error += panels[i].error;
      if (panels[i].error > panels[worst].error) worst = i;
    }
    if (error <= Math.max(tolerance, 64 * Number.EPSILON * Math.abs(value))) break;
    const { lo, hi } = panels[worst];
    const mid = (lo + hi) / 2;
    panels.splice(worst, 1, { lo, hi: mid, ...kronrod(f, lo, mid) }, { lo: mid, hi, ...kronrod(f, mid, hi) });
  }
  let total = 0;
  for (const p of panels) total += p.value;
  return total;
}

/**
 * A root of an increasing function on [lo, hi], given f(lo) < 0 ≤ f(hi): the Illinois variant of regula
 * falsi, falling back to bisection when it stalls. The answer always lies strictly above `lo` and at most at
 * `hi`, so a caller that knows which side of a point the root is on can pass that point as an end and rely on it.
 */
export function increasingRoot(f: (x: number) => number, lo: number, hi: number, tolerance = 1e-13): number {
  let flo = f(lo);
  let fhi = f(hi);
  if (!(flo < 0 && fhi >= 0)) throw new RangeError(`increasingRoot: [${lo}, ${hi}] does not bracket a root (${flo}, ${fhi})`);
  let side = 0;
  for (let i = 0; i < 200 && hi - lo > tolerance; i++) {
    // Regula falsi for speed, bisection every fourth step so the bracket always shrinks geometrically.
    let x = i % 4 === 3 ? (lo + hi) / 2 : hi - (fhi * (hi - lo)) / (fhi - flo);
    if (!(x > lo && x < hi)) x = (lo + hi) / 2;
    const fx = f(x);
    if (fx < 0) {
      lo = x;
      flo = fx;
      // Illinois: the end that stayed twice in a row has its value halved, which stops one-sided convergence.
      if (side === -1) fhi /= 2;
      side = -1;
    } else {
      hi = x;
      fhi = fx;
      if (side === 1) flo /= 2;
      side = 1;
    }
  }
  return hi;
}
