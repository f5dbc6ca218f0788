import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { NELO_PER_T } from '../../src/stats/match-stats.ts';
import { parseSprt, scoreFromElo, sprtBounds, sprtLlr, sprtState, type EloModel, type SprtParams } from '../../src/stats/sprt.ts';

const design = (elo0: number, elo1: number, model: EloModel): SprtParams => ({ elo0, elo1, alpha: 0.05, beta: 0.05, model });

describe('sprtLlr', () => {
  it('matches an independent oracle on W/D/L triples (two Python methods that agree to 1e-13)', () => {
    // Python 3.11 + scipy 1.17: the constrained maximum likelihood on the 2-simplex, once by the Lagrange
    // (secular) equation with a fixed point for the t-value, once by SLSQP. [W, D, L, elo0, elo1, model, LLR]
    const cases: Array<[number, number, number, number, number, EloModel, number]> = [
      [10, 20, 5, 0, 5, 'normalized', 0.10634648940255431],
      [10, 20, 5, 0, 5, 'logistic', 0.15992748223361275],
      [120, 300, 90, 0, 10, 'normalized', 1.134980020350497],
      [120, 300, 90, 0, 10, 'logistic', 1.5874645438204311],
      [45, 10, 55, -5, 5, 'normalized', -0.30186155702050144],
      [3, 1, 1, 0, 20, 'normalized', 0.1204888288262973],
      [3, 1, 1, 0, 20, 'logistic', 0.13403401424467987],
      [1000, 3000, 900, 0, 2, 'normalized', 0.8432845081206324],
      [40, 5, 3, 0, 20, 'normalized', 2.171305679172576],
    ];
    for (const [wins, draws, losses, elo0, elo1, model, llr] of cases) {
      expect(sprtLlr({ wins, draws, losses }, design(elo0, elo1, model))).toBeCloseTo(llr, 11);
    }
  });

  it('reduces to closed forms by hand when one outcome never happens', () => {
    // No draws, logistic: the binomial SPRT, W ln((1 + δ1)/(1 + δ0)) + L ln((1 − δ1)/(1 − δ0)), δ = 2s − 1.
    const d0 = 2 * scoreFromElo(-10) - 1;
    const d1 = 2 * scoreFromElo(15) - 1;
    expect(sprtLlr({ wins: 30, draws: 0, losses: 22 }, design(-10, 15, 'logistic'))).toBeCloseTo(
      30 * Math.log((1 + d1) / (1 + d0)) + 22 * Math.log((1 - d1) / (1 - d0)),
      12,
    );
    // Only draws, normalized: the best law under t has the decisive share t²/(1 + t²), so
    // LLR = D·(ln(1 + t0²) − ln(1 + t1²)): draws are evidence against any non-zero t.
    const t1 = 20 / NELO_PER_T;
    expect(sprtLlr({ wins: 0, draws: 500, losses: 0 }, design(0, 20, 'normalized'))).toBeCloseTo(-500 * Math.log(1 + t1 * t1), 12);
    // Only draws, logistic: decisive share |δ|, LLR = D·(ln(1 − |δ1|) − ln(1 − |δ0|)).
    expect(sprtLlr({ wins: 0, draws: 50, losses: 0 }, design(0, 10, 'logistic'))).toBeCloseTo(50 * Math.log(2 - 2 * scoreFromElo(10)), 12);
    expect(sprtLlr({ wins: 0, draws: 0, losses: 0 }, design(0, 5, 'normalized'))).toBe(0);
  });

  it('grows with wins and falls with losses', () => {
    const p = design(0, 5, 'normalized');
    const base = sprtLlr({ wins: 40, draws: 100, losses: 40 }, p);
    expect(sprtLlr({ wins: 41, draws: 100, losses: 40 }, p)).toBeGreaterThan(base);
    expect(sprtLlr({ wins: 40, draws: 100, losses: 41 }, p)).toBeLessThan(base);
  });
});

