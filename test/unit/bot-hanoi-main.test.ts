import { describe, expect, it } from 'vitest';
import { askBot } from '../helpers/ask-bot.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { hanoi } from '../../src/puzzles/hanoi/index.ts';

describe('hanoi bots main', () => {
  const puzzles: PuzzleState[] = [
    { kind: 'hanoi', pegs: 3, start: 'BBAA', goal: 'AABA' },
    { kind: 'hanoi', pegs: 3, start: 'A'.repeat(20), goal: 'B'.repeat(20) },
    { kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] },
  ];

  it('hanoi-recursive streams optimal answers over stdio, 20 discs in chunks', async () => {
    const { hello, answers } = await askBot('bots/hanoi-recursive/main.ts', puzzles);
    expect(hello).toMatchObject({ name: 'hanoi-recursive', capabilities: [{ kind: 'hanoi', maxSize: 24 }] });
    expect(answers[0].moves).toHaveLength(10);
    expect(hanoi.replay(puzzles[0] as never, answers[0].moves).verdict).toBe('solved');
    expect(hanoi.replay(puzzles[1] as never, answers[1].moves)).toEqual({ verdict: 'solved', moves: 2 ** 20 - 1 });
    expect(answers[1].info).toMatchObject({ optimal: true });
    expect(answers[2]).toMatchObject({ type: 'unsupported' });
  });

  it('hanoi-iterative declines a non-tower start and streams a tower over stdio', async () => {
    const { hello, answers } = await askBot('bots/hanoi-iterative/main.ts', puzzles);
    expect(hello).toMatchObject({ name: 'hanoi-iterative' });
    expect(answers[0]).toMatchObject({ type: 'unsupported' });
    expect(hanoi.replay(puzzles[1] as never, answers[1].moves)).toEqual({ verdict: 'solved', moves: 2 ** 20 - 1 });
    expect(answers[2]).toMatchObject({ type: 'unsupported' });
  });
});
