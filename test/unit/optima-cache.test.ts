import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState, SlidingState } from '../../src/core/types.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { sliding } from '../../src/puzzles/sliding/index.ts';
import { isSolvable } from '../../src/puzzles/sliding/parity.ts';
import { stateKey } from '../../src/referee/refine-bounds.ts';

describe('stateKey', () => {
  it('stateKey - equal states have equal keys however their JSON was written; different states differ', () => {
    const rng = createRng('state keys');
    const states: PuzzleState[] = [];
    for (let i = 0; i < 200; i++) {
      states.push(puzzles.sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng));
      states.push(puzzles.hanoi.scramble({ kind: 'hanoi', discs: 6 }, rng));
    }
    const keys = new Set(states.map(stateKey));
    expect(keys.size).toBe(new Set(states.map((s) => JSON.stringify(s))).size);
    for (const s of states) {
      // The same state with its fields in reverse order, through a JSON round trip.
      const reversed = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(s).reverse()))) as PuzzleState;
      expect(stateKey(reversed)).toBe(stateKey(s));
    }
    const a: SlidingState = { kind: 'sliding', rows: 2, cols: 3, tiles: [1, 2, 3, 4, 0, 5] };
    expect(stateKey({ ...a, rows: 3, cols: 2 })).not.toBe(stateKey(a));
  });
});

describe("Korf's 100 fixture", () => {
  const doc = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/sliding/korf-100-15-puzzle.json'), 'utf8')) as {
    instances: Array<{ id: number; optimal: number; korf: number[]; tiles: number[] }>;
  };
  it("korf fixture - 100 solvable boards in this project's goal, each at or above its bound with the same parity", () => {
    expect(doc.instances.map((i) => i.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // The published lengths sum to 5,305 (mean 53.05).
    expect(doc.instances.reduce((a, i) => a + i.optimal, 0)).toBe(5305);
    for (const i of doc.instances) {
      // Rotated 180° and relabelled t -> 16 - t: Korf's own tiles (blank-first goal).
      expect(i.tiles.map((t) => (t === 0 ? 0 : 16 - t)).reverse()).toEqual(i.korf);
      expect(isSolvable(i.tiles, 4, 4)).toBe(true);
      const state: SlidingState = { kind: 'sliding', rows: 4, cols: 4, tiles: i.tiles };
      expect(sliding.parse(state).ok).toBe(true);
      const bound = sliding.bound(state);
      expect(bound.lowerBound).toBeLessThanOrEqual(i.optimal);
      expect((i.optimal - bound.lowerBound) % 2).toBe(0);
    }
  });
});
