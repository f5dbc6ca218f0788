import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/referee/outcome.ts';
import {
  eloFromScore,
  headToHead,
  matchStats,
  pairStats,
  pairTallies,
  signTestP,
  summarizeBot,
  summarizeBots,
  tally,
  Z_95,
} from '../../src/referee/match-stats.ts';
import type { ScoredResult } from '../../src/referee/match-stats.ts';

describe('eloFromScore', () => {
  it('maps 0.75 to +190.8 and 0.5 to 0, antisymmetrically', () => {
    expect(eloFromScore(0.75)).toBeCloseTo(190.849, 2);
    expect(eloFromScore(0.25)).toBeCloseTo(-190.849, 2);
    expect(eloFromScore(0.5)).toBe(0);
  });

  it('maps the extremes to ±Infinity, never NaN', () => {
    expect(eloFromScore(1)).toBe(Infinity);
    expect(eloFromScore(0)).toBe(-Infinity);
  });
});

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

describe('pairStats', () => {
  it('reports W-D-L, score and Elo with the per-game variance interval', () => {
    const s = pairStats({ wins: 60, draws: 20, losses: 20 });
    expect(s).toMatchObject({ wins: 60, draws: 20, losses: 20, games: 100 });
    expect(s.score).toBeCloseTo(0.7, 12);
    expect(s.elo).toBeCloseTo(147.19, 2);
    // per-game variance = .6·.3² + .2·.2² + .2·.7² = .16, stdev of the mean = .04
    expect(s.eloLow).toBeCloseTo(eloFromScore(0.7 - 1.959963984540054 * 0.04), 9);
    expect(s.eloHigh).toBeCloseTo(eloFromScore(0.7 + 1.959963984540054 * 0.04), 9);
    expect(s.eloError).toBeCloseTo((s.eloHigh! - s.eloLow!) / 2, 9);
    expect(s.pValue).toBeCloseTo(signTestP(60, 20), 15);
  });

  it('has an interval that contains the estimate and shrinks as N grows', () => {
    let width = Infinity;
    for (const k of [1, 4, 16, 64]) {
      const s = pairStats({ wins: 5 * k, draws: 2 * k, losses: 3 * k });
      expect(s.eloLow!).toBeLessThan(s.elo!);
      expect(s.eloHigh!).toBeGreaterThan(s.elo!);
      const w = s.eloHigh! - s.eloLow!;
      expect(w).toBeLessThan(width);
      width = w;
    }
  });

  it('reports a perfect or null score as ±Infinity with a finite Wilson end, never NaN', () => {
    const all = pairStats({ wins: 7, draws: 0, losses: 0 });
    expect(all).toMatchObject({ score: 1, elo: Infinity, eloHigh: Infinity, eloError: Infinity });
    // Wilson lower bound for 7/7 at 95%: 7 / (7 + z²) = 0.6457 → Elo +104.
    expect(all.eloLow!).toBeCloseTo(eloFromScore(7 / (7 + Z_95 ** 2)), 6);
    const none = pairStats({ wins: 0, draws: 0, losses: 7 });
    expect(none).toMatchObject({ score: 0, elo: -Infinity, eloLow: -Infinity, eloError: Infinity });
    expect(none.eloHigh!).toBeCloseTo(-all.eloLow!, 6);
    // More perfect games, a tighter (higher) lower bound.
    expect(pairStats({ wins: 70, draws: 0, losses: 0 }).eloLow!).toBeGreaterThan(all.eloLow!);
    const nearly = pairStats({ wins: 9, draws: 0, losses: 1 });
    expect(nearly.eloHigh).toBe(Infinity);
    expect(nearly.eloError).toBe(Infinity);
    for (const s of [all, none, nearly]) {
      for (const v of Object.values(s)) expect(Number.isNaN(v)).toBe(false);
    }
  });

  it('reports null score and Elo for no games', () => {
    expect(pairStats({ wins: 0, draws: 0, losses: 0 })).toMatchObject({
      games: 0,
      score: null,
      elo: null,
      eloLow: null,
      eloHigh: null,
      pValue: 1,
    });
  });

  it('draws only: zero Elo with a symmetric interval that shrinks with more games', () => {
    const ten = pairStats({ wins: 0, draws: 10, losses: 0 });
    expect(ten).toMatchObject({ score: 0.5, elo: 0 });
    expect(ten.eloLow!).toBeCloseTo(-ten.eloHigh!, 9);
    expect(ten.eloHigh!).toBeGreaterThan(0);
    expect(pairStats({ wins: 0, draws: 100, losses: 0 }).eloHigh!).toBeLessThan(ten.eloHigh!);
  });
});

