/**
 * `npm run bench -- --only referee-floor`: only the referee-against-its-floor rows of the `referee` suite
 * (unpinned, then pinned where a default match pins), without its long-answer and peak-memory rows. Opt-in:
 * a full run gets these rows from `referee`.
 */
import { againstFloor, defaultPins } from './_against-floor.ts';
import type { BenchSuite } from './types.ts';

/** Runs only when --only names it. */
export const optIn = true;

export const bench: BenchSuite = async ({ quick }) => {
  const pins = defaultPins();
  const count = quick ? 1000 : 3000;
  const pairs = quick ? 3 : 5;
  return [...(await againstFloor(count, pairs)), ...(pins ? await againstFloor(count, pairs, pins) : [])];
};
