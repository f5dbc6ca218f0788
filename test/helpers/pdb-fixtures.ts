import { readFileSync } from 'node:fs';

/** Shared fixtures of the pattern-database tests. */

/** A 5×5 partition of 3-tile patterns, quick to build; the first three are one corner shape rotated. */
export const SMALL_5X5 = [[1, 2, 6], [4, 5, 10], [16, 21, 22], [3, 7, 8], [9, 14, 15], [11, 12, 13], [17, 18, 19], [20, 23, 24]];

/** Korf & Felner's fifty 24-puzzles in the arena's convention, with their published optimal lengths. */
export function korfFelner24(): { id: number; tiles: number[]; optimal: number }[] {
  const doc = JSON.parse(readFileSync(new URL('../fixtures/sliding/korf-felner-24-puzzle.json', import.meta.url), 'utf8')) as {
    instances: { id: number; korfTiles: number[]; optimal: number }[];
  };
  // Korf's goal has the blank first: turning the board 180° and relabelling t as 25 - t gives ours.
  return doc.instances.map((x) => ({ id: x.id, optimal: x.optimal, tiles: Array.from({ length: 25 }, (_, c) => (x.korfTiles[24 - c] === 0 ? 0 : 25 - x.korfTiles[24 - c])) }));
}
