import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { HanoiState } from '../../src/core/types.ts';
import { hanoi } from '../../src/puzzles/hanoi/index.ts';
import { HanoiReplayer } from '../../src/puzzles/hanoi/replayer.ts';
import { hanoiWalk } from '../../src/puzzles/hanoi/walk.ts';

const state = (start: string, goal: string): HanoiState => ({ kind: 'hanoi', pegs: 3, start, goal });

/**
 * Independent optimal solver by plain recursion on a mutable peg array: gather onto one peg (seed 002's
 * "any start onto Z"), and spread from a tower as the reverse of gathering the goal. For the largest
 * differing disc both plans (move it once, or twice via the third peg) are generated and the shorter kept.
 */
function solve(start: string, goal: string): string {
  const n = start.length;
  const gather = (cfg: number[], k: number, peg: number, out: string[]): void => {
    if (k === 0) return;
    const d = k - 1;
    if (cfg[d] === peg) return gather(cfg, d, peg, out);
    const other = 3 - cfg[d] - peg;
    gather(cfg, d, other, out);
    out.push('ABC'[cfg[d]] + 'ABC'[peg]);
    cfg[d] = peg;
    tower(cfg, d, other, peg, out);
  };
  const tower = (cfg: number[], k: number, from: number, to: number, out: string[]): void => {
    if (k === 0) return;
    const via = 3 - from - to;
    tower(cfg, k - 1, from, via, out);
    out.push('ABC'[from] + 'ABC'[to]);
    cfg[k - 1] = to;
    tower(cfg, k - 1, via, to, out);
  };
  const pegs = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) - 65);
  const spread = (k: number, peg: number, out: string[]): void => {
    const back: string[] = [];
    gather(pegs(goal), k, peg, back);
    for (let i = back.length - 1; i >= 0; i--) out.push(back[i][1] + back[i][0]);
  };
  let d = n - 1;
  while (d >= 0 && start[d] === goal[d]) d--;
  if (d < 0) return '';
  const s = start.charCodeAt(d) - 65;
  const t = goal.charCodeAt(d) - 65;
  const r = 3 - s - t;
  const once: string[] = [];
  gather(pegs(start), d, r, once);
  once.push('ABC'[s] + 'ABC'[t]);
  spread(d, r, once);
  const twice: string[] = [];
  const cfg = pegs(start);
  gather(cfg, d, t, twice);
  twice.push('ABC'[s] + 'ABC'[r]);
  tower(cfg, d, t, s, twice);
  twice.push('ABC'[r] + 'ABC'[t]);
  spread(d, s, twice);
  return (once.length <= twice.length ? once : twice).join('');
}

/** The inverse of a move string: pairs reversed in order, each pair's letters swapped. */
function invert(moves: string): string {
  let out = '';
  for (let i = moves.length - 2; i >= 0; i -= 2) out += moves[i + 1] + moves[i];
  return out;
}

describe('hanoi.parse', () => {
  it('accepts every peg string of 1 to 24 discs, with or without pegs', () => {
    expect(hanoi.parse({ kind: 'hanoi', pegs: 3, start: 'BCC', goal: 'CCC' })).toEqual({ ok: true, value: state('BCC', 'CCC') });
    expect(hanoi.parse({ kind: 'hanoi', start: 'A', goal: 'B' }).ok).toBe(true);
    expect(hanoi.parse({ kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) }).ok).toBe(true);
  });

  it('rejects bad input with a one-line reason', () => {
    const cases: [unknown, RegExp][] = [
      [null, /JSON object/],
      [[1, 2], /JSON object/],
      ['BCC', /JSON object/],
      [{ kind: 'swaps', start: 'A', goal: 'A' }, /expected kind "hanoi"/],
      [{ kind: 'hanoi', pegs: 4, start: 'A', goal: 'A' }, /"pegs" must be 3/],
      [{ kind: 'hanoi', start: 7, goal: 'A' }, /"start" must be a string/],
      [{ kind: 'hanoi', start: 'A' }, /"goal" must be a string/],
      [{ kind: 'hanoi', start: '', goal: '' }, /0 discs; expected 1 to 24/],
      [{ kind: 'hanoi', start: 'A'.repeat(25), goal: 'A'.repeat(25) }, /25 discs/],
      [{ kind: 'hanoi', start: 'ABD', goal: 'CCC' }, /unknown peg letter "D" for disc 3/],
      [{ kind: 'hanoi', start: 'abc', goal: 'CCC' }, /unknown peg letter "a" for disc 1/],
      [{ kind: 'hanoi', start: 'AB', goal: 'CCC' }, /"start" has 2 discs but "goal" has 3/],
    ];
    for (const [json, reason] of cases) {
      const r = hanoi.parse(json);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).toMatch(reason);
        expect(r.reason).not.toContain('\n');
      }
    }
  });
});