describe('sprtState', () => {
  it("uses Wald's bounds and decides at them", () => {
    expect(sprtBounds(0.05, 0.05).upper).toBeCloseTo(Math.log(19), 14);
    expect(sprtBounds(0.05, 0.05).lower).toBeCloseTo(-Math.log(19), 14);
    expect(sprtBounds(0.05, 0.1)).toEqual({ lower: Math.log(0.1 / 0.95), upper: Math.log(0.9 / 0.05) });
    const p = design(0, 20, 'normalized');
    expect(sprtState({ wins: 40, draws: 5, losses: 3 }, p).decision).toBe(null); // LLR 2.17
    expect(sprtState({ wins: 60, draws: 5, losses: 3 }, p).decision).toBe('H1');
    expect(sprtState({ wins: 3, draws: 5, losses: 60 }, p).decision).toBe('H0');
  });

  // Simulated matches from a known W/D/L law, each run until the test decides: with the true difference at
  // elo0 it should accept H1 in about alpha of the runs, at elo1 in about 1 − beta. Seeded, so the counts
  // are fixed; the bounds (±4 standard errors of 1000 runs around the nominal rates) would catch a wrong
  // bound, a wrong sign or a wrong scale, which move the rates by far more.
  for (const model of ['normalized', 'logistic'] as const) {
    it(`has error rates near alpha and beta in simulation (${model})`, () => {
      const p = design(0, 60, model);
      const runs = 1000;
      for (const truth of [p.elo0, p.elo1]) {
        const [pWin, pLoss] = lawWithDraws(p.model, truth, 0.4);
        const rng = createRng(`sprt-${model}-${truth}`);
        let acceptH1 = 0;
        for (let r = 0; r < runs; r++) {
          let wins = 0;
          let draws = 0;
          let losses = 0;
          let decision: 'H0' | 'H1' | null = null;
          for (let g = 0; g < 20_000 && decision === null; g++) {
            const x = rng.next() / 2 ** 32;
            if (x < pWin) wins++;
            else if (x < pWin + pLoss) losses++;
            else draws++;
            decision = sprtState({ wins, draws, losses }, p).decision;
          }
          expect(decision).not.toBe(null);
          if (decision === 'H1') acceptH1++;
        }
        const rate = acceptH1 / runs;
        const expected = truth === p.elo0 ? p.alpha : 1 - p.beta;
        expect(Math.abs(rate - expected), `H1 accepted in ${rate} of runs at ${truth}`).toBeLessThan(0.03);
      }
    });
  }
});

describe('parseSprt', () => {
  it('reads the design with defaults', () => {
    expect(parseSprt('elo0=0,elo1=5')).toEqual({ ok: true, value: { elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05, model: 'normalized' } });
    expect(parseSprt(' model=logistic, beta=0.1 ,elo1=2.5,elo0=-1.5,alpha=0.01')).toEqual({
      ok: true,
      value: { elo0: -1.5, elo1: 2.5, alpha: 0.01, beta: 0.1, model: 'logistic' },
    });
  });

  it('rejects bad designs with a reason naming the field', () => {
    const bad: Array<[string, RegExp]> = [
      ['elo1=5', /missing elo0/],
      ['elo0=5,elo1=5', /below elo1/],
      ['elo0=0,elo1=x', /elo1 must be a number/],
      ['elo0=0,elo1=5,alpha=0', /alpha must be between/],
      ['elo0=0,elo1=5,alpha=0.6,beta=0.5', /alpha \+ beta/],
      ['elo0=0,elo1=5,model=bayes', /model must be/],
      ['elo0=0,elo1=5,gamma=1', /unknown key "gamma"/],
      ['elo0=0,elo0=1,elo1=5', /given twice/],
      ['elo0,elo1=5', /expected key=value/],
      ['elo0=0,elo1=5000', /between −1000 and 1000/],
    ];
    for (const [text, reason] of bad) {
      const r = parseSprt(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.reason, text).toMatch(reason);
    }
  });
});

/** P(win), P(loss) of a law with the given draw ratio whose true difference is `elo` on the model's scale. */
function lawWithDraws(model: EloModel, elo: number, drawRatio: number): [number, number] {
  const u = 1 - drawRatio;
  let delta: number;
  if (model === 'logistic') delta = 2 * scoreFromElo(elo) - 1;
  else {
    // t = (E[x] − 1/2)/σ with σ² = (u − δ²)/4 ⇒ δ = t·√(u/(1 + t²)).
    const t = elo / NELO_PER_T;
    delta = t * Math.sqrt(u / (1 + t * t));
  }
  return [(u + delta) / 2, (u - delta) / 2];
}
