import { describe, expect, it } from 'vitest';
import { hanoi } from '../../src/puzzles/hanoi/index.ts';
import { iterativeChunks } from '../../bots/hanoi-iterative/iterative.ts';
import { solveHanoiIterative } from '../../bots/hanoi-iterative/solve.ts';
import { planChunks } from '../../bots/hanoi-recursive/chunks.ts';
import { parsePegs, planHanoi } from '../../bots/hanoi-recursive/plan.ts';

const PAIRS: Array<[number, number]> = [
  [0, 1],
  [0, 2],
  [1, 0],
  [1, 2],
  [2, 0],
  [2, 1],
];

describe('hanoi-iterative moves', () => {
  it('uses 2^n - 1 moves and replays to the goal for every peg pair and n <= 16', () => {
    for (const [from, to] of PAIRS) {
      for (let n = 1; n <= 16; n++) {
        const start = 'ABC'[from].repeat(n);
        const goal = 'ABC'[to].repeat(n);
        const replayer = hanoi.replayer({ kind: 'hanoi', pegs: 3, start, goal });
        let chars = 0;
        for (const chunk of iterativeChunks(n, from, to, 1000)) {
          expect(chunk.length).toBeLessThanOrEqual(1000);
          expect(replayer.push(chunk)).toBeNull();
          chars += chunk.length;
        }
        expect(chars).toBe(2 * (2 ** n - 1));
        expect(replayer.finish()).toEqual({ verdict: 'solved', moves: 2 ** n - 1 });
      }
    }
  });

  it('equals the recursive solution move for move (the optimum is unique)', () => {
    for (let n = 1; n <= 12; n++) {
      const iterative = [...iterativeChunks(n, 0, 2)].join('');
      const recursive = [...planChunks(planHanoi(parsePegs('A'.repeat(n))!, parsePegs('C'.repeat(n))!))].join('');
      expect(iterative).toBe(recursive);
    }
  });
});

describe('hanoi-iterative solver', () => {
  it('declines non-tower starts and goals with a reason', () => {
    const a = solveHanoiIterative({ kind: 'hanoi', pegs: 3, start: 'BCC', goal: 'CCC' });
    expect(a).toHaveProperty('unsupported');
    expect((a as { unsupported: string }).unsupported).toMatch(/one peg at the start/);
    expect(solveHanoiIterative({ kind: 'hanoi', pegs: 3, start: 'AAA', goal: 'ACC' })).toHaveProperty('unsupported');
    expect(solveHanoiIterative({ kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] })).toHaveProperty('unsupported');
  });

  it('solves a tower with optimal: true', () => {
    const a = solveHanoiIterative({ kind: 'hanoi', pegs: 3, start: 'BBB', goal: 'AAA' });
    expect(a).toMatchObject({ optimal: true });
    const moves = [...(a as { moves: Iterable<string> }).moves].join('');
    expect(hanoi.replay({ kind: 'hanoi', pegs: 3, start: 'BBB', goal: 'AAA' }, moves)).toEqual({ verdict: 'solved', moves: 7 });
  });
});
