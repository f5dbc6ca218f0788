import { describe, expect, it } from 'vitest';
import { binomialTails, incompleteBetaInt, logBetaDensityInt, logChoose, logFactorial } from '../../src/stats/binomial.ts';

describe('logFactorial', () => {
  it('matches math.lgamma(n + 1) across the table edge and far beyond', () => {
    // Python 3.11: math.lgamma(n + 1)
    const cases: Array<[number, number]> = [
      [0, 0], [1, 0], [10, 15.104412573075514], [1023, 6071.28041294445], [1024, 6078.211884750051],
      [5000, 37591.14350887677], [1_000_000, 12815518.384658169],
    ];
    for (const [n, v] of cases) expect(Math.abs(logFactorial(n) - v)).toBeLessThanOrEqual(1e-12 * Math.max(1, v));
  });

  it('gives exact small binomial coefficients', () => {
    expect(Math.exp(logChoose(10, 3))).toBeCloseTo(120, 9);
    expect(Math.exp(logChoose(52, 5))).toBeCloseTo(2_598_960, 3);
  });
});

describe('binomialTails', () => {
  it('matches exact rational sums (Python fractions and math.comb)', () => {
    // [k, n, p, P(X ≤ k), P(X ≥ k)]
    const cases: Array<[number, number, number, number, number]> = [
      [3, 10, 0.3, 0.6496107184, 0.6172172136],
      [0, 5, 0.5, 0.03125, 1.0],
      [5, 5, 0.5, 1.0, 0.03125],
      [40, 100, 0.5, 0.028443966820490395, 0.9823998998911476],
      [70, 100, 0.4, 0.9999999996535784, 1.25147753491586e-9],
      [1, 200, 0.1, 1.638346148565516e-8, 0.9999999992944921],
      [990, 1000, 0.95, 0.9999999999994758, 2.7977985614856666e-12],
    ];
    for (const [k, n, p, atMost, atLeast] of cases) {
      const t = binomialTails(k, n, p);
      // Relative accuracy, so the tiny tails count as much as the large ones.
      expect(Math.abs(t.atMost / atMost - 1)).toBeLessThan(1e-12);
      expect(Math.abs(t.atLeast / atLeast - 1)).toBeLessThan(1e-12);
    }
  });

  it('keeps both tails to 1e-10 relative at n up to 10^6, far tails included (mpmath, 50 digits)', () => {
    // mpmath 1.3 at 50 digits: the smaller tail summed outwards from k, the larger as 1 − it + P(X = k).
    // [k, n, p, P(X ≤ k), P(X ≥ k)]
    const cases: Array<[number, number, number, number, number]> = [
      [500_000, 1_000_000, 0.5, 0.5003989421806658, 0.5003989421806658],
      [499_000, 1_000_000, 0.5, 0.02280414993269104, 0.9773038320453279],
      [5_100, 10_000, 0.5, 0.9777871004769597, 0.023292763852473693],
      [3, 1_000_000, 1e-06, 0.9810119044370966, 0.08030130510144959],
      [2_000, 1_000_000, 0.001, 1.0, 1.8536539944013863e-170],
      [50_500, 100_000, 0.5, 0.9992258201845774, 0.0007911799394257978],
    ];
    for (const [k, n, p, atMost, atLeast] of cases) {
      const t = binomialTails(k, n, p);
      expect(Math.abs(t.atMost / atMost - 1)).toBeLessThan(1e-10);
      expect(Math.abs(t.atLeast / atLeast - 1)).toBeLessThan(1e-10);
    }
  });

  it('handles p at 0 and 1 and rejects bad arguments', () => {
    expect(binomialTails(0, 4, 0)).toEqual({ atMost: 1, atLeast: 1 });
    expect(binomialTails(2, 4, 0)).toEqual({ atMost: 1, atLeast: 0 });
    expect(binomialTails(4, 4, 1)).toEqual({ atMost: 1, atLeast: 1 });
    expect(binomialTails(3, 4, 1)).toEqual({ atMost: 0, atLeast: 1 });
    expect(() => binomialTails(5, 4, 0.5)).toThrow(RangeError);
    expect(() => binomialTails(1.5, 4, 0.5)).toThrow(RangeError);
    expect(() => binomialTails(1, 4, 1.5)).toThrow(RangeError);
  });

  it('sums to 1 + P(X = k) on both sides, for every k of a few n', () => {
    for (const [n, p] of [[7, 0.5], [30, 0.2], [200, 0.7]] as const) {
      for (let k = 0; k <= n; k++) {
        const t = binomialTails(k, n, p);
        const pmf = Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log(1 - p));
        expect(t.atMost + t.atLeast).toBeCloseTo(1 + pmf, 12);
      }
    }
  });
});

describe('incompleteBetaInt and logBetaDensityInt', () => {
  it('match scipy.stats.beta', () => {
    // scipy 1.17: beta.cdf(0.3, 2, 5), beta.cdf(0.55, 40, 30), beta.logpdf(0.3, 2, 5)
    expect(incompleteBetaInt(0.3, 2, 5)).toBeCloseTo(0.579825, 12);
    expect(incompleteBetaInt(0.55, 40, 30)).toBeCloseTo(0.35525199144143205, 12);
    expect(logBetaDensityInt(0.3, 2, 5)).toBeCloseTo(Math.log(30 * 0.3 * 0.7 ** 4), 12);
    expect(incompleteBetaInt(0, 2, 5)).toBe(0);
    expect(incompleteBetaInt(1, 2, 5)).toBe(1);
  });
});
