import { describe, expect, it } from 'vitest';
import { buildCrossTable } from '../../src/stats/cross-table.ts';
import { pairStats, reversePairStats, type PairStats } from '../../src/stats/match-stats.ts';

function expectSameStats(actual: PairStats | null, expected: PairStats): void {
  expect(actual).not.toBeNull();
  for (const [k, v] of Object.entries(expected)) {
    const got = (actual as unknown as Record<string, unknown>)[k];
    if (typeof v === 'number' && Number.isFinite(v)) expect(got, k).toBeCloseTo(v, 12);
    else expect(got, k).toEqual(v);
  }
}

describe('buildCrossTable', () => {
  const tallies = [
    { a: 'alpha', b: 'beta', wins: 30, draws: 10, losses: 10 },
    { a: 'alpha', b: 'gamma', wins: 20, draws: 25, losses: 5 },
    // Given from gamma's side: beta won 12 and lost 20 of its games against gamma.
    { a: 'gamma', b: 'beta', wins: 20, draws: 18, losses: 12 },
  ];

  it('orders the bots best first and fills every cell from the row bot point of view', () => {
    const t = buildCrossTable(tallies, ['beta', 'gamma', 'alpha']);
    expect(t.order).toEqual(['alpha', 'gamma', 'beta']);
    expect(t.cells[0][0]).toBeNull();
    expectSameStats(t.cells[0][1], pairStats({ wins: 20, draws: 25, losses: 5 }));
    expectSameStats(t.cells[1][0], pairStats({ wins: 5, draws: 25, losses: 20 }));
    expectSameStats(t.cells[2][1], pairStats({ wins: 12, draws: 18, losses: 20 }));
    expectSameStats(t.cells[1][2], pairStats({ wins: 20, draws: 18, losses: 12 }));
    expect(t.cells[0][2]!.significant).toBe(true); // 30-10 decisive: p ≈ 0.002
    expect(t.cells[1][2]!.significant).toBe(false); // 20-12 decisive: p ≈ 0.22
  });

  it('totals each bot over its opponents and ranks by the Bradley–Terry rating', () => {
    const t = buildCrossTable(tallies, ['alpha', 'beta', 'gamma']);
    expect(t.totals.map((x) => [x.bot, x.rank, x.games, x.wins, x.draws, x.losses, x.points])).toEqual([
      ['alpha', 1, 100, 50, 35, 15, 67.5],
      ['gamma', 2, 100, 25, 43, 32, 46.5],
      ['beta', 3, 100, 22, 28, 50, 36],
    ]);
    expect(t.totals[0].score).toBeCloseTo(0.675, 12);
    // Every pair met equally often, so the rating order is the points order and the ratings centre on 0.
    expect(t.totals[0].rating).toBeGreaterThan(t.totals[1].rating);
    expect(t.totals[1].rating).toBeGreaterThan(t.totals[2].rating);
    expect(t.totals.reduce((s, x) => s + x.rating, 0)).toBeCloseTo(0, 9);
    for (const x of t.totals) {
      expect(x.ratingLow).toBeLessThan(x.rating);
      expect(x.ratingHigh).toBeGreaterThan(x.rating);
    }
  });

  it('adds up several tallies of one pair and leaves pairs that never met empty', () => {
    const t = buildCrossTable(
      [
        { a: 'x', b: 'y', wins: 3, draws: 1, losses: 0 },
        { a: 'y', b: 'x', wins: 1, draws: 1, losses: 2 },
      ],
      ['x', 'y', 'z'],
    );
    const x = t.order.indexOf('x');
    const y = t.order.indexOf('y');
    const z = t.order.indexOf('z');
    expectSameStats(t.cells[x][y], pairStats({ wins: 5, draws: 2, losses: 1 }));
    expect(t.cells[x][z]).toBeNull();
    expect(t.totals[z]).toMatchObject({ bot: 'z', games: 0, score: null });
  });

  it('gives the same numbers as computing the swapped record directly', () => {
    for (const wdl of [{ wins: 7, draws: 0, losses: 0 }, { wins: 0, draws: 12, losses: 4 }, { wins: 0, draws: 0, losses: 0 }]) {
      expectSameStats(reversePairStats(pairStats(wdl)), pairStats({ wins: wdl.losses, draws: wdl.draws, losses: wdl.wins }));
    }
  });
});
