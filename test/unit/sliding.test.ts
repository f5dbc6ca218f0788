import { describe, expect, it } from 'vitest';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { manhattanLinearConflict } from '../../src/puzzles/sliding/bound.ts';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';

const spec = (rows: number, cols: number) => ({ kind: 'sliding' as const, rows, cols });

describe('sliding puzzle', () => {
  it('has the goal 1..n-1 then the blank, which isSolved accepts', () => {
    const g = sliding.goal(spec(2, 3));
    expect(g).toEqual({ kind: 'sliding', rows: 2, cols: 3, tiles: [1, 2, 3, 4, 5, 0] });
    expect(sliding.isSolved(g)).toBe(true);
    expect(sliding.isSolved({ ...g, tiles: [1, 2, 3, 4, 0, 5] })).toBe(false);
    expect(sliding.goal({ kind: 'sliding', size: 3 }).tiles).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0]);
  });

  it('throws on a spec that was not normalized (programmer error)', () => {
    expect(() => sliding.goal({ kind: 'sliding', size: 1 })).toThrow(RangeError);
  });

  it('round-trips a scramble through canonical JSON and parse', () => {
    const rng = createRng('json');
    for (const [r, c] of [[2, 2], [3, 5], [7, 4], [30, 30]] as const) {
      const s = sliding.scramble(spec(r, c), rng);
      const text = JSON.stringify(s);
      expect(text.startsWith(`{"kind":"sliding","rows":${r},"cols":${c},"tiles":[`)).toBe(true);
      expect(sliding.parse(JSON.parse(text))).toEqual({ ok: true, value: s });
    }
  });

  it('names its class rows x cols', () => {
    expect(sliding.className(sliding.goal(spec(4, 4)))).toBe('sliding 4x4');
    expect(sliding.className(sliding.goal(spec(3, 5)))).toBe('sliding 3x5');
  });

  it('describes a small board with right-aligned numbers and the blank as a dot', () => {
    const s: SlidingState = { kind: 'sliding', rows: 3, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 0, 8, 9, 10, 11, 7] };
    expect(sliding.describe(s)).toBe([' 1  2  3  4', ' 5  6  .  8', ' 9 10 11  7'].join('\n'));
  });

  it('describes a huge board by its size and top-left corner only', () => {
    const text = sliding.describe(sliding.goal(spec(1000, 1000)));
    const lines = text.split('\n');
    expect(lines[0]).toBe('1000x1000 board, top-left 10x10 corner:');
    expect(lines[1]).toBe('     1      2      3      4      5      6      7      8      9     10 …');
    expect(lines.length).toBe(12);
    expect(lines[11]).toBe('…');
  });

  it('bounds small boards exactly and larger ones by Manhattan + linear conflict', () => {
    const rng = createRng('bound');
    for (const [r, c] of [[2, 2], [2, 4], [4, 2], [3, 3]] as const) {
      const s = sliding.scramble(spec(r, c), rng);
      const d = slidingTable(r, c).distance(s.tiles);
      expect(sliding.bound(s)).toEqual({ optimal: d, lowerBound: d });
    }
    const big = sliding.scramble(spec(4, 4), rng);
    expect(sliding.bound(big)).toEqual({ lowerBound: manhattanLinearConflict(big.tiles, 4, 4) });
    expect(sliding.bound(sliding.goal(spec(2, 5)))).toEqual({ lowerBound: 0 });
  });

  it('replays a table solution of a 3x3 scramble as solved and an extra move as invalid', () => {
    const s = sliding.scramble({ kind: 'sliding', size: 3 }, createRng(11));
    const moves = slidingTable(3, 3).solve(s.tiles);
    expect(sliding.replay(s, moves)).toEqual({ verdict: 'solved', moves: moves.length });
    const extra = sliding.replay(s, moves + 'U');
    expect(extra).toEqual({ verdict: 'invalid', moves: moves.length + 1, reason: 'not solved after the last move' });
  });
});
