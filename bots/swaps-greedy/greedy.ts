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

/** Checks that `tiles` is a permutation of 1..n and returns it as a typed array, else null. */
export function toPermutation(tiles: ArrayLike<number>): Uint32Array | null {
  const n = tiles.length;
  const a = new Uint32Array(n);
  const seen = new Uint8Array(n + 1);
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (!(Number.isInteger(t) && t >= 1 && t <= n) || seen[t]) return null;
    seen[t] = 1;
    a[i] = t;
  }
  return a;
}

/** Number of cycles of the permutation (fixed points count as cycles): the answer has n − cycles swaps. */
export function countCycles(tiles: Uint32Array): number {
  const n = tiles.length;
  const seen = new Uint8Array(n);
  let cycles = 0;
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue;
    cycles++;
    for (let j = i; !seen[j]; j = tiles[j] - 1) seen[j] = 1;
  }
  return cycles;
}

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
