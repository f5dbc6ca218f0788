import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { SwapsState } from '../../src/core/types.ts';
import { swaps } from '../../src/puzzles/swaps/index.ts';
import { swapsCycles, swapsDistance, swapsGreedy } from '../../src/puzzles/swaps/cycles.ts';
import { SwapsReplayer } from '../../src/puzzles/swaps/replayer.ts';

const state = (rows: number, cols: number, tiles: number[]): SwapsState => ({ kind: 'swaps', rows, cols, tiles });

/** Seed 004's figure 1, rebuilt: applying its solution (6,7),(2,4),(1,5),(3,8),(5,9) backwards to the goal. */
const SEED_START = [5, 4, 8, 2, 9, 7, 6, 3, 1];
const SEED_SOLUTION: Array<[number, number]> = [[6, 7], [2, 4], [1, 5], [3, 8], [5, 9]];

/** Independent oracle: BFS over all permutations of n pieces with every transposition as a move. */
function bfsDistances(n: number): Map<string, number> {
  const goal = Array.from({ length: n }, (_, i) => i + 1);
  const dist = new Map<string, number>([[goal.join(','), 0]]);
  const queue = [goal];
  for (let q = 0; q < queue.length; q++) {
    const cur = queue[q];
    const d = dist.get(cur.join(','))!;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const next = cur.slice();
        next[i] = cur[j];
        next[j] = cur[i];
        const key = next.join(',');
        if (!dist.has(key)) {
          dist.set(key, d + 1);
          queue.push(next);
        }
      }
    }
  }
  return dist;
}

describe('swaps.parse', () => {
  it('accepts permutations of 1..R*C', () => {
    expect(swaps.parse(state(3, 3, SEED_START))).toEqual({ ok: true, value: state(3, 3, SEED_START) });
    expect(swaps.parse(state(1, 2, [2, 1])).ok).toBe(true);
  });

  it('rejects bad input with a one-line reason', () => {
    const cases: [unknown, RegExp][] = [
      [null, /JSON object/],
      [[1, 2, 3], /JSON object/],
      [{ kind: 'hanoi', rows: 1, cols: 2, tiles: [1, 2] }, /expected kind "swaps"/],
      [{ kind: 'swaps', rows: 0, cols: 2, tiles: [] }, /"rows" must be an integer from 1 to 1000, got 0/],
      [{ kind: 'swaps', rows: 2, cols: 1001, tiles: [] }, /"cols" must be an integer from 1 to 1000, got 1001/],
      [{ kind: 'swaps', rows: '2', cols: 2, tiles: [] }, /"rows" must be an integer/],
      [{ kind: 'swaps', rows: 1, cols: 1, tiles: [1] }, /at least 2 pieces/],
      [{ kind: 'swaps', rows: 2, cols: 2, tiles: 'abcd' }, /"tiles" must be an array/],
      [{ kind: 'swaps', rows: 2, cols: 2, tiles: [1, 2, 3] }, /3 entries, expected 4 \(2x2\)/],
      [{ kind: 'swaps', rows: 2, cols: 2, tiles: [1, 2, 3, 2.5] }, /tiles\[3\] is 2.5; pieces are the integers 1..4/],
      [{ kind: 'swaps', rows: 2, cols: 2, tiles: [0, 2, 3, 4] }, /tiles\[0\] is 0/],
      [{ kind: 'swaps', rows: 2, cols: 2, tiles: [1, 2, 3, 5] }, /tiles\[3\] is 5/],
      [{ kind: 'swaps', rows: 2, cols: 2, tiles: [1, 2, 2, 4] }, /piece 2 appears twice \(again at tiles\[2\]\)/],
    ];
    for (const [json, reason] of cases) {
      const r = swaps.parse(json);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toMatch(reason);
        expect(r.reason).not.toContain('\n');
      }
    }
  });
});

describe('swaps.normalizeSpec', () => {
  it('expands size and checks ranges', () => {
    expect(swaps.normalizeSpec({ kind: 'swaps', size: 3 })).toEqual({ ok: true, value: { kind: 'swaps', rows: 3, cols: 3 } });
    expect(swaps.normalizeSpec({ kind: 'swaps', rows: 2, cols: 5 })).toEqual({ ok: true, value: { kind: 'swaps', rows: 2, cols: 5 } });
    for (const spec of [{ rows: 2 }, { size: 0 }, { size: 1001 }, { rows: 1, cols: 2 }, { size: 1.5 }]) {
      expect(swaps.normalizeSpec({ kind: 'swaps', ...spec }).ok).toBe(false);
    }
  });
});

