import type { WireMoves } from '../core/types.ts';

/** Default chunk sizes: far below MAX_PAYLOAD (4 MiB) even for 7-digit swap piece numbers. */
export const STRING_CHUNK = 1024 * 1024;
export const PAIR_CHUNK = 100_000;

/**
 * Splits moves into chunks of at most `size` characters (strings) or `size` pairs (arrays). Chunks
 * concatenate back to the input. A string is cut just after a space when one is near the cut, so
 * space-separated notations ("17U 4L") never split inside a move; cuts are kept even so two-letter
 * Hanoi moves stay whole when `size` is even.
 */
export function* chunked(moves: WireMoves, size: number): Iterable<WireMoves> {
  const n = Math.max(1, Math.floor(size));
  if (typeof moves === 'string') {
    let start = 0;
    while (moves.length - start > n) {
      let cut = start + n;
      const space = moves.lastIndexOf(' ', cut - 1);
      if (space >= start && cut - space <= 64) cut = space + 1;
      yield moves.slice(start, cut);
      start = cut;
    }
    yield moves.slice(start);
    return;
  }
  if (moves.length <= n) {
    yield moves;
    return;
  }
  for (let i = 0; i < moves.length; i += n) yield moves.slice(i, i + n);
}
