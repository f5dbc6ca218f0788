import { describe, expect, it } from 'vitest';
import { logFactorial } from '../../src/stats/binomial.ts';
import { pairStats, scoreInterval } from '../../src/stats/match-stats.ts';
import { scoreCdf, scoreQuantile } from '../../src/stats/score-distribution.ts';

describe('scoreInterval', () => {
  it('matches an independent oracle: 2-D integral of the Dirichlet density (scipy dblquad + brentq)', () => {
    // /tmp oracle, Python 3.11 + scipy 1.17: P(pW − pL ≤ 2x − 1) integrated over the simplex, not the
    // one-dimensional decomposition or the binomial sums used here. [W, D, L, low, high]
    const cases: Array<[number, number, number, number, number]> = [
      [0, 12, 4, 0.23811459005193616, 0.5278296045818055],
      [5, 3, 2, 0.34604673141633313, 0.8752157828826612],
      [1, 1, 1, 0.06682082924418917, 0.9331791707558108],
      [60, 20, 20, 0.6117623204477757, 0.7770818888738965],
      [3, 0, 1, 0.19412044968324338, 0.9936905367902901],
      [2, 5, 0, 0.359842836500575, 0.8547895681313287],
      [10, 30, 4, 0.47343427142910444, 0.6589275952451081],
      [0, 10, 0, 0.34575144609061903, 0.654248553909381],
      [7, 0, 0, 0.5903836027750017, 1.0],
    ];
    for (const [wins, draws, losses, low, high] of cases) {
      const [l, h] = scoreInterval({ wins, draws, losses });
      expect(Math.abs(l - low)).toBeLessThan(1e-10);
      expect(Math.abs(h - high)).toBeLessThan(1e-10);
    }
  });

  it('is Clopper–Pearson on the win share when there are no draws', () => {
    // Clopper–Pearson ends for 7 of 7 and 0 of 7 at 95%: 0.025^(1/7) and 1 − that.
    expect(scoreInterval({ wins: 7, draws: 0, losses: 0 })[0]).toBeCloseTo(0.025 ** (1 / 7), 12);
    expect(scoreInterval({ wins: 0, draws: 0, losses: 7 })).toEqual([0, expect.closeTo(1 - 0.025 ** (1 / 7), 12)]);
  });

  it('covers the true score at least 95% of the time, by exact enumeration of every outcome', () => {
    // For N games from a known (pW, pD, pL), sum the multinomial probability of every W-D-L whose interval
    // holds the true score. A normal (Wald) interval fails this badly at small N and lopsided scores (for
    // N = 12, pW = 0.9, pL = 0.1 it covers 0.71; with pD = 0.3, share 0.9, 0.89: Python, same enumeration);
    // the exact interval may only over-cover.
    const cache = new Map<string, [number, number]>();
    for (const n of [6, 12]) {
      for (const pDraw of [0, 0.3, 0.6]) {
        for (const share of [0.5, 0.7, 0.9]) {
          const pW = (1 - pDraw) * share;
          const pL = 1 - pDraw - pW;
          const truth = pW + pDraw / 2;
          let coverage = 0;
          for (let w = 0; w <= n; w++) {
            for (let d = 0; d <= n - w; d++) {
              const l = n - w - d;
              const key = `${w},${d},${l}`;
              let iv = cache.get(key);
              if (!iv) cache.set(key, (iv = scoreInterval({ wins: w, draws: d, losses: l })));
              const logP = logFactorial(n) - logFactorial(w) - logFactorial(d) - logFactorial(l) + xlogy(w, pW) + xlogy(d, pDraw) + xlogy(l, pL);
              if (iv[0] <= truth && truth <= iv[1]) coverage += Math.exp(logP);
            }
          }
          expect(coverage, `n ${n}, pD ${pDraw}, share ${share}`).toBeGreaterThanOrEqual(0.95);
        }
      }
    }
  });
});