describe('matchStats and tally', () => {
  it('count per-scramble outcomes', () => {
    const outcomes: Outcome[] = [1, 1, 0, -1, 1, 0];
    expect(tally(outcomes)).toEqual({ wins: 3, draws: 2, losses: 1 });
    expect(matchStats(outcomes).score).toBeCloseTo(4 / 6, 12);
  });
});

const row = (scrambleId: number, bot: string, moveCount: number, wallMs = 10, verdict = 'solved'): ScoredResult =>
  ({ scrambleId, bot, verdict, moveCount, wallMs }) as ScoredResult;

describe('headToHead and pairTallies', () => {
  const rows: ScoredResult[] = [
    row(1, 'a', 10),
    row(1, 'b', 12),
    row(1, 'c', 10),
    row(2, 'a', 0, 5000, 'timeout'),
    row(2, 'b', 20),
    row(3, 'b', 7),
    row(3, 'a', 7, 100),
    row(4, 'c', 3),
  ];

  it('compares two bots on the scrambles both answered', () => {
    // Scramble 3: equal moves, b (10 ms) clearly faster than a (100 ms).
    expect(headToHead(rows, 'a', 'b')).toEqual([1, -1, -1]);
    expect(headToHead(rows, 'b', 'a')).toEqual([-1, 1, 1]);
    expect(headToHead(rows, 'a', 'c')).toEqual([0]);
    // With an infinite margin the speed difference on scramble 3 no longer counts.
    expect(headToHead(rows, 'a', 'b', Infinity)).toEqual([1, -1, 0]);
  });

  it('tallies every pair once, in name order', () => {
    expect(pairTallies(rows)).toEqual([
      { a: 'a', b: 'b', wins: 1, draws: 0, losses: 2 },
      { a: 'a', b: 'c', wins: 0, draws: 1, losses: 0 },
      { a: 'b', b: 'c', wins: 0, draws: 0, losses: 1 },
    ]);
  });
});

describe('summarizeBot', () => {
  it('counts verdicts and averages moves and gaps over solved results only', () => {
    const s = summarizeBot([
      { verdict: 'solved', moveCount: 22, wallMs: 10, bound: { optimal: 20, lowerBound: 20 } },
      { verdict: 'solved', moveCount: 20, wallMs: 30, bound: { optimal: 20, lowerBound: 20 } },
      { verdict: 'solved', moveCount: 15, wallMs: 20, bound: { lowerBound: 11 } },
      { verdict: 'timeout', moveCount: 3, wallMs: 1000, bound: { lowerBound: 1 } },
      { verdict: 'invalid', moveCount: 0, wallMs: 5 },
    ]);
    expect(s.results).toBe(5);
    expect(s.solved).toBe(3);
    expect(s.verdicts).toEqual({ solved: 3, invalid: 1, timeout: 1, crash: 0, protocol: 0, unsupported: 0, 'gave-up': 0 });
    expect(s.meanMoves).toBeCloseTo(19, 12);
    expect(s.meanGap).toBeCloseTo((2 + 0 + 4) / 3, 12);
    expect(s.optimalSolves).toBe(1);
    expect(s.medianWallMs).toBe(20);
    expect(s.totalWallMs).toBe(1065);
  });

  it('reports nulls, not NaN, when nothing was solved or nothing ran', () => {
    const s = summarizeBot([{ verdict: 'crash', moveCount: 0, wallMs: 4 }, { verdict: 'crash', moveCount: 0, wallMs: 6 }]);
    expect(s).toMatchObject({ solved: 0, meanMoves: null, meanGap: null, medianWallMs: 5, totalWallMs: 10 });
    expect(summarizeBot([])).toMatchObject({ results: 0, meanMoves: null, medianWallMs: null, totalWallMs: 0 });
  });

  it('groups rows per bot in name order', () => {
    const m = summarizeBots([row(1, 'z', 3), row(1, 'a', 4), row(2, 'a', 6)]);
    expect([...m.keys()]).toEqual(['a', 'z']);
    expect(m.get('a')!.meanMoves).toBe(5);
  });
});
