import { describe, expect, it } from 'vitest';
import { formatMatchReport } from '../../src/cli/format-report.ts';
import { buildMatchReport } from '../../src/referee/match-report.ts';
import type { MatchRecord, ResultSummary, ScrambleRecord } from '../../src/store/types.ts';

const state = { kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 0, 8] } as const;

/** A finished match of `bots` over `n` scrambles; `result(i, bot)` gives each bot's moves and time. */
function fixture(bots: string[], n: number, result: (i: number, bot: string) => [moves: number, ms: number]) {
  const match: MatchRecord = { id: 1, config: {}, seed: 's', generatorVersion: 'v', bots, status: 'finished', createdAt: '' };
  const scrambles: ScrambleRecord[] = Array.from({ length: n }, (_, i) => ({
    id: 100 + i, matchId: 1, index: i, state, puzzleClass: 'sliding 3x3', bound: { lowerBound: 1, optimal: 1 },
  }));
  const rows: ResultSummary[] = scrambles.flatMap((s) =>
    bots.map((bot): ResultSummary => {
      const [moveCount, wallMs] = result(s.index, bot);
      return { matchId: 1, scrambleId: s.id, scrambleIndex: s.index, puzzleClass: s.puzzleClass, bound: s.bound, bot, verdict: 'solved', moveCount, wallMs };
    }),
  );
  return buildMatchReport(match, scrambles, rows);
}

describe('match report', () => {
  it('prints the issue case (0-12-4) with an interval that agrees with p = 0.125', () => {
    // b wins the first 4 scrambles on moves; the other 12 tie on moves and on time.
    const r = fixture(['a', 'b'], 16, (i, bot) => [bot === 'b' && i < 4 ? 20 : 22, 50]);
    const [p] = r.summary.pairs;
    expect(p).toMatchObject({ wins: 0, draws: 12, losses: 4, pValue: 0.125, significant: false });
    expect(p.eloLow!).toBeLessThan(0);
    expect(p.eloHigh!).toBeGreaterThan(0);
    const text = formatMatchReport(r, { perScramble: false });
    expect(text).toContain('a vs b: +0 =12 -4');
    expect(text).toContain('sign test p = 0.125: no significant difference at 95%');
    expect(text).toMatch(/Elo -88\.7 \(95% -202\.0 \.\. \+19\.4\)/);
    expect(r.summary.crossTable).toBeUndefined();
  });

  it('gives the time ratio where moves tie, and a cross-table with 3 bots', () => {
    // Equal moves everywhere; b takes 70% of a's time, c 140%, with a little spread.
    const times: Record<string, number> = { a: 10, b: 7, c: 14 };
    const r = fixture(['a', 'b', 'c'], 10, (i, bot) => [20, times[bot] * (1 + (i % 3) / 100)]);
    const ab = r.summary.pairs.find((p) => p.a === 'a' && p.b === 'b')!;
    expect(ab.speed.pairs).toBe(10);
    expect(ab.speed.ratio).toBeCloseTo(0.7, 6);
    expect(ab.wins + ab.draws + ab.losses).toBe(10);
    expect(r.summary.crossTable!.order).toEqual(['b', 'a', 'c']);
    const text = formatMatchReport(r, { perScramble: false });
    expect(text).toContain('time b/a where moves tie: 0.700');
    expect(text).toContain('cross-table');
    // JSON carries it: every number survives a round trip (no NaN).
    const json = JSON.parse(JSON.stringify(r));
    expect(json.summary.crossTable.totals.map((t: { bot: string }) => t.bot)).toEqual(['b', 'a', 'c']);
  });

  it('score by - the same results decided by wall time or by CPU time: scramble winners, W-D-L, SPRT, time ratio', () => {
    // Equal moves on every scramble. a answers in 40 ms on the wall clock with two cores busy (80 ms CPU);
    // b takes 60 ms on one thread (55 ms CPU).
    const match: MatchRecord = { id: 1, config: {}, seed: 's', generatorVersion: 'v', bots: ['a', 'b'], status: 'finished', createdAt: '' };
    const scrambles: ScrambleRecord[] = Array.from({ length: 8 }, (_, i) => ({
      id: 100 + i, matchId: 1, index: i, state, puzzleClass: 'sliding 3x3', bound: { lowerBound: 1, optimal: 1 },
    }));
    const rows: ResultSummary[] = scrambles.flatMap((s) =>
      (['a', 'b'] as const).map((bot): ResultSummary => ({
        matchId: 1, scrambleId: s.id, scrambleIndex: s.index, puzzleClass: s.puzzleClass, bound: s.bound, bot, verdict: 'solved', moveCount: 22,
        ...(bot === 'a' ? { wallMs: 40 + s.index, cpuMs: 80 + s.index } : { wallMs: 60, cpuMs: 55 }),
      })),
    );
    const sprt = { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'logistic' } as const;
    const wall = buildMatchReport(match, scrambles, rows, {}, sprt);
    const cpu = buildMatchReport(match, scrambles, rows, { scoreBy: 'cpu' }, sprt);
    expect(wall.scrambles.map((s) => s.winner)).toEqual(Array(8).fill('a'));
    expect(cpu.scrambles.map((s) => s.winner)).toEqual(Array(8).fill('b'));
    expect(cpu.scrambles.every((s) => s.decidedBy === 'time')).toBe(true);
    expect(wall.summary.pairs[0]).toMatchObject({ wins: 8, draws: 0, losses: 0 });
    expect(cpu.summary.pairs[0]).toMatchObject({ wins: 0, draws: 0, losses: 8 });
    expect(wall.summary.sprt!.wdl).toEqual({ wins: 8, draws: 0, losses: 0 });
    expect(cpu.summary.sprt!.wdl).toEqual({ wins: 0, draws: 0, losses: 8 });
    // The time ratio is in the clock that scores: b/a above 1 on the wall clock, below 1 in CPU time.
    expect(wall.summary.pairs[0].speed.ratio!).toBeGreaterThan(1);
    expect(cpu.summary.pairs[0].speed.ratio!).toBeLessThan(1);
    expect(cpu.summary.bots.a).toMatchObject({ medianWallMs: 43.5, medianCpuMs: 83.5 });
  });
});