describe('pairStats agreement', () => {
  it('reports the issue case 0-12-4 as not significant, interval and p-value alike', () => {
    const s = pairStats({ wins: 0, draws: 12, losses: 4 });
    expect(s.pValue).toBe(0.125);
    expect(s.significant).toBe(false);
    expect(s.eloLow!).toBeLessThan(0);
    expect(s.eloHigh!).toBeGreaterThan(0);
    expect(s.nEloLow!).toBeLessThan(0);
    expect(s.nEloHigh!).toBeGreaterThan(0);
  });

  // About 2,500 exact intervals: seconds on a quiet machine, over a minute at load 15 (stdlib's betainc, in
  // plain JS, is 2-3x slower than the sums it replaced), so it gets more than the default minute.
  it('interval excludes 0 ⇔ p < 1 − level, on every W-D-L up to 12 each and a few large records', { timeout: 300_000 }, () => {
    const triples: Array<[number, number, number]> = [];
    for (let w = 0; w <= 12; w++) for (let d = 0; d <= 12; d++) for (let l = 0; l <= 12; l++) triples.push([w, d, l]);
    // Large records straddling the 5% line: W − L near 2√(W + L).
    triples.push([530, 200, 470], [531, 200, 469], [5000, 3000, 4800], [5050, 3000, 4850], [0, 1000, 0], [1000, 0, 999]);
    let significantCount = 0;
    for (const level of [0.95, 0.9]) {
      for (const [wins, draws, losses] of level === 0.95 ? triples : triples.filter((_, i) => i % 7 === 0)) {
        const s = pairStats({ wins, draws, losses }, level);
        const label = `${wins}-${draws}-${losses} at ${level}`;
        const excludes = s.games > 0 && (s.scoreLow! > 0.5 || s.scoreHigh! < 0.5);
        expect(excludes, label).toBe(s.pValue < 1 - level);
        expect(s.significant, label).toBe(excludes);
        if (s.games === 0) continue;
        if (excludes) significantCount++;
        // Elo and normalized Elo are monotone images of the same interval: same side of 0.
        expect(s.eloLow! > 0 || s.eloHigh! < 0, label).toBe(excludes);
        if (s.nElo !== null) expect(s.nEloLow! > 0 || s.nEloHigh! < 0, label).toBe(excludes);
        // The estimate lies inside its interval.
        expect(s.scoreLow!, label).toBeLessThanOrEqual(s.score!);
        expect(s.scoreHigh!, label).toBeGreaterThanOrEqual(s.score!);
        // LOS is past 1 − α/2 on the winning side whenever the test rejects.
        const tail = (1 - level) / 2;
        if (s.scoreLow! > 0.5) expect(s.los!, label).toBeGreaterThan(1 - tail);
        if (s.scoreHigh! < 0.5) expect(s.los!, label).toBeLessThan(tail);
      }
    }
    // The grid has both kinds, so the equivalence was tested both ways.
    expect(significantCount).toBeGreaterThan(100);
  });

  it('never claims significance from fewer than 6 decisive games at 95%', () => {
    // The exact sign test needs 6-0: 2/2^6 = 0.031; 5-0 gives 0.0625, however many draws surround it.
    expect(pairStats({ wins: 5, draws: 0, losses: 0 }).significant).toBe(false);
    expect(pairStats({ wins: 5, draws: 100, losses: 0 }).significant).toBe(false);
    expect(pairStats({ wins: 6, draws: 0, losses: 0 }).significant).toBe(true);
    expect(pairStats({ wins: 0, draws: 3, losses: 6 }).significant).toBe(true);
  });
});

describe('scoreQuantile', () => {
  it('inverts scoreCdf and stays on the known side of an anchor', () => {
    const params = { a: 30, b: 12, c: 25 };
    for (const q of [0.01, 0.025, 0.5, 0.975]) {
      const x = scoreQuantile(q, params);
      expect(scoreCdf(x, params)).toBeCloseTo(q, 9);
    }
    // With the exact value at 1/2 given as the anchor, a quantile whose level is below it lands below 1/2 even
    // when the anchor value is only just above the level.
    const at = scoreCdf(0.5, params);
    expect(scoreQuantile(at * (1 - 1e-15), params, { x: 0.5, cdf: at })).toBeLessThan(0.5);
    expect(scoreQuantile(at * (1 + 1e-15), params, { x: 0.5, cdf: at })).toBeGreaterThan(0.5);
  });

  it('returns the point mass of a degenerate law and rejects bad parameters', () => {
    expect(scoreQuantile(0.3, { a: 0, b: 0, c: 4 })).toBe(0);
    expect(scoreQuantile(0.3, { a: 4, b: 0, c: 0 })).toBe(1);
    expect(scoreQuantile(0.3, { a: 0, b: 4, c: 0 })).toBe(0.5);
    expect(() => scoreCdf(0.5, { a: 1.5, b: 1, c: 1 })).toThrow(RangeError);
    expect(() => scoreCdf(0.5, { a: 0, b: 0, c: 0 })).toThrow(RangeError);
    expect(() => scoreQuantile(1, { a: 1, b: 1, c: 1 })).toThrow(RangeError);
  });
});

function xlogy(x: number, y: number): number {
  return x === 0 ? 0 : x * Math.log(y);
}
