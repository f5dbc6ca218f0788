import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../src/core/verdict.ts';
import type { Verdict } from '../../src/core/verdict.ts';
import { compareResults, defaultMarginMs, MIN_MARGIN_MS } from '../../src/referee/outcome.ts';

const solved = (moveCount: number, wallMs: number) => ({ verdict: 'solved' as Verdict, moveCount, wallMs });
const failed = (verdict: Verdict, wallMs = 1) => ({ verdict, moveCount: 0, wallMs });

describe('compareResults', () => {
  it('lets a solve beat every other verdict, whatever the moves and times', () => {
    for (const v of VERDICTS.filter((x) => x !== 'solved')) {
      expect(compareResults(solved(1000, 9000), failed(v, 1), 0)).toBe(1);
      expect(compareResults(failed(v, 1), solved(1000, 9000), 0)).toBe(-1);
    }
  });

  it('draws two unsolved results, even with different verdicts', () => {
    expect(compareResults(failed('timeout', 5000), failed('crash', 3), 0)).toBe(0);
    expect(compareResults(failed('invalid'), failed('gave-up'))).toBe(0);
  });

  it('gives the win to fewer moves, regardless of time', () => {
    expect(compareResults(solved(30, 5000), solved(31, 1), 0)).toBe(1);
    expect(compareResults(solved(31, 1), solved(30, 5000), 0)).toBe(-1);
  });

  it('on equal moves, lets the faster win only beyond the margin', () => {
    expect(compareResults(solved(30, 100), solved(30, 120), 10)).toBe(1);
    expect(compareResults(solved(30, 120), solved(30, 100), 10)).toBe(-1);
    expect(compareResults(solved(30, 100), solved(30, 110), 10)).toBe(0);
    expect(compareResults(solved(30, 100), solved(30, 105), 10)).toBe(0);
    expect(compareResults(solved(30, 100), solved(30, 100), 0)).toBe(0);
    expect(compareResults(solved(30, 1), solved(30, 1e9), Infinity)).toBe(0);
  });

  it('uses the default margin when none is given: 10% of the slower time, at least 5 ms', () => {
    expect(defaultMarginMs(1, 2)).toBe(MIN_MARGIN_MS);
    expect(defaultMarginMs(1000, 800)).toBe(100);
    expect(compareResults(solved(10, 1), solved(10, 5))).toBe(0);
    expect(compareResults(solved(10, 1), solved(10, 7))).toBe(1);
    expect(compareResults(solved(10, 1000), solved(10, 950))).toBe(0);
    expect(compareResults(solved(10, 1000), solved(10, 850))).toBe(-1);
  });

  it('is antisymmetric', () => {
    const cases = [solved(5, 10), solved(5, 30), solved(6, 1), failed('timeout'), failed('crash')];
    for (const a of cases) for (const b of cases) expect(compareResults(a, b, 5)).toBe(-compareResults(b, a, 5) || 0);
  });
});
