import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { HanoiState } from '../../src/core/types.ts';
import { hanoi } from '../../src/puzzles/hanoi/index.ts';
import { hanoiDistance } from '../../src/puzzles/hanoi/distance.ts';
import { planChunks } from '../../bots/hanoi-recursive/chunks.ts';
import { parsePegs, planHanoi } from '../../bots/hanoi-recursive/plan.ts';
import { solveHanoiRecursive } from '../../bots/hanoi-recursive/solve.ts';

/** All states of n discs as peg strings, index = base-3 number with disc 0 as the lowest digit. */
function allStates(n: number): string[] {
  const out: string[] = [];
  for (let code = 0; code < 3 ** n; code++) {
    let s = '';
    for (let i = 0, c = code; i < n; i++, c = Math.floor(c / 3)) s += 'ABC'[c % 3];
    out.push(s);
  }
  return out;
}

/** Test-local oracle: breadth-first search distances from `start` over the whole n-disc state graph. */
function bfsFrom(start: string): Map<string, number> {
  const dist = new Map<string, number>([[start, 0]]);
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    const top = [-1, -1, -1]; // smallest disc on each peg
    for (let i = s.length - 1; i >= 0; i--) top[s.charCodeAt(i) - 65] = i;
    for (let from = 0; from < 3; from++) {
      if (top[from] < 0) continue;
      for (let to = 0; to < 3; to++) {
        if (to === from || (top[to] >= 0 && top[to] < top[from])) continue;
        const next = s.slice(0, top[from]) + 'ABC'[to] + s.slice(top[from] + 1);
        if (!dist.has(next)) {
          dist.set(next, dist.get(s)! + 1);
          queue.push(next);
        }
      }
    }
  }
  return dist;
}

function joined(start: string, goal: string, chunkChars?: number): string {
  const plan = planHanoi(parsePegs(start)!, parsePegs(goal)!);
  return [...planChunks(plan, chunkChars)].join('');
}

describe('hanoi-recursive plan', () => {
  for (let n = 1; n <= 5; n++) {
    it(`is optimal and legal for every start/goal pair of ${n} discs (BFS oracle)`, () => {
      const states = allStates(n);
      const failures: string[] = [];
      for (const start of states) {
        const dist = bfsFrom(start);
        for (const goal of states) {
          const moves = joined(start, goal);
          const want = dist.get(goal)!;
          const state: HanoiState = { kind: 'hanoi', pegs: 3, start, goal };
          const replay = hanoi.replay(state, moves);
          const planned = planHanoi(parsePegs(start)!, parsePegs(goal)!).moves;
          const ok = moves.length / 2 === want && planned === want && hanoiDistance(start, goal) === want;
          if (!ok || replay.verdict !== 'solved') failures.push(`${start}->${goal}: ${moves} (want ${want})`);
        }
      }
      // One assertion per disc count keeps 59,049 pairs fast; the message lists the first failures.
      expect(failures.slice(0, 5)).toEqual([]);
    });
  }

  it('moves the largest differing disc twice when that is shorter (BBAA -> AABA in 5)', () => {
    expect(joined('BBAA', 'AABA').length / 2).toBe(5);
  });

  it('matches the exact distance for random pairs up to 24 discs, and replays them up to 16', () => {
    const rng = createRng('hanoi-recursive-random');
    for (let i = 0; i < 300; i++) {
      const n = 1 + rng.int(24);
      let start = '';
      let goal = '';
      for (let d = 0; d < n; d++) {
        start += 'ABC'[rng.int(3)];
        goal += 'ABC'[rng.int(3)];
      }
      const plan = planHanoi(parsePegs(start)!, parsePegs(goal)!);
      expect(plan.moves).toBe(hanoiDistance(start, goal));
      if (n <= 16) {
        const replayer = hanoi.replayer({ kind: 'hanoi', pegs: 3, start, goal });
        for (const chunk of planChunks(plan, 4096)) expect(replayer.push(chunk)).toBeNull();
        expect(replayer.finish()).toEqual({ verdict: 'solved', moves: plan.moves });
      }
    }
  });
});

describe('hanoi-recursive chunks', () => {
  it('streams a 20-disc answer in bounded chunks that replay to the goal', () => {
    const start = 'ABCABCABCABCABCABCAB';
    const goal = 'CCCCCCCCCCCCCCCCCCCC';
    const plan = planHanoi(parsePegs(start)!, parsePegs(goal)!);
    const replayer = hanoi.replayer({ kind: 'hanoi', pegs: 3, start, goal });
    let chunks = 0;
    for (const chunk of planChunks(plan, 100_000)) {
      expect(chunk.length).toBeLessThanOrEqual(100_000);
      expect(chunk.length % 2).toBe(0);
      expect(replayer.push(chunk)).toBeNull();
      chunks++;
    }
    expect(replayer.finish()).toEqual({ verdict: 'solved', moves: hanoiDistance(start, goal) });
    expect(chunks).toBe(Math.ceil((plan.moves * 2) / 100_000));
  });

  it('streams the 24-disc tower (16,777,215 moves) as ~1 MB chunks', () => {
    let total = 0;
    let biggest = 0;
    for (const chunk of planChunks(planHanoi(parsePegs('A'.repeat(24))!, parsePegs('C'.repeat(24))!))) {
      total += chunk.length;
      biggest = Math.max(biggest, chunk.length);
    }
    expect(total).toBe(2 * (2 ** 24 - 1));
    expect(biggest).toBe(1 << 20);
  });
});

describe('hanoi-recursive solver', () => {
  it('answers with a chunk iterable and optimal: true; declines other kinds and too many discs', () => {
    const a = solveHanoiRecursive({ kind: 'hanoi', pegs: 3, start: 'BCC', goal: 'CCC' });
    expect(a).toMatchObject({ optimal: true });
    expect([...((a as { moves: Iterable<string> }).moves)].join('')).toBe('BC');
    expect(solveHanoiRecursive({ kind: 'hanoi', pegs: 3, start: 'A'.repeat(25), goal: 'C'.repeat(25) })).toHaveProperty('unsupported');
    expect(solveHanoiRecursive({ kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] })).toHaveProperty('unsupported');
    expect(solveHanoiRecursive({ kind: 'hanoi', pegs: 3, start: 'AD', goal: 'CC' })).toHaveProperty('giveUp');
  });
});
