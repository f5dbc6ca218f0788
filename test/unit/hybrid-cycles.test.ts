import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { applyMoves, makeBoard } from '../../src/solvers/sliding/board.ts';
import { removeCycles } from '../../bots/shared/cycles.ts';

/** A random walk of `len` legal moves (it may undo itself and revisit states). */
function randomWalk(rows: number, cols: number, tiles: readonly number[], len: number, seed: string): string {
  const rng = createRng(seed);
  const board = makeBoard(rows, cols);
  let blank = tiles.indexOf(0);
  let out = '';
  while (out.length < len) {
    const d = rng.int(4);
    const to = board.neighbor[blank * 4 + d];
    if (to < 0) continue;
    out += 'UDLR'[d];
    blank = to;
  }
  return out;
}

/** Every state along `moves`, as strings. */
function statesAlong(rows: number, cols: number, tiles: readonly number[], moves: string): string[] {
  const board = makeBoard(rows, cols);
  const out = [tiles.join(',')];
  for (let i = 1; i <= moves.length; i++) out.push(Array.from(applyMoves(board, tiles, moves.slice(0, i))!).join(','));
  return out;
}

describe('hybrid cycles - removeCycles', () => {
  it('keeps the end state, leaves no state twice, and only ever shortens (random walks full of loops)', () => {
    for (let k = 0; k < 30; k++) {
      const rows = 2 + (k % 3);
      const cols = 2 + ((k >> 1) % 4);
      const start = sliding.scramble({ kind: 'sliding', rows, cols }, createRng(`cycles ${k}`)).tiles;
      const walk = randomWalk(rows, cols, start, 200, `walk ${k}`);
      const cut = removeCycles(rows, cols, start, walk);
      const board = makeBoard(rows, cols);
      expect(Array.from(applyMoves(board, start, cut)!)).toEqual(Array.from(applyMoves(board, start, walk)!));
      const states = statesAlong(rows, cols, start, cut);
      expect(new Set(states).size).toBe(states.length);
      expect(cut.length).toBeLessThanOrEqual(walk.length);
    }
  });

  it('cuts a blank circuit round a 2x2 square (12 moves back to the same state) out of a path', () => {
    const start = sliding.goal({ kind: 'sliding', rows: 3, cols: 3 }).tiles;
    const circuit = 'ULDR'.repeat(3);
    expect(Array.from(applyMoves(makeBoard(3, 3), start, circuit)!)).toEqual(start);
    expect(removeCycles(3, 3, start, circuit)).toBe('');
    expect(removeCycles(3, 3, start, 'U' + circuit + 'L')).toBe('UL');
    expect(removeCycles(3, 3, start, 'UD')).toBe('');
    expect(removeCycles(3, 3, start, 'UULL')).toBe('UULL');
  });
});