describe('swaps moves notation', () => {
  it("parses compact JSON and seed 004's (a,b) text form", () => {
    expect(swaps.parseMoves('[[6,7],[2,4]]')).toEqual({ ok: true, value: [[6, 7], [2, 4]] });
    expect(swaps.parseMoves('(6,7), (2,4), (1,5),(3,8) (5, 9)')).toEqual({ ok: true, value: SEED_SOLUTION });
    expect(swaps.parseMoves('  ')).toEqual({ ok: true, value: [] });
    expect(swaps.formatMoves(SEED_SOLUTION)).toBe('[[6,7],[2,4],[1,5],[3,8],[5,9]]');
  });

  it('round-trips format and parse', () => {
    const moves = swapsGreedy(swaps.scramble({ kind: 'swaps', rows: 5, cols: 7 }, createRng(9)).tiles);
    expect(swaps.parseMoves(swaps.formatMoves(moves))).toEqual({ ok: true, value: moves });
    const text = moves.map(([a, b]) => `(${a},${b})`).join(', ');
    const parsed = swaps.parseMoves(text);
    expect(parsed.ok && swaps.formatMoves(parsed.value)).toBe(swaps.formatMoves(moves));
  });

  it('rejects malformed text', () => {
    const cases: [string, RegExp][] = [
      ['[[6,7],[2,4]', /not valid JSON/],
      ['{"a":1}', /expected "\(a,b\)" at character 0/],
      ['[[6,7],[2]]', /move 1: expected a pair of piece numbers \[a,b\], got \[2\]/],
      ['[[6,7],[2,"4"]]', /move 1: expected a pair/],
      ['[[0,1]]', /move 0: expected a pair/],
      ['(6,7), (2;4)', /move 1: expected "\(a,b\)" at character 5/],
    ];
    for (const [text, reason] of cases) {
      const r = swaps.parseMoves(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    }
  });
});

describe('swaps.replayer', () => {
  it("solves seed 004's example with its five swaps, the optimum", () => {
    const s = state(3, 3, SEED_START);
    expect(swapsCycles(SEED_START)).toBe(4);
    expect(swaps.bound(s)).toEqual({ optimal: 5, lowerBound: 5 });
    expect(swaps.replay(s, SEED_SOLUTION)).toEqual({ verdict: 'solved', moves: 5 });
    // Seed 004's second example: no piece home, yet only n/2 swaps.
    expect(swaps.bound(state(3, 4, [2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11])).optimal).toBe(6);
  });

  it('catches each illegal move at its index, counting across chunks', () => {
    const s = state(3, 3, SEED_START);
    const bad: [unknown, string][] = [
      [[6], 'move 2: expected a pair of piece numbers [a,b], got [6]'],
      ['67', 'move 2: expected a pair of piece numbers [a,b], got "67"'],
      [[6, 1.5], 'move 2: [6,1.5]: piece numbers must be integers'],
      [[6, 10], 'move 2: [6,10]: unknown piece 10 (pieces are 1..9)'],
      [[0, 3], 'move 2: [0,3]: unknown piece 0 (pieces are 1..9)'],
      [[4, 4], 'move 2: [4,4]: a piece cannot be swapped with itself'],
    ];
    for (const [move, reason] of bad) {
      const r = swaps.replayer(s);
      expect(r.push([[6, 7]])).toBeNull();
      const rej = r.push([[2, 4], move as [number, number], [1, 5]]);
      expect(rej).toEqual({ ok: false, code: 'illegal-move', reason, index: 2 });
      expect(r.push([[1, 5]])).toBe(rej);
      expect(r.finish()).toEqual({ verdict: 'invalid', moves: 2, index: 2, reason });
    }
    const r = swaps.replayer(s);
    expect(r.push('[[6,7]]')?.index).toBe(0);
    expect(swaps.replay(s, [[6, 7]])).toEqual({ verdict: 'invalid', moves: 1, reason: 'not solved after the last move: 7 piece(s) misplaced' });
  });

  it('tracks misplaced pieces through random swaps (checked against a full scan)', () => {
    const rng = createRng(11);
    const s = swaps.scramble({ kind: 'swaps', rows: 4, cols: 4 }, rng);
    const r = new SwapsReplayer(s);
    for (let i = 0; i < 500; i++) {
      const a = 1 + rng.int(16);
      const b = 1 + ((a + rng.int(15)) % 16);
      expect(r.push([[a, b]])).toBeNull();
      const cur = r.current();
      expect(r.isSolved()).toBe(cur.every((t, idx) => t === idx + 1));
    }
    const fix = swapsGreedy(r.current());
    expect(r.push(fix)).toBeNull();
    expect(r.isSolved()).toBe(true);
  });
});

describe('swaps bound and greedy', () => {
  it('bound equals BFS distance for every permutation of up to 6 pieces', () => {
    for (let n = 2; n <= 6; n++) {
      for (const [key, d] of bfsDistances(n)) {
        expect(swapsDistance(key.split(',').map(Number))).toBe(d);
      }
    }
  });

  it('greedy cycle-following uses exactly n - cycles swaps and solves every scramble', () => {
    for (let seed = 0; seed < 300; seed++) {
      const s = swaps.scramble({ kind: 'swaps', rows: 1 + (seed % 9), cols: 3 + (seed % 7) }, createRng(seed));
      const moves = swapsGreedy(s.tiles);
      expect(moves.length).toBe(s.tiles.length - swapsCycles(s.tiles));
      expect(swaps.replay(s, moves)).toEqual({ verdict: 'solved', moves: moves.length });
    }
  });
});

describe('swaps.scramble', () => {
  it('gives valid permutations at least 2 swaps away, over thousands of seeds', () => {
    for (let seed = 0; seed < 3000; seed++) {
      const s = swaps.scramble({ kind: 'swaps', rows: 1 + (seed % 4), cols: 3 }, createRng(seed));
      expect(swaps.parse(JSON.parse(JSON.stringify(s)))).toEqual({ ok: true, value: s });
      expect(swaps.bound(s).optimal).toBeGreaterThanOrEqual(2);
    }
  });

  it('is reproducible and pinned for seed 1', () => {
    const a = swaps.scramble({ kind: 'swaps', rows: 3, cols: 3 }, createRng(1));
    expect(swaps.scramble({ kind: 'swaps', rows: 3, cols: 3 }, createRng(1))).toEqual(a);
    expect(a.tiles).toEqual([4, 3, 5, 7, 2, 6, 1, 8, 9]);
  });

  it('puts every piece on every cell uniformly (chi-square, 8 dof, p = 0.001)', () => {
    const n = 9;
    const samples = 9000;
    const counts = Array.from({ length: n + 1 }, () => new Array<number>(n).fill(0));
    const rng = createRng(77);
    for (let i = 0; i < samples; i++) {
      const t = swaps.scramble({ kind: 'swaps', rows: 3, cols: 3 }, rng).tiles;
      for (let c = 0; c < n; c++) counts[t[c]][c]++;
    }
    const critical = 26.124; // chi-square quantile, 8 degrees of freedom, p = 0.001
    const expected = samples / n;
    for (let p = 1; p <= n; p++) {
      const chi2 = counts[p].reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
      expect(chi2).toBeLessThan(critical);
    }
  });
});

describe('swaps.walk', () => {
  it('makes k swaps: the optimum is at most k and has the parity of k', () => {
    for (let seed = 0; seed < 200; seed++) {
      const k = seed % 12;
      const s = swaps.walk({ kind: 'swaps', rows: 4, cols: 5 }, k, createRng(seed));
      expect(swaps.parse(s).ok).toBe(true);
      const d = swaps.bound(s).optimal!;
      expect(d).toBeLessThanOrEqual(k);
      expect((k - d) % 2).toBe(0);
    }
    expect(swaps.walk({ kind: 'swaps', rows: 1, cols: 2 }, 3, createRng(1)).tiles).toEqual([2, 1]);
  });
});

describe('swaps.describe and className', () => {
  it('draws a grid and names the class', () => {
    const s = state(3, 3, SEED_START);
    expect(swaps.className(s)).toBe('swaps 3x3');
    expect(swaps.describe(s)).toBe('5 4 8\n2 9 7\n6 3 1');
    expect(swaps.isSolved(swaps.goal({ kind: 'swaps', rows: 2, cols: 3 }))).toBe(true);
    expect(swaps.isSolved(s)).toBe(false);
    const big = swaps.goal({ kind: 'swaps', rows: 100, cols: 100 });
    expect(swaps.describe(big).split('\n').length).toBe(31);
  });
});
