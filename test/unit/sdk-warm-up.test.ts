import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { allPuzzles, puzzleOf } from '../../src/puzzles/index.ts';
import { specOfClass, throwawayPuzzle, warmUpBySolving } from '../../src/sdk/warm-up.ts';
import type { PrepareRequest, SolveContext } from '../../src/sdk/types.ts';

// The SDK's self warm-up for a bot's prepare: a class name back to its spec, a throwaway puzzle of it, and
// a prepare callback that solves one.

const request = (puzzleClass: string, signal = new AbortController().signal): PrepareRequest => ({
  kind: puzzleClass.split(' ')[0] as PrepareRequest['kind'],
  puzzleClass,
  timeLimitMs: 60_000,
  signal,
});

describe('sdk warm-up', () => {
  it('specOfClass - every class a scramble names reads back to a spec whose scrambles have that class', () => {
    const rng = createRng('sdk warm-up');
    let seen = 0;
    for (const puzzle of allPuzzles()) {
      const specs = [...puzzle.compliance.specs, puzzle.defaultSpec, ...(puzzle.kind === 'hanoi' ? [{ kind: 'hanoi', discs: 7, randomGoal: true }] : [])];
      for (const spec of specs) {
        const norm = puzzle.normalizeSpec(spec);
        if (!norm.ok) continue;
        const cls = puzzle.className(puzzle.scramble(norm.value, rng));
        const back = specOfClass(cls);
        expect(back, cls).toBeDefined();
        expect(puzzle.className(puzzle.scramble(back!, rng))).toBe(cls);
        seen++;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(10);
    for (const bad of ['', 'chess 8x8', 'sliding', 'sliding 4', 'sliding 0x4', 'hanoi x', 'warehouse 5']) expect(specOfClass(bad), bad).toBeUndefined();
  });

  it('throwawayPuzzle - the same puzzle of the class every time; by walk when asked; none over maxSize or for an unknown class', () => {
    const a = throwawayPuzzle('sliding 3x3')!;
    expect(puzzleOf(a).className(a)).toBe('sliding 3x3');
    expect(throwawayPuzzle('sliding 3x3')).toEqual(a);
    const walked = throwawayPuzzle('sliding 4x4', { walk: 6 })!;
    expect(puzzleOf(walked).bound(walked).lowerBound).toBeLessThanOrEqual(6);
    expect(throwawayPuzzle('hanoi 6 random-goal')).toMatchObject({ kind: 'hanoi' });
    expect(throwawayPuzzle('sliding 4x4', { maxSize: 3 })).toBeUndefined();
    expect(throwawayPuzzle('swaps 3x3', { maxSize: 3 })).toBeDefined();
    expect(throwawayPuzzle('cube 3')).toBeUndefined();
  });

  it('warmUpBySolving - solves one throwaway of the class with the bot\'s own solve and reads a streamed answer to its end', async () => {
    const asked: Array<{ puzzle: PuzzleState; ctx: SolveContext }> = [];
    let chunksRead = 0;
    const prepare = warmUpBySolving(
      (puzzle, ctx) => {
        asked.push({ puzzle, ctx });
        return {
          moves: (function* () {
            for (let i = 0; i < 3; i++, chunksRead++) yield 'U';
          })(),
        };
      },
      { maxSize: 4 },
    );
    await prepare(request('sliding 4x4'));
    expect(asked).toHaveLength(1);
    expect(puzzleOf(asked[0]!.puzzle).className(asked[0]!.puzzle)).toBe('sliding 4x4');
    expect(asked[0]!.ctx.timeLimitMs).toBe(30_000); // half the prepare's limit, so ready is still in time
    expect(chunksRead).toBe(3);
    await prepare(request('sliding 5x5')); // over maxSize: skipped
    const stopped = new AbortController();
    stopped.abort();
    await prepare(request('sliding 3x3', stopped.signal)); // cancelled before it began
    expect(asked).toHaveLength(1);
  });
});