describe('hanoi.normalizeSpec', () => {
  it('fills in randomGoal and validates discs', () => {
    expect(hanoi.normalizeSpec({ kind: 'hanoi', discs: 12 })).toEqual({ ok: true, value: { kind: 'hanoi', discs: 12, randomGoal: false } });
    expect(hanoi.normalizeSpec({ kind: 'hanoi', discs: 3, randomGoal: true })).toEqual({ ok: true, value: { kind: 'hanoi', discs: 3, randomGoal: true } });
    for (const discs of [undefined, 0, 1, 25, 2.5]) {
      const r = hanoi.normalizeSpec({ kind: 'hanoi', discs });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/discs/);
    }
    const bad = hanoi.normalizeSpec({ kind: 'hanoi', discs: 3, randomGoal: 'yes' as unknown as boolean });
    expect(bad.ok).toBe(false);
  });
});

describe('hanoi moves notation', () => {
  it('parses spaced, comma-separated and lower-case pairs into the compact wire string', () => {
    expect(hanoi.parseMoves('AC AB, CB')).toEqual({ ok: true, value: 'ACABCB' });
    expect(hanoi.parseMoves('ac,ab,\ncb')).toEqual({ ok: true, value: 'ACABCB' });
    expect(hanoi.parseMoves('')).toEqual({ ok: true, value: '' });
  });

  it('rejects unknown letters and an odd letter count', () => {
    const odd = hanoi.parseMoves('ACA');
    expect(!odd.ok && odd.reason).toMatch(/odd number of peg letters \(3\)/);
    const unknown = hanoi.parseMoves('AC AD');
    expect(!unknown.ok && unknown.reason).toMatch(/unknown peg letter "D" at character 4/);
  });

  it('round-trips format(parse(x)) and parse(format(m)) on random walks', () => {
    const rng = createRng(7);
    for (let i = 0; i < 50; i++) {
      const { moves } = hanoiWalk('CCCCCC', 40, rng);
      expect(hanoi.parseMoves(hanoi.formatMoves(moves))).toEqual({ ok: true, value: moves });
      const spaced = moves.replace(/(..)/g, '$1 ').toLowerCase();
      const parsed = hanoi.parseMoves(spaced);
      expect(parsed.ok && hanoi.formatMoves(parsed.value)).toBe(moves);
    }
  });
});

