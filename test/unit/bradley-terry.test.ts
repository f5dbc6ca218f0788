import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { fitBradleyTerry } from '../../src/stats/bradley-terry.ts';
import type { BtFit } from '../../src/stats/bradley-terry.ts';
import type { PairTally } from '../../src/stats/match-stats.ts';

const ELO_75 = 400 * Math.log10(3); // 190.848…

function byName(fit: BtFit): Record<string, number> {
  return Object.fromEntries(fit.ratings.map((r) => [r.name, r.rating]));
}

describe('fitBradleyTerry', () => {
  it('reproduces the Elo difference of a 75% score for two bots, closer as N grows', () => {
    let previousError = Infinity;
    for (const n of [40, 400, 4000, 40000]) {
      const fit = fitBradleyTerry([{ a: 'A', b: 'B', wins: 0.75 * n, draws: 0, losses: 0.25 * n }]);
      const r = byName(fit);
      expect(fit.converged).toBe(true);
      const error = Math.abs(r.A - r.B - ELO_75);
      expect(error).toBeLessThan(previousError);
      previousError = error;
      expect(r.A + r.B).toBeCloseTo(0, 9);
    }
    expect(previousError).toBeLessThan(0.5);
  });

  it('counts a draw as half a win for each side', () => {
    // (2000 + 2000/2) / 4000 = 0.75, the same as 3000 wins and 1000 losses.
    const withDraws = byName(fitBradleyTerry([{ a: 'A', b: 'B', wins: 2000, draws: 2000, losses: 0 }]));
    const decisive = byName(fitBradleyTerry([{ a: 'A', b: 'B', wins: 3000, draws: 0, losses: 1000 }]));
    expect(withDraws.A - withDraws.B).toBeCloseTo(decisive.A - decisive.B, 9);
    expect(Math.abs(withDraws.A - withDraws.B - ELO_75)).toBeLessThan(2);
  });

  it('is symmetric when the data is', () => {
    const even = byName(fitBradleyTerry([{ a: 'A', b: 'B', wins: 5, draws: 3, losses: 5 }]));
    expect(even.A).toBeCloseTo(0, 9);
    expect(even.B).toBeCloseTo(0, 9);
    const cycle = fitBradleyTerry([
      { a: 'A', b: 'B', wins: 10, draws: 0, losses: 0 },
      { a: 'B', b: 'C', wins: 10, draws: 0, losses: 0 },
      { a: 'C', b: 'A', wins: 10, draws: 0, losses: 0 },
    ]);
    for (const r of cycle.ratings) expect(r.rating).toBeCloseTo(0, 9);
    const ab = byName(fitBradleyTerry([{ a: 'A', b: 'B', wins: 7, draws: 1, losses: 2 }]));
    const ba = byName(fitBradleyTerry([{ a: 'B', b: 'A', wins: 7, draws: 1, losses: 2 }]));
    expect(ab.A).toBeCloseTo(ba.B, 9);
    expect(ab.B).toBeCloseTo(ba.A, 9);
  });

  it('keeps an undefeated bot finite thanks to the prior', () => {
    const fit = fitBradleyTerry([{ a: 'A', b: 'B', wins: 50, draws: 0, losses: 0 }]);
    const r = byName(fit);
    expect(fit.converged).toBe(true);
    expect(Number.isFinite(r.A)).toBe(true);
    expect(r.A).toBeGreaterThan(r.B);
    for (const x of fit.ratings) expect(Number.isFinite(x.low) && Number.isFinite(x.high)).toBe(true);
  });

  it('converges on a disconnected graph of games', () => {
    const fit = fitBradleyTerry([
      { a: 'A', b: 'B', wins: 10, draws: 0, losses: 0 },
      { a: 'C', b: 'D', wins: 10, draws: 0, losses: 0 },
    ]);
    const r = byName(fit);
    expect(fit.converged).toBe(true);
    expect(r.A).toBeCloseTo(r.C, 9);
    expect(r.B).toBeCloseTo(r.D, 9);
    expect(r.A).toBeGreaterThan(0);
  });

  it('rates a listed bot without games near 0 with a wide interval', () => {
    const fit = fitBradleyTerry([{ a: 'A', b: 'B', wins: 30, draws: 0, losses: 10 }], { players: ['idle'] });
    const idle = fit.ratings.find((r) => r.name === 'idle')!;
    const a = fit.ratings.find((r) => r.name === 'A')!;
    expect(idle.games).toBe(0);
    expect(a.games).toBe(40);
    expect(Math.abs(idle.rating)).toBeLessThan(1e-9);
    expect(idle.stderr).toBeGreaterThan(a.stderr);
  });

  it('gives intervals that contain the estimate and shrink with N', () => {
    let previous = Infinity;
    for (const k of [1, 10, 100]) {
      const fit = fitBradleyTerry([
        { a: 'A', b: 'B', wins: 6 * k, draws: 2 * k, losses: 2 * k },
        { a: 'B', b: 'C', wins: 5 * k, draws: 0, losses: 5 * k },
      ]);
      for (const r of fit.ratings) expect(r.low < r.rating && r.rating < r.high).toBe(true);
      const width = fit.ratings[0].high - fit.ratings[0].low;
      expect(width).toBeLessThan(previous);
      previous = width;
    }
  });

  it('recovers the order of true strengths from seeded synthetic outcomes', () => {
    const truth: Record<string, number> = { p0: -300, p1: -150, p2: 0, p3: 100, p4: 220, p5: 400 };
    const names = Object.keys(truth);
    const mean = names.reduce((s, n) => s + truth[n], 0) / names.length;
    const rng = createRng('bradley-terry-synthetic');
    const tallies: PairTally[] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const p = 1 / (1 + 10 ** ((truth[names[j]] - truth[names[i]]) / 400));
        let wins = 0;
        let losses = 0;
        for (let g = 0; g < 300; g++) {
          if (rng.next() / 2 ** 32 < p) wins++;
          else losses++;
        }
        tallies.push({ a: names[i], b: names[j], wins, draws: 0, losses });
      }
    }
    const fit = fitBradleyTerry(tallies);
    expect(fit.converged).toBe(true);
    expect(fit.ratings.map((r) => r.name)).toEqual([...names].reverse());
    for (const r of fit.ratings) {
      expect(Math.abs(r.rating - (truth[r.name] - mean))).toBeLessThan(3 * r.stderr);
    }
    expect(fit.ratings.reduce((s, r) => s + r.rating, 0)).toBeCloseTo(0, 9);
  });

  it('is deterministic and independent of input order', () => {
    const tallies: PairTally[] = [
      { a: 'x', b: 'y', wins: 3, draws: 1, losses: 2 },
      { a: 'y', b: 'z', wins: 4, draws: 0, losses: 1 },
      { a: 'z', b: 'x', wins: 2, draws: 2, losses: 2 },
    ];
    const one = fitBradleyTerry(tallies);
    const two = fitBradleyTerry([...tallies].reverse());
    expect(two).toEqual(one);
  });

  it('returns no ratings for no data and rejects bad input', () => {
    expect(fitBradleyTerry([]).ratings).toEqual([]);
    expect(() => fitBradleyTerry([{ a: 'A', b: 'A', wins: 1, draws: 0, losses: 0 }])).toThrow(/itself/);
    expect(() => fitBradleyTerry([{ a: 'A', b: 'B', wins: -1, draws: 0, losses: 0 }])).toThrow(/bad count/);
    expect(() => fitBradleyTerry([], { priorGames: 0 })).toThrow(/priorGames/);
  });
});
