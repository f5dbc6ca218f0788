import { describe, expect, it } from 'vitest';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { walkTiles, withinOneMove } from '../../src/puzzles/sliding/scramble.ts';
import { createRng } from '../../src/core/rng.ts';
import type { SlidingState } from '../../src/core/types.ts';

const spec = (rows: number, cols: number) => ({ kind: 'sliding' as const, rows, cols });

/** Textbook inversion-count solvability, written independently of src (O(n²), small boards only). */
function textbookSolvable(tiles: readonly number[], rows: number, cols: number): boolean {
  const seq = tiles.filter((t) => t !== 0);
  let inv = 0;
  for (let i = 0; i < seq.length; i++) for (let j = i + 1; j < seq.length; j++) if (seq[i] > seq[j]) inv++;
  if (cols % 2 === 1) return inv % 2 === 0;
  const fromBottom = rows - 1 - Math.floor(tiles.indexOf(0) / cols);
  return (inv + fromBottom) % 2 === 0;
}

function isPermutation(tiles: readonly number[]): boolean {
  const sorted = [...tiles].sort((a, b) => a - b);
  return sorted.every((v, i) => v === i);
}

/** Chi-square statistic of observed counts against a uniform expectation. */
function chiSquare(counts: readonly number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const e = total / counts.length;
  return counts.reduce((s, o) => s + ((o - e) * (o - e)) / e, 0);
}

/** Chi-square critical values at p = 0.001 by degrees of freedom (standard tables). */
const CHI2_001: Record<number, number> = { 8: 26.124, 15: 37.697 };

function invert(moves: string): string {
  const opp: Record<string, string> = { U: 'D', D: 'U', L: 'R', R: 'L' };
  return [...moves].reverse().map((m) => opp[m]).join('');
}

describe('sliding.scramble', () => {
  it('is pinned for seed 1 on 4x4 (a generator change must be noticed and versioned)', () => {
    const s = sliding.scramble({ kind: 'sliding', size: 4 }, createRng(1));
    expect(s).toEqual({ kind: 'sliding', rows: 4, cols: 4, tiles: [13, 5, 6, 2, 3, 9, 14, 4, 11, 1, 10, 7, 0, 8, 12, 15] });
  });

  it('gives the same scrambles for the same seed and different ones for another seed', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 20 }, () => sliding.scramble(spec(5, 3), rng).tiles.join(','));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('produces valid, solvable states at least 2 moves away over thousands of seeds', () => {
    for (const [rows, cols] of [[2, 2], [2, 3], [3, 2], [2, 4], [4, 2], [3, 3]] as const) {
      const table = slidingTable(rows, cols);
      for (let seed = 0; seed < 1500; seed++) {
        const s = sliding.scramble(spec(rows, cols), createRng(seed));
        const d = table.distance(s.tiles);
        if (d < 2 || !isPermutation(s.tiles)) throw new Error(`${rows}x${cols} seed ${seed}: ${s.tiles} at ${d}`);
      }
    }
    for (const [rows, cols] of [[4, 4], [4, 5], [5, 4], [6, 6], [7, 2]] as const) {
      for (let seed = 0; seed < 1000; seed++) {
        const s = sliding.scramble(spec(rows, cols), createRng(seed));
        if (!isPermutation(s.tiles) || !textbookSolvable(s.tiles, rows, cols) || !sliding.parse(s).ok) {
          throw new Error(`${rows}x${cols} seed ${seed}: ${s.tiles}`);
        }
      }
    }
  });

  it('never returns the goal or a state one move away on 2x2 (9 of its 12 states qualify)', () => {
    const rng = createRng('2x2');
    const seen = new Map<string, number>();
    for (let i = 0; i < 9000; i++) {
      const k = sliding.scramble(spec(2, 2), rng).tiles.join(',');
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    expect(seen.size).toBe(9);
    expect(seen.has('1,2,3,0')).toBe(false);
    expect(seen.has('1,0,3,2')).toBe(false);
    expect(seen.has('1,2,0,3')).toBe(false);
    // Every qualifying state equally likely: chi-square with 8 degrees of freedom.
    expect(chiSquare([...seen.values()])).toBeLessThan(CHI2_001[8]);
  });

  it('places the blank uniformly (chi-square, p = 0.001) on 3x3 and 4x4', () => {
    for (const [size, draws] of [[3, 9000], [4, 16000]] as const) {
      const rng = createRng(`blank-${size}`);
      const counts = new Array<number>(size * size).fill(0);
      for (let i = 0; i < draws; i++) counts[sliding.scramble({ kind: 'sliding', size }, rng).tiles.indexOf(0)]++;
      expect(chiSquare(counts)).toBeLessThan(CHI2_001[size * size - 1]);
    }
  });

  it('puts each tile uniformly on a given cell of 4x4 (chi-square, p = 0.001)', () => {
    const rng = createRng('tile-1');
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < 16000; i++) counts[sliding.scramble({ kind: 'sliding', size: 4 }, rng).tiles[0]]++;
    expect(chiSquare(counts)).toBeLessThan(CHI2_001[15]);
  });

  it('scrambles a 1000x1000 board into a valid state', () => {
    const s = sliding.scramble({ kind: 'sliding', size: 1000 }, createRng(3));
    expect(s.tiles.length).toBe(1_000_000);
    expect(sliding.parse(s).ok).toBe(true);
  });
});