describe('hanoi.replayer', () => {
  it('validates the 2^n - 1 optimal tower solution and reports solved', () => {
    for (let n = 1; n <= 14; n++) {
      const moves = solve('A'.repeat(n), 'C'.repeat(n));
      expect(moves.length / 2).toBe(2 ** n - 1);
      expect(hanoi.replay(state('A'.repeat(n), 'C'.repeat(n)), moves)).toEqual({ verdict: 'solved', moves: 2 ** n - 1 });
    }
  });

  it('catches each illegal move at its index with a clear reason', () => {
    const s = state('AAA', 'CCC');
    const cases: [string, number, string][] = [
      ['ACAX', 1, "move 1: unknown peg letter \"X\" (pegs are A, B, C)"],
      ['ACAA', 1, "move 1 'AA': peg A onto itself"],
      ['ACBA', 1, "move 1 'BA': peg B is empty"],
      ['ACAC', 1, "move 1 'AC': disc 2 cannot go onto disc 1"],
      ['ACABCBAB', 3, "move 3 'AB': disc 3 cannot go onto disc 1"],
      ['ACABCBACBABCCA', 6, "move 6 'CA': disc 2 cannot go onto disc 1"],
    ];
    for (const [moves, index, reason] of cases) {
      const out = hanoi.replay(s, moves);
      expect(out).toEqual({ verdict: 'invalid', moves: index, index, reason });
    }
  });

  it('completes a pair split across chunks and finds the illegal move across boundaries', () => {
    const n = 6;
    const moves = solve('A'.repeat(n), 'C'.repeat(n));
    for (const size of [1, 3, 5, 64]) {
      const r = hanoi.replayer(state('A'.repeat(n), 'C'.repeat(n)));
      for (let i = 0; i < moves.length; i += size) expect(r.push(moves.slice(i, i + size))).toBeNull();
      expect(r.count).toBe(63);
      expect(r.isSolved()).toBe(true);
      expect(r.finish()).toEqual({ verdict: 'solved', moves: 63 });
    }
    // Corrupt move 20 (its destination letter) and feed in odd-sized chunks.
    const bad = moves.slice(0, 41) + 'X' + moves.slice(42);
    const r = hanoi.replayer(state('A'.repeat(n), 'C'.repeat(n)));
    let rejection = null;
    for (let i = 0; i < bad.length && !rejection; i += 3) rejection = r.push(bad.slice(i, i + 3));
    expect(rejection?.index).toBe(20);
    expect(r.push('AB')).toBe(rejection);
    expect(r.finish()).toMatchObject({ verdict: 'invalid', index: 20, moves: 20 });
  });

  it('rejects an illegal pair completed by the next chunk at the right index', () => {
    const r = hanoi.replayer(state('AAA', 'CCC'));
    expect(r.push('ACA')).toBeNull();
    expect(r.push('XAB')).toEqual({ ok: false, code: 'bad-notation', index: 1, reason: 'move 1: unknown peg letter "X" (pegs are A, B, C)' });
    const r2 = hanoi.replayer(state('AAA', 'CCC'));
    expect(r2.push('ACA')).toBeNull();
    expect(r2.push('C')).toMatchObject({ index: 1, reason: "move 1 'AC': disc 2 cannot go onto disc 1" });
    expect(r2.count).toBe(1);
  });

  it('rejects a dangling letter, a non-string chunk, and an unsolved end', () => {
    const r = hanoi.replayer(state('AA', 'CC'));
    expect(r.push('AB')).toBeNull();
    expect(r.push('A')).toBeNull();
    expect(r.finish()).toEqual({ verdict: 'invalid', moves: 1, index: 1, reason: "move 1: dangling peg letter 'A' at the end (a move is two letters)" });
    const r2 = hanoi.replayer(state('AA', 'CC'));
    expect(r2.push([[1, 2]])?.index).toBe(0);
    expect(hanoi.replay(state('AA', 'CC'), 'AB')).toMatchObject({ verdict: 'invalid', moves: 1 });
    expect(hanoi.replay(state('AA', 'CC'), 'AB')).not.toHaveProperty('index');
  });

  it('tracks the position: replaying a walk ends where the walk says', () => {
    const rng = createRng(3);
    for (let i = 0; i < 100; i++) {
      const { end, moves } = hanoiWalk('CCCCC', 30, rng);
      const r = new HanoiReplayer(state('CCCCC', end));
      expect(r.push(moves)).toBeNull();
      expect(r.current()).toBe(end);
      expect(r.isSolved()).toBe(true);
    }
  });
});

