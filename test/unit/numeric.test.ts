import { describe, expect, it } from 'vitest';
import { increasingRoot, integrate } from '../../src/stats/numeric.ts';

describe('integrate', () => {
  it('integrates a smooth function and a narrow peak to near machine precision', () => {
    // ∫_0^3 e^(−t²) dt = (√π/2)·erf(3), mpmath at 20 digits: 0.88620734825952123389
    expect(integrate((t) => Math.exp(-t * t), 0, 3)).toBeCloseTo(0.8862073482595212, 14);
    // A Gaussian of width 1e-4 inside [0, 1]: mass 1 when the breaks resolve the peak (as the score
    // distribution's do: panels one standard deviation wide at the mean, widening outwards). A Kronrod rule never samples a panel's
    // ends, so a peak narrower than every panel would go unseen; that is why the breaks are there.
    const s = 1e-4;
    const peak = (t: number) => Math.exp(-(((t - 0.3) / s) ** 2) / 2) / (s * Math.sqrt(2 * Math.PI));
    const breaks = [-20, -10, -6, -4, -3, -2, -1, 0, 1, 2, 3, 4, 6, 10, 20].map((k) => 0.3 + k * s);
    expect(integrate(peak, 0, 1, 1e-13, breaks)).toBeCloseTo(1, 12);
    // Polynomials of degree ≤ 22 are exact on one Kronrod panel.
    expect(integrate((t) => t ** 21, 0, 1)).toBeCloseTo(1 / 22, 15);
  });

  it('is 0 on an empty range', () => {
    expect(integrate(() => 1, 2, 2)).toBe(0);
    expect(integrate(() => 1, 3, 2)).toBe(0);
  });
});

describe('increasingRoot', () => {
  it('finds a root strictly above lo, at most hi', () => {
    const r = increasingRoot((x) => x ** 3 - 2, 0, 2);
    expect(r).toBeCloseTo(Math.cbrt(2), 12);
    // A step function: the root is where it jumps, and the answer is on its upper side.
    const step = increasingRoot((x) => (x < 0.25 ? -1 : 1), 0, 1);
    expect(step).toBeGreaterThanOrEqual(0.25);
    expect(step - 0.25).toBeLessThan(1e-12);
  });

  it('refuses a bracket without a sign change', () => {
    expect(() => increasingRoot((x) => x + 1, 0, 1)).toThrow(RangeError);
  });
});
