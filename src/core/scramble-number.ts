/**
 * Scramble numbers. The store keeps each scramble's 0-based index (its position in the seeded sequence);
 * everything a person or a program reads (reports, `--json`, exports, web pages, `/api`, replay URLs and
 * commands) numbers scrambles from 1. These two functions are the only conversions, so each surface
 * converts in one place and no `+ 1` is scattered through the formatting code.
 */

/** The number shown for the scramble stored at `index` (0-based): index + 1. */
export function scrambleNumber(index: number): number {
  return index + 1;
}

/** The stored index of the scramble shown as `number` (from 1); -1 for 0, which names no scramble. */
export function scrambleIndexOf(number: number): number {
  return number - 1;
}
