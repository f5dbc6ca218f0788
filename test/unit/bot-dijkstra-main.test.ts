import { describe, expect, it } from 'vitest';
import { askBot } from '../helpers/ask-bot.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';

describe('dijkstra main', () => {
  it('speaks the protocol over stdio: optimal answers, unsupported for big boards and other kinds', async () => {
    const seedExample: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [4, 1, 3, 7, 0, 6, 5, 2, 8] };
    const { hello, answers } = await askBot('bots/dijkstra/main.ts', [
      seedExample,
      { kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] },
      { kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' },
    ]);
    expect(hello).toMatchObject({ name: 'dijkstra', version: '1.0.0', capabilities: [{ kind: 'sliding', maxSize: 5 }] });
    expect(answers[0]).toMatchObject({ moves: 'DLUURDDR', info: { optimal: true } });
    expect(sliding.replay(seedExample as never, answers[0].moves).verdict).toBe('solved');
    expect(answers[1]).toMatchObject({ type: 'unsupported', id: '1' });
    expect(answers[2]).toMatchObject({ type: 'unsupported', id: '2' });
  });
});
