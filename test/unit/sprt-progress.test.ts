import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { headToHead, tally, type ScoredResult } from '../../src/stats/match-stats.ts';
import { sprtLlr, type SprtParams } from '../../src/stats/sprt.ts';
import { sprtProgress, sprtTrace } from '../../src/stats/sprt-progress.ts';

const params: SprtParams = { elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05, model: 'normalized' };
const row = (scrambleId: number, bot: string, moveCount: number): ScoredResult =>
  ({ scrambleId, bot, verdict: 'solved', moveCount, wallMs: 10 }) as ScoredResult;

/** a beats b on every scramble (fewer moves). */
function winsFor(n: number, ids: number[] = Array.from({ length: n }, (_, i) => i)): ScoredResult[] {
  return ids.flatMap((id) => [row(id, 'a', 20), row(id, 'b', 30)]);
}

describe('sprtProgress', () => {
  it('decides at the first scramble where the LLR crosses a bound, and counts nothing after it', () => {
    const order = Array.from({ length: 200 }, (_, i) => i);
    const p = sprtProgress(params, 'a', 'b', order, winsFor(200));
    expect(p.decision).toBe('H1');
    // By hand: all wins, so LLR(k) = sprtLlr(k-0-0) rises by the same step; the first k past ln 19.
    let k = 1;
    while (sprtLlr({ wins: k, draws: 0, losses: 0 }, params) < Math.log(19)) k++;
    expect(p.scrambles).toBe(k);
    expect(p.wdl).toEqual({ wins: k, draws: 0, losses: 0 });
    expect(p.llr).toBeGreaterThanOrEqual(p.upper);
    expect(p.lower).toBeCloseTo(-Math.log(19), 12);
    // From b's side it is the mirror: H0.
    expect(sprtProgress(params, 'b', 'a', order, winsFor(200)).decision).toBe('H0');
  });

  it('stops at the first scramble without both results, whatever finished after it', () => {
    const order = Array.from({ length: 60 }, (_, i) => i);
    // Scrambles 0..9 complete, 10 has only a's result, 11..59 complete (a concurrent worker ran ahead).
    const rows = [...winsFor(10), row(10, 'a', 20), ...winsFor(0, Array.from({ length: 49 }, (_, i) => 11 + i))];
    const p = sprtProgress(params, 'a', 'b', order, rows);
    expect(p.scrambles).toBe(10);
    expect(p.decision).toBe(null);
    // Once scramble 10 is answered, the prefix runs on: the same result as a run that never stopped.
    const full = sprtProgress(params, 'a', 'b', order, [...rows, row(10, 'b', 30)]);
    expect(full).toEqual(sprtProgress(params, 'a', 'b', order, winsFor(60)));
  });

  it('follows the given scramble order, not the order of the rows', () => {
    const order = [5, 3, 9];
    const rows = [row(9, 'a', 1), row(9, 'b', 2), row(3, 'b', 1), row(3, 'a', 2), row(5, 'a', 4), row(5, 'b', 4)];
    expect(sprtProgress(params, 'a', 'b', order, rows.reverse()).wdl).toEqual({ wins: 1, draws: 1, losses: 1 });
    expect(sprtProgress(params, 'a', 'b', [], rows)).toMatchObject({ scrambles: 0, llr: 0, decision: null });
  });
});

describe('sprtTrace', () => {
  /** Mixed random outcomes: wins, draws (equal moves and times) and losses, seeded. */
  function mixed(seed: string, n: number): ScoredResult[] {
    const rng = createRng(seed);
    return Array.from({ length: n }, (_, id) => {
      const o = rng.int(3);
      return [row(id, 'a', 20), row(id, 'b', o === 0 ? 30 : o === 1 ? 20 : 10)];
    }).flat();
  }

  it('holds the LLR of every prefix, recomputed from its own W-D-L, and ends where sprtProgress ends', () => {
    for (let s = 0; s < 40; s++) {
      const n = 5 + s * 7;
      const order = Array.from({ length: n }, (_, i) => i);
      const rows = mixed(`trace ${s}`, n);
      const p = sprtProgress(params, 'a', 'b', order, rows);
      const t = sprtTrace(params, 'a', 'b', order, rows);
      const { trace, ...rest } = t;
      expect(rest).toEqual(p);
      expect(trace).toHaveLength(p.scrambles);
      for (let k = 1; k <= trace.length; k++) {
        const prefix = rows.filter((r) => r.scrambleId < k);
        const wdl = tally(headToHead(prefix, 'a', 'b'));
        expect(trace[k - 1]).toBe(sprtLlr(wdl, params));
      }
      // Undecided until the last point; the last point is the one that crossed, when the test decided.
      expect(trace.slice(0, -1).every((x) => x > p.lower && x < p.upper)).toBe(true);
      if (p.decision) expect(trace.at(-1)! >= p.upper || trace.at(-1)! <= p.lower).toBe(true);
    }
  });

  it('is empty before both bots answered the first scramble', () => {
    const t = sprtTrace(params, 'a', 'b', [0, 1], [row(0, 'a', 20), row(1, 'a', 20), row(1, 'b', 21)]);
    expect(t.trace).toEqual([]);
    expect(t.scrambles).toBe(0);
  });
});
