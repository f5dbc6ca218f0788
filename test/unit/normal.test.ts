import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile } from '../../src/stats/normal.ts';

describe('normalCdf', () => {
  it('matches mpmath.ncdf at 40 digits, tails to a relative 2e-13', () => {
    const cases: Array<[number, number]> = [
      [-30, 4.9067139271481871e-198], [-10, 7.6198530241605261e-24], [-2.5, 0.0062096653257761352],
      [-1.96, 0.024997895148220436], [-1, 0.15865525393145705], [0, 0.5], [0.5, 0.6914624612740131],
      [1.99, 0.97670453224978818], [2.01, 0.97778440557056851], [8, 0.99999999999999938],
    ];
    for (const [x, p] of cases) expect(Math.abs(normalCdf(x) / p - 1)).toBeLessThan(2e-13);
  });
});

describe('normalQuantile', () => {
  it('matches scipy.stats.norm.ppf from the far tail to the upper half', () => {
    const cases: Array<[number, number]> = [
      [1e-300, -37.0470962993612], [1e-20, -9.262340089798409], [1e-8, -5.612001244174789], [0.001, -3.090232306167813],
      [0.025, -1.9599639845400545], [0.3, -0.5244005127080409], [0.975, 1.959963984540054], [0.999999, 4.753424308817087],
    ];
    for (const [p, z] of cases) expect(Math.abs(normalQuantile(p) - z)).toBeLessThan(1e-13 * Math.max(1, Math.abs(z)));
  });

  it('is exact at the ends and the middle and rejects a non-probability', () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(() => normalQuantile(1.2)).toThrow(RangeError);
    expect(() => normalQuantile(Number.NaN)).toThrow(RangeError);
  });
});
