import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { ScoredResult } from '../../src/stats/match-stats.ts';
import { exactSignedRankCutoff, normalSignedRankCutoff, speedRatio, tiedTimePairs } from '../../src/stats/speed-ratio.ts';

const zip = (a: number[], b: number[]): Array<[number, number]> => a.map((x, i) => [x, b[i]]);

describe('speedRatio', () => {
  it('matches an oracle that lists every Walsh average and enumerates every sign pattern', () => {
    // Python 3.11, standard library only: Walsh averages sorted, the signed-rank null by all 2^n sign
    // patterns (n ≤ 16) or an integer DP (larger n); c the largest with P(T⁺ ≤ c − 1) ≤ 0.025.
    const six = speedRatio(zip([3.1, 3.3, 2.9, 3.0, 3.2, 3.5], [2.2, 2.5, 2.0, 2.4, 2.1, 2.6]));
    expect(six).toMatchObject({ pairs: 6, level: 0.95, method: 'exact' });
    expect(six.ratio).toBeCloseTo(0.7245688373094719, 12);
    expect(six.low).toBeCloseTo(0.65625, 12);
    expect(six.high).toBeCloseTo(0.8, 12);

    const twentyA = [6.641, 8.035, 7.607, 4.656, 4.854, 5.904, 5.759, 7.891, 9.58, 6.004, 4.323, 4.989, 8.281, 7.585, 5.554, 8.69, 5.866, 7.139, 12.223, 5.422];
    const twentyB = [4.982, 6.282, 4.743, 2.58, 4.203, 4.986, 4.755, 5.809, 6.531, 4.904, 2.689, 2.576, 5.095, 4.484, 2.906, 4.684, 4.749, 4.388, 5.631, 3.284];
    const twenty = speedRatio(zip(twentyA, twentyB));
    expect(twenty.ratio).toBeCloseTo(0.6604635814824236, 12);
    expect(twenty.low).toBeCloseTo(0.6001501006529358, 12);
    expect(twenty.high).toBeCloseTo(0.7166457088201005, 12);

    // One 100× pause among 40 pairs moves the estimate very little: that is why Hodges–Lehmann.
    const fortyA = [1.743, 3.015, 1.307, 2.099, 2.814, 3.189, 2.331, 1.073, 2.017, 2.352, 1.589, 3.049, 1.963, 2.38, 2.569, 2.262, 3.805, 2.797, 2.824, 8.344, 7.582, 1.967, 3.085, 2.252, 7.766, 1.672, 2.393, 1.55, 1.388, 5.52, 5.024, 1.993, 1.96, 7.905, 4.764, 5.233, 4.1, 1.321, 5.31, 0.554];
    const fortyB = [2.204, 2.645, 1.212, 2.837, 2.373, 217.0, 2.14, 0.855, 1.793, 2.252, 2.736, 2.041, 2.163, 2.65, 2.721, 1.806, 5.435, 2.555, 3.546, 5.788, 6.973, 2.876, 3.874, 3.627, 9.604, 1.877, 2.498, 1.405, 3.503, 8.257, 9.482, 2.685, 1.521, 6.508, 2.801, 6.338, 4.072, 1.07, 5.912, 0.484];
    const forty = speedRatio(zip(fortyA, fortyB));
    expect(forty.ratio).toBeCloseTo(1.0668601324469598, 12);
    expect(forty.low).toBeCloseTo(0.9639430994333297, 12);
    expect(forty.high).toBeCloseTo(1.1858871505644835, 12);
  });

  it('gives an estimate but no 95% interval below 6 pairs, and nothing without pairs', () => {
    const five = speedRatio(zip([10, 12, 9, 11, 10], [7, 9, 6.5, 8, 7.2]));
    expect(five.ratio).toBeCloseTo(0.7236272269866326, 12);
    expect(five).toMatchObject({ pairs: 5, low: null, high: null });
    expect(speedRatio([])).toMatchObject({ pairs: 0, ratio: null, low: null, high: null });
    // Non-positive or non-finite times cannot be logged: they are left out, not turned into NaN.
    expect(speedRatio([[0, 3], [2, Number.NaN], [2, 1]])).toMatchObject({ pairs: 1, ratio: 0.5 });
  });

  it('covers the true ratio about 95% of the time (seeded log-normal timings)', () => {
    const rng = createRng('speed-ratio-coverage');
    const normal = (): number => {
      // Box–Muller from the seeded generator.
      const u = (rng.next() + 1) / 2 ** 32;
      const v = rng.next() / 2 ** 32;
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    };
    const truth = 0.7;
    const runs = 400;
    let covered = 0;
    for (let r = 0; r < runs; r++) {
      const pairs: Array<[number, number]> = [];
      for (let i = 0; i < 12; i++) {
        const a = Math.exp(1 + 0.4 * normal());
        pairs.push([a, a * truth * Math.exp(0.25 * normal())]);
      }
      const s = speedRatio(pairs);
      if (s.low! <= truth && truth <= s.high!) covered++;
    }
    // Exact for symmetric log ratios: coverage ≥ 95% (≈ 95.8% at n = 12); 400 runs have a standard error of 1%.
    expect(covered / runs).toBeGreaterThan(0.93);
    expect(covered / runs).toBeLessThan(0.995);
  });

  it('switches to the normal limit past 300 pairs without a jump', () => {
    // Hand values: n = 6 → c = 1 (P(T⁺ = 0) = 1/64 ≤ 0.025 < P(T⁺ ≤ 1) = 2/64); n = 5 → c = 0.
    expect(exactSignedRankCutoff(6, 0.025)).toBe(1);
    expect(exactSignedRankCutoff(5, 0.025)).toBe(0);
    // n = 10: P(T⁺ ≤ 8) = 25/1024 ≤ 0.025 < P(T⁺ ≤ 9) = 33/1024 (all 1024 sign patterns), so c = 9: the textbook critical value 8, plus one.
    expect(exactSignedRankCutoff(10, 0.025)).toBe(9);
    const exact = exactSignedRankCutoff(300, 0.025);
    expect(Math.abs(normalSignedRankCutoff(300, 0.025) - exact)).toBeLessThanOrEqual(2);
    const big = speedRatio(Array.from({ length: 500 }, (_, i): [number, number] => [10, 10 * (0.8 + (i % 50) / 250)]));
    expect(big.method).toBe('normal');
    expect(big.low!).toBeLessThan(big.ratio!);
    expect(big.high!).toBeGreaterThan(big.ratio!);
  });
});

describe('tiedTimePairs', () => {
  it('pairs the times of scrambles both bots solved with equal moves', () => {
    const row = (scrambleId: number, bot: string, moveCount: number, wallMs: number, verdict = 'solved'): ScoredResult =>
      ({ scrambleId, bot, verdict, moveCount, wallMs }) as ScoredResult;
    const rows = [
      row(1, 'a', 20, 10), row(1, 'b', 20, 7),
      row(2, 'a', 20, 10), row(2, 'b', 22, 5), // moves differ: not a speed comparison
      row(3, 'a', 18, 9), row(3, 'b', 18, 3, 'timeout'),
      row(4, 'b', 30, 4), row(4, 'a', 30, 8),
      row(5, 'a', 12, 1),
    ];
    expect(tiedTimePairs(rows, 'a', 'b')).toEqual([[10, 7], [8, 4]]);
    expect(tiedTimePairs(rows, 'b', 'a')).toEqual([[7, 10], [4, 8]]);
    expect(tiedTimePairs(rows, 'a', 'b', (r) => r.wallMs * 2)).toEqual([[20, 14], [16, 8]]);
  });
});
