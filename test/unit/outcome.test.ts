import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../src/core/verdict.ts';
import type { Verdict } from '../../src/core/verdict.ts';
import { compareResults, defaultMarginMs, MIN_MARGIN_MS, tieTimes } from '../../src/stats/outcome.ts';

const solved = (moveCount: number, wallMs: number) => ({ verdict: 'solved' as Verdict, moveCount, wallMs });
const failed = (verdict: Verdict, wallMs = 1) => ({ verdict, moveCount: 0, wallMs });

describe('compareResults', () => {
  it('lets a solve beat every other verdict, whatever the moves and times', () => {
    for (const v of VERDICTS.filter((x) => x !== 'solved')) {
      expect(compareResults(solved(1000, 9000), failed(v, 1), { marginMs: 0 })).toBe(1);
      expect(compareResults(failed(v, 1), solved(1000, 9000), { marginMs: 0 })).toBe(-1);
    }
  });

  it('draws two unsolved results, even with different verdicts', () => {
    expect(compareResults(failed('timeout', 5000), failed('crash', 3), { marginMs: 0 })).toBe(0);
    expect(compareResults(failed('invalid'), failed('gave-up'))).toBe(0);
  });

  it('gives the win to fewer moves, regardless of time', () => {
    expect(compareResults(solved(30, 5000), solved(31, 1), { marginMs: 0 })).toBe(1);
    expect(compareResults(solved(31, 1), solved(30, 5000), { marginMs: 0 })).toBe(-1);
  });

  it('on equal moves, lets the faster win only beyond the margin', () => {
    expect(compareResults(solved(30, 100), solved(30, 120), { marginMs: 10 })).toBe(1);
    expect(compareResults(solved(30, 120), solved(30, 100), { marginMs: 10 })).toBe(-1);
    expect(compareResults(solved(30, 100), solved(30, 110), { marginMs: 10 })).toBe(0);
    expect(compareResults(solved(30, 100), solved(30, 105), { marginMs: 10 })).toBe(0);
    expect(compareResults(solved(30, 100), solved(30, 100), { marginMs: 0 })).toBe(0);
    expect(compareResults(solved(30, 1), solved(30, 1e9), { marginMs: Infinity })).toBe(0);
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
    for (const a of cases) for (const b of cases) expect(compareResults(a, b, { marginMs: 5 })).toBe(-compareResults(b, a, { marginMs: 5 }) || 0);
  });

  it('score by cpu - a tie on moves that wall time and CPU time decide the other way round', () => {
    // a answers sooner on the wall clock but keeps two cores busy (a worker pool); b computes on one thread.
    const a = { verdict: 'solved' as Verdict, moveCount: 22, wallMs: 40, cpuMs: 78 };
    const b = { verdict: 'solved' as Verdict, moveCount: 22, wallMs: 60, cpuMs: 55 };
    expect(compareResults(a, b)).toBe(1);
    expect(compareResults(a, b, { scoreBy: 'wall' })).toBe(1);
    expect(compareResults(a, b, { scoreBy: 'cpu' })).toBe(-1);
    expect(compareResults(b, a, { scoreBy: 'cpu' })).toBe(1);
    // The default margin follows the times compared: 10% of 78 ms is 7.8 ms, and 23 ms is beyond it.
    expect(compareResults(a, b, { scoreBy: 'cpu', marginMs: 23 })).toBe(0);
    expect(compareResults(a, { ...b, cpuMs: 72 }, { scoreBy: 'cpu' })).toBe(0);
    // Moves and verdicts still come first.
    expect(compareResults({ ...a, moveCount: 21 }, b, { scoreBy: 'cpu' })).toBe(1);
    expect(compareResults({ ...a, verdict: 'timeout' }, b, { scoreBy: 'cpu' })).toBe(-1);
  });

  it('score by cpu - falls back to wall time for a pair where either CPU time is missing, never mixing clocks', () => {
    const a = { verdict: 'solved' as Verdict, moveCount: 22, wallMs: 40, cpuMs: 78 };
    const remote = { verdict: 'solved' as Verdict, moveCount: 22, wallMs: 60 };
    expect(tieTimes(a, remote, 'cpu')).toEqual([40, 60]);
    expect(tieTimes(a, { ...remote, cpuMs: 5 }, 'cpu')).toEqual([78, 5]);
    expect(tieTimes(a, { ...remote, cpuMs: 5 }, 'wall')).toEqual([40, 60]);
    expect(compareResults(a, remote, { scoreBy: 'cpu' })).toBe(1);
    expect(compareResults(remote, a, { scoreBy: 'cpu' })).toBe(-1);
  });
});
