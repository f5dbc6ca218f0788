import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/stats/outcome.ts';
import {
  eloFromScore,
  headToHead,
  matchStats,
  pairStats,
  pairTallies,
  summarizeBot,
  summarizeBots,
  tally,
  NELO_PER_T,
} from '../../src/stats/match-stats.ts';
import { signTestP } from '../../src/stats/sign-test.ts';
import type { ScoredResult } from '../../src/stats/match-stats.ts';

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

describe('pairStats', () => {
  it('reports W-D-L, score, Elo, normalized Elo, LOS and p from one model', () => {
    const s = pairStats({ wins: 60, draws: 20, losses: 20 });
    expect(s).toMatchObject({ wins: 60, draws: 20, losses: 20, games: 100, level: 0.95, significant: true });
    expect(s.score).toBeCloseTo(0.7, 12);
    expect(s.elo).toBeCloseTo(147.19, 2);
    // Exact interval ends from the independent oracle (score-interval.test.ts): 0.61176…, 0.77708….
    expect(s.scoreLow).toBeCloseTo(0.6117623204477757, 10);
    expect(s.scoreHigh).toBeCloseTo(0.7770818888738965, 10);
    expect(s.eloLow).toBeCloseTo(eloFromScore(0.6117623204477757), 6);
    expect(s.eloHigh).toBeCloseTo(eloFromScore(0.7770818888738965), 6);
    expect(s.eloError).toBeCloseTo((s.eloHigh! - s.eloLow!) / 2, 9);
    // By hand: per-game variance .6·.3² + .2·.2² + .2·.7² = .16, σ = .4; nElo = (.7 − .5)/.4 · 800/ln 10.
    expect(s.nElo).toBeCloseTo(0.5 * NELO_PER_T, 9);
    expect(NELO_PER_T).toBeCloseTo(347.43558552260146, 10);
    expect(s.nEloLow).toBeCloseTo(((0.6117623204477757 - 0.5) / 0.4) * NELO_PER_T, 6);
    expect(s.pValue).toBeCloseTo(signTestP(60, 20), 15);
    // LOS = P(Binomial(81, 1/2) ≤ 60), Python fractions: 0.99999717189255...
    expect(s.los).toBeCloseTo(0.9999971718925525, 12);
  });

  it('gives LOS by hand for a small record, and 1/2 with no decisive games', () => {
    // P(Binomial(8, 1/2) ≤ 5) = (1 + 8 + 28 + 56 + 70 + 56) / 256
    expect(pairStats({ wins: 5, draws: 3, losses: 2 }).los).toBeCloseTo(219 / 256, 14);
    expect(pairStats({ wins: 0, draws: 4, losses: 0 }).los).toBe(0.5);
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

  it('reports a perfect or null score as ±Infinity with a finite exact end, never NaN', () => {
    const all = pairStats({ wins: 7, draws: 0, losses: 0 });
    expect(all).toMatchObject({ score: 1, elo: Infinity, eloHigh: Infinity, eloError: Infinity, nElo: null });
    // Clopper–Pearson lower end for 7 of 7 at 95%: 0.025^(1/7) = 0.5904 → Elo +63.5.
    expect(all.eloLow!).toBeCloseTo(eloFromScore(0.025 ** (1 / 7)), 6);
    const none = pairStats({ wins: 0, draws: 0, losses: 7 });
    expect(none).toMatchObject({ score: 0, elo: -Infinity, eloLow: -Infinity, eloError: Infinity });
    expect(none.eloHigh!).toBeCloseTo(-all.eloLow!, 6);
    // More perfect games, a tighter (higher) lower bound.
    expect(pairStats({ wins: 70, draws: 0, losses: 0 }).eloLow!).toBeGreaterThan(all.eloLow!);
    // 9-0-1: the exact upper end is below 1 (Clopper–Pearson, scipy beta.ppf(0.975, 10, 1)), so Elo's is finite.
    const nearly = pairStats({ wins: 9, draws: 0, losses: 1 });
    expect(nearly.scoreHigh).toBeCloseTo(0.9974714214555382, 10);
    expect(Number.isFinite(nearly.eloHigh)).toBe(true);
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
      nElo: null,
      los: null,
      pValue: 1,
      significant: false,
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
    expect(headToHead(rows, 'a', 'b', { marginMs: Infinity })).toEqual([1, -1, 0]);
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
    expect(s.verdicts).toEqual({ solved: 3, invalid: 1, timeout: 1, crash: 0, protocol: 0, unsupported: 0, 'gave-up': 0, memory: 0 });
    expect(s.meanMoves).toBeCloseTo(19, 12);
    expect(s.meanGap).toBeCloseTo((2 + 0 + 4) / 3, 12);
    expect(s.optimalSolves).toBe(1);
    expect(s.medianWallMs).toBe(20);
    expect(s.totalWallMs).toBe(1065);
  });

  it('reports nulls, not NaN, when nothing was solved or nothing ran', () => {
    const s = summarizeBot([{ verdict: 'crash', moveCount: 0, wallMs: 4 }, { verdict: 'crash', moveCount: 0, wallMs: 6 }]);
    expect(s).toMatchObject({ solved: 0, meanMoves: null, meanGap: null, medianWallMs: 5, totalWallMs: 10, medianCpuMs: null, totalCpuMs: null });
    expect(summarizeBot([])).toMatchObject({ results: 0, meanMoves: null, medianWallMs: null, totalWallMs: 0, medianCpuMs: null });
  });

  it('summarizeBot - CPU time: median and total over the results where it was measured, beside wall time', () => {
    const s = summarizeBot([
      { verdict: 'solved', moveCount: 5, wallMs: 10, cpuMs: 19 },
      { verdict: 'solved', moveCount: 5, wallMs: 12, cpuMs: 23 },
      { verdict: 'crash', moveCount: 0, wallMs: 3 },
      { verdict: 'timeout', moveCount: 0, wallMs: 100, cpuMs: 199 },
    ]);
    expect(s).toMatchObject({ medianWallMs: 11, medianCpuMs: 23, totalCpuMs: 241, totalWallMs: 125 });
  });

  it('groups rows per bot in name order', () => {
    const m = summarizeBots([row(1, 'z', 3), row(1, 'a', 4), row(2, 'a', 6)]);
    expect([...m.keys()]).toEqual(['a', 'z']);
    expect(m.get('a')!.meanMoves).toBe(5);
  });
});
