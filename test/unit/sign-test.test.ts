import { describe, expect, it } from 'vitest';
import { likelihoodOfSuperiority, signTestP } from '../../src/stats/sign-test.ts';

describe('signTestP', () => {
  it('matches hand-computed exact binomial values', () => {
    // 2·(C(10,0)+C(10,1)+C(10,2))/2^10 = 2·56/1024
    expect(signTestP(8, 2)).toBeCloseTo(0.109375, 12);
    expect(signTestP(9, 1)).toBeCloseTo(0.021484375, 12);
    expect(signTestP(10, 0)).toBeCloseTo(0.001953125, 12);
    // 2·176/1024
    expect(signTestP(3, 7)).toBeCloseTo(0.34375, 12);
    // 2·Σ_{i≤8} C(30,i) / 2^30, checked with Python's exact integers
    expect(signTestP(22, 8)).toBeCloseTo(0.016124801710247993, 12);
  });

  it('is 1 for an even split or no decisive games, and symmetric', () => {
    expect(signTestP(5, 5)).toBe(1);
    expect(signTestP(0, 0)).toBe(1);
    expect(signTestP(1, 0)).toBe(1);
    expect(signTestP(13, 4)).toBe(signTestP(4, 13));
  });

  it('stays accurate and finite for large N', () => {
    // Exact references from Python's big integers.
    expect(signTestP(550, 450)).toBeCloseTo(0.0017305360849763176, 10);
    expect(signTestP(50_500, 49_500) / 0.0015823598788515956).toBeCloseTo(1, 6);
    expect(signTestP(50_000, 50_000)).toBe(1);
    const tiny = signTestP(600_000, 400_000);
    expect(tiny).toBeGreaterThanOrEqual(0);
    expect(tiny).toBeLessThan(1e-300);
  });
});

describe('likelihoodOfSuperiority', () => {
  it('is the uniform-prior posterior P(pW > pL): hand values and symmetry', () => {
    // P(Binomial(W + L + 1, 1/2) ≤ W): 6-0 → 1 − 2^−7; 1-1 → 1/2; 2-5 → P(Bin(8, ½) ≤ 2) = 37/256
    expect(likelihoodOfSuperiority(6, 0)).toBeCloseTo(1 - 1 / 128, 15);
    expect(likelihoodOfSuperiority(1, 1)).toBe(0.5);
    expect(likelihoodOfSuperiority(2, 5)).toBeCloseTo(37 / 256, 15);
    expect(likelihoodOfSuperiority(40, 25) + likelihoodOfSuperiority(25, 40)).toBeCloseTo(1, 14);
  });

  it('agrees with the normal approximation cutechess prints for a large record', () => {
    // cutechess-cli: LOS ≈ Φ((W − L)/√(W + L)); 550-450 gives Φ(3.1623) = 0.99922
    expect(likelihoodOfSuperiority(550, 450)).toBeCloseTo(0.99922, 4);
  });
});