describe('withinOneMove', () => {
  it('recognises the goal, one-move states and a far transposition', () => {
    expect(withinOneMove([1, 2, 3, 4, 5, 6, 7, 8, 0], 3)).toBe(true);
    expect(withinOneMove([1, 2, 3, 4, 5, 0, 7, 8, 6], 3)).toBe(true);
    expect(withinOneMove([1, 2, 3, 4, 5, 6, 7, 0, 8], 3)).toBe(true);
    // Only tile 7 misplaced (in the corner), blank on its home 3 cells away: solvable, but not one move.
    const far = [1, 2, 3, 4, 5, 6, 0, 8, 9, 10, 11, 12, 13, 14, 15, 7];
    expect(sliding.parse({ kind: 'sliding', rows: 4, cols: 4, tiles: far }).ok).toBe(true);
    expect(withinOneMove(far, 4)).toBe(false);
  });
});

describe('sliding.walk', () => {
  it('walks exactly k moves without undoing, and the inverted walk solves the state', () => {
    const rng = createRng('walk');
    for (const [rows, cols] of [[2, 2], [3, 3], [4, 4], [3, 7], [10, 2]] as const) {
      for (let i = 0; i < 200; i++) {
        const k = rng.int(80);
        const { tiles, moves } = walkTiles(rows, cols, k, rng);
        expect(moves.length).toBe(k);
        expect(/UD|DU|LR|RL/.test(moves)).toBe(false);
        const goal = sliding.goal(spec(rows, cols));
        const start: SlidingState = { ...goal, tiles: Array.from(tiles) };
        expect(sliding.replay(goal, moves).moves).toBe(k);
        const back = sliding.replay(start, invert(moves));
        expect(back.verdict).toBe('solved');
      }
    }
  });

  it('matches walkTiles through the puzzle interface and is deterministic', () => {
    const a = sliding.walk(spec(4, 4), 50, createRng(9));
    const b = walkTiles(4, 4, 50, createRng(9)).tiles;
    expect(a.tiles).toEqual(Array.from(b));
    expect(sliding.parse(a).ok).toBe(true);
    expect(sliding.walk(spec(3, 3), 0, createRng(1))).toEqual(sliding.goal(spec(3, 3)));
  });

  it('keeps optimal distance ≤ k and of the same parity as k on 3x3', () => {
    const rng = createRng('walk-parity');
    const table = slidingTable(3, 3);
    for (let i = 0; i < 1000; i++) {
      const k = rng.int(40);
      const d = table.distance(walkTiles(3, 3, k, rng).tiles);
      expect(d).toBeLessThanOrEqual(k);
      expect((k - d) % 2).toBe(0);
    }
  });
});
