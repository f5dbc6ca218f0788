/**
 * Seed 004's greedy for the swap puzzle: while some piece x is misplaced, swap x with the piece y standing on
 * x's home. Every swap puts x home and splits its cycle in two, so a permutation of n pieces with k cycles
 * takes exactly n − k swaps, which is optimal (seed 004, Theorem 1).
 *
 * O(n) overall with a position array: pieces are visited in order 1..n and each swap is O(1). Pieces are
 * 1..n and piece x's home is index x − 1 (goal ascending, row-major).
 */

/** Default largest chunk, in pairs: 100k pairs is ~1.4 MB of JSON, under the 4 MB payload limit. */
export const DEFAULT_CHUNK_PAIRS = 100_000;

/**
 * Yields the greedy's swaps as arrays of at most `chunkPairs` [x, y] pairs. `tiles` (a permutation of 1..n)
 * is sorted in place as the generator runs.
 */
export function* greedySwapChunks(
  tiles: Uint32Array,
  chunkPairs = DEFAULT_CHUNK_PAIRS,
): Generator<Array<[number, number]>, void, undefined> {
  const n = tiles.length;
  const pos = new Uint32Array(n + 1); // pos[x] = index where piece x stands
  for (let i = 0; i < n; i++) pos[tiles[i]] = i;
  let chunk: Array<[number, number]> = [];
  for (let x = 1; x <= n; x++) {
    const px = pos[x];
    if (px === x - 1) continue;
    const y = tiles[x - 1]; // the piece standing on x's home
    tiles[x - 1] = x;
    pos[x] = x - 1;
    tiles[px] = y;
    pos[y] = px;
    chunk.push([x, y]);
    if (chunk.length === chunkPairs) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
