import { describe, expect, it } from 'vitest';
import { askBot } from '../helpers/ask-bot.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { createRng, shuffleInPlace } from '../../src/core/rng.ts';
import { swaps } from '../../src/puzzles/swaps/index.ts';

describe('swaps bots main', () => {
  const rng = createRng('swaps-main');
  const big: PuzzleState = { kind: 'swaps', rows: 500, cols: 500, tiles: shuffleInPlace(Array.from({ length: 250_000 }, (_, k) => k + 1), rng) };
  const hundred: PuzzleState = { kind: 'swaps', rows: 100, cols: 100, tiles: shuffleInPlace(Array.from({ length: 10_000 }, (_, k) => k + 1), rng) };
  const small: PuzzleState = { kind: 'swaps', rows: 3, cols: 3, tiles: [3, 1, 2, 6, 4, 5, 9, 7, 8] };

  it('swaps-greedy streams n - cycles swaps over stdio, 250,000 pieces in chunks', async () => {
    const { hello, answers } = await askBot('bots/swaps-greedy/main.ts', [small, big, { kind: 'hanoi', pegs: 3, start: 'A', goal: 'B' }]);
    expect(hello).toMatchObject({ name: 'swaps-greedy', capabilities: [{ kind: 'swaps' }] });
    expect(answers[0].moves).toHaveLength(6);
    const out = swaps.replay(big as never, answers[1].moves);
    expect(out.verdict).toBe('solved');
    expect(answers[1].info).toMatchObject({ optimal: true });
    expect(answers[2]).toMatchObject({ type: 'unsupported' });
  });

  it('swaps-adjacent solves small boards and gives up past maxMoves over stdio', async () => {
    const { hello, answers } = await askBot('bots/swaps-adjacent/main.ts', [small, hundred, big], 1_000_000);
    expect(hello).toMatchObject({ name: 'swaps-adjacent', capabilities: [{ kind: 'swaps', maxSize: 100 }] });
    expect(answers[0].moves).toHaveLength(6); // 3 rotations of 3 = 2 inversions each
    expect(swaps.replay(small as never, answers[0].moves).verdict).toBe('solved');
    expect(answers[1]).toMatchObject({ type: 'give-up' }); // ~25 million inversions
    expect(answers[1].reason).toMatch(/over the limit of 1000000/);
    expect(answers[2]).toMatchObject({ type: 'unsupported' }); // 250,000 pieces > maxSize
  });
});
