import { describe, expect, it } from 'vitest';
import { askBot } from '../helpers/ask-bot.ts';
import type { PuzzleState } from '../../src/core/types.ts';

describe('backtracking main', () => {
  it('speaks the protocol over stdio: a 31-move optimum, unsupported for 10 cells, give-up when unsolvable', async () => {
    const { hello, answers } = await askBot('bots/backtracking/main.ts', [
      { kind: 'sliding', rows: 3, cols: 3, tiles: [8, 6, 7, 2, 5, 4, 3, 0, 1] },
      { kind: 'sliding', rows: 2, cols: 5, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0, 9] },
      { kind: 'sliding', rows: 3, cols: 3, tiles: [2, 1, 3, 4, 5, 6, 7, 8, 0] },
    ]);
    expect(hello).toMatchObject({ name: 'backtracking', capabilities: [{ kind: 'sliding', maxSize: 3 }] });
    expect(answers[0].moves).toHaveLength(31);
    expect(answers[0].info).toMatchObject({ optimal: true });
    expect(answers[1]).toMatchObject({ type: 'unsupported' });
    expect(answers[2]).toMatchObject({ type: 'give-up' });
  });
});
