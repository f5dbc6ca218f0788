import { z } from 'zod';

/**
 * Field types shared by the kinds' wire shapes ({@link Puzzle.wireShape}). Structural only: ranges,
 * permutations and sizes are each kind's `parse`.
 */
export const wireCount = z.number().int().nonnegative();

/** An array of integers (tiles, cells). */
export const wireInts = z.array(z.number().int());