describe('hanoi.scramble', () => {
  it('gives valid states at least 2 moves away, over thousands of seeds', () => {
    for (let seed = 0; seed < 3000; seed++) {
      const rng = createRng(seed);
      const discs = 2 + (seed % 10);
      const s = hanoi.scramble({ kind: 'hanoi', discs, randomGoal: seed % 2 === 0 }, rng);
      expect(hanoi.parse(JSON.parse(JSON.stringify(s)))).toEqual({ ok: true, value: s });
      expect(s.start.length).toBe(discs);
      if (seed % 2 === 1) expect(s.goal).toBe('C'.repeat(discs));
      expect(hanoi.bound(s).optimal).toBeGreaterThanOrEqual(2);
      expect(hanoi.isSolved(s)).toBe(false);
    }
  });

  it('is reproducible and pinned for seed 1', () => {
    const a = hanoi.scramble({ kind: 'hanoi', discs: 12 }, createRng(1));
    const b = hanoi.scramble({ kind: 'hanoi', discs: 12 }, createRng(1));
    expect(a).toEqual(b);
    expect(a).toEqual(state('CCACAABABCAA', 'CCCCCCCCCCCC'));
    expect(hanoi.scramble({ kind: 'hanoi', discs: 8, randomGoal: true }, createRng(1))).toEqual(state('CCACAABA', 'BCAABABC'));
  });

  it('draws a uniform peg per disc (chi-square, 2 dof, p = 0.001)', () => {
    const n = 8;
    const samples = 6000;
    const startCounts = Array.from({ length: n }, () => [0, 0, 0]);
    const goalCounts = Array.from({ length: n }, () => [0, 0, 0]);
    const rng = createRng(2024);
    for (let i = 0; i < samples; i++) {
      const s = hanoi.scramble({ kind: 'hanoi', discs: n, randomGoal: true }, rng);
      for (let d = 0; d < n; d++) {
        startCounts[d][s.start.charCodeAt(d) - 65]++;
        goalCounts[d][s.goal.charCodeAt(d) - 65]++;
      }
    }
    const critical = 13.816; // chi-square quantile, 2 degrees of freedom, p = 0.001
    const expected = samples / 3;
    for (const counts of [...startCounts, ...goalCounts]) {
      const chi2 = counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
      expect(chi2).toBeLessThan(critical);
    }
  });

  it('is solved by the recursive optimal solution in exactly bound() moves', () => {
    for (let seed = 0; seed < 200; seed++) {
      const s = hanoi.scramble({ kind: 'hanoi', discs: 3 + (seed % 8), randomGoal: seed % 3 !== 0 }, createRng(seed));
      const moves = solve(s.start, s.goal);
      expect(moves.length / 2).toBe(hanoi.bound(s).optimal);
      expect(hanoi.replay(s, moves)).toEqual({ verdict: 'solved', moves: moves.length / 2 });
    }
  });
});

describe('hanoi.walk', () => {
  it('walks k legal moves from the goal; the inverse walk solves it', () => {
    for (let seed = 0; seed < 100; seed++) {
      const rng = createRng(seed);
      const { end, moves } = hanoiWalk('CCCCCCC', 25, rng);
      expect(moves.length).toBe(50);
      for (let i = 2; i < moves.length; i += 2) expect(moves[i] + moves[i + 1]).not.toBe(moves[i - 1] + moves[i - 2]);
      const s = state(end, 'CCCCCCC');
      expect(hanoi.bound(s).optimal).toBeLessThanOrEqual(25);
      expect(hanoi.replay(s, invert(moves))).toEqual({ verdict: 'solved', moves: 25 });
    }
    const w = hanoi.walk({ kind: 'hanoi', discs: 5 }, 10, createRng(5));
    expect(w.goal).toBe('CCCCC');
    expect(hanoi.parse(w).ok).toBe(true);
    expect(hanoi.walk({ kind: 'hanoi', discs: 5 }, 10, createRng(5))).toEqual(w);
  });
});

describe('hanoi.describe and className', () => {
  it('names the class by disc count and draws the pegs', () => {
    const s = state('BCC', 'CCC');
    expect(hanoi.className(s)).toBe('hanoi 3');
    expect(hanoi.isSolved(s)).toBe(false);
    expect(hanoi.isSolved(hanoi.goal({ kind: 'hanoi', discs: 4 }))).toBe(true);
    const text = hanoi.describe(s);
    expect(text.split('\n')[0]).toMatch(/start BCC\s+goal CCC/);
    expect(text).toMatch(/A\s+B\s+C/);
    expect(text).toContain('3');
  });
});
